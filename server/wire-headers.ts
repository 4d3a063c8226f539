/**
 * svc's own response headers go out in the original API's spelling
 * (`X-OAuth-Scopes`, `X-RateLimit-Limit`, `Retry-After`, `X-SVC-...`): HTTP
 * says names are case-insensitive, but client libraries written against
 * App.net look them up exactly as it sent them. hapi's `response.header()`
 * lower-cases every name, while the keys of `response.headers` (and of a
 * Boom's `output.headers`) reach Node's `setHeader` as they are, and Node
 * keeps the case it is given. So these headers are written there directly.
 */
import type { ResponseObject } from '@hapi/hapi'
import Boom from '@hapi/boom'

/** Sets `name` on the response (or error) being answered, spelled exactly so on the wire. */
export function setWireHeader(response: ResponseObject | Boom.Boom, name: string, value: string): void {
  const headers: Record<string, unknown> = Boom.isBoom(response) ? response.output.headers : response.headers
  // One spelling only: a lower-cased copy set earlier would otherwise decide the spelling instead.
  delete headers[name.toLowerCase()]
  headers[name] = value
}
