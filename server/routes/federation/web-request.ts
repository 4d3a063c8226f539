/**
 * hapi to Fedify and back: a hapi request as the Web `Request` that
 * `federation.fetch` takes, and its `Response` as a hapi response. The URL
 * is the one other servers address: `public_url`'s origin, whatever Host
 * a proxy passed on, since signatures name the host the signer sent to. The
 * body goes across as the bytes that arrived (the route leaves it unparsed),
 * so its Digest and signature verify.
 */
import type { Request, ResponseObject, ResponseToolkit } from '@hapi/hapi'
import { DomainError, type FederationService } from '../../../data/index.js'

/** Headers about this hop's connection, not the request: Fedify has no use for them. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection'])

/** `request` as a Web Request to `origin`, at `path` (default: its own path) with its query. */
export function webRequestOf(request: Request, origin: string, path: string = request.path): globalThis.Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !HOP_HEADERS.has(name)) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value))
  }
  headers.set('host', new URL(origin).host)
  const method = request.method.toUpperCase()
  const body = method === 'GET' || method === 'HEAD' || !Buffer.isBuffer(request.payload) ? undefined : new Uint8Array(request.payload)
  return new globalThis.Request(new URL(`${path}${request.url.search}`, origin), { method, headers, body })
}

/** A Web Response as hapi's. */
export async function hapiResponseOf(h: ResponseToolkit, response: globalThis.Response): Promise<ResponseObject> {
  const out = h.response(Buffer.from(await response.arrayBuffer())).code(response.status)
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') out.header(name, value)
  })
  return out
}

/** The envelope's 404, saying why when federation is off. */
export const federationNotFound = (federation: FederationService): DomainError => new DomainError('not_found', federation.off ?? 'Not found')

/**
 * Asks federation for `request` (at `path`, default its own): its answer as
 * hapi's, or the envelope's 404 when federation is off or has nothing there.
 */
export async function answerFederation(federation: FederationService, request: Request, h: ResponseToolkit, path?: string): Promise<ResponseObject> {
  if (!federation.site) throw federationNotFound(federation)
  const response = await federation.fetch(webRequestOf(request, federation.site.origin, path))
  if (!response) throw federationNotFound(federation)
  return hapiResponseOf(h, response)
}

/** Does the request ask for ActivityStreams (`application/activity+json`, or `application/ld+json` with the ActivityStreams profile)? */
export function wantsActivityStreams(request: Request): boolean {
  const accept = String(request.headers.accept ?? '')
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase())
    if (type === 'application/activity+json') return true
    return type === 'application/ld+json' && params.some((p) => p.replace(/\s/g, '') === 'profile="https://www.w3.org/ns/activitystreams"')
  })
}
