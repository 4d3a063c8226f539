/**
 * The one place svc decides its own address for a request: every URL it
 * writes (canonical URLs, image and avatar links, app stream endpoints,
 * pages), the origin svc's own web client may return to after sign-in, the
 * web client's CSP and whether the session cookie is Secure all come from
 * `baseUrlOf`. With `public_url` set, that is it, whatever the request says.
 * Without, the request's scheme (X-Forwarded-Proto from a trusted proxy,
 * `http` or `https` only) and host (X-Forwarded-Host from a trusted proxy,
 * else Host), but only a host that names this machine or is in
 * `allowed_hosts`; any other host gets svc's own `http://localhost:PORT`
 * rather than a name the visitor chose.
 */
import type { Request, Server } from '@hapi/hapi'
import { allowedHost, forwardedHeader, trustOf } from './trust.js'

const WILDCARDS = new Set(['', '0.0.0.0', '::'])

/** The server's own name for itself: the address it listens on, localhost for all of them. */
const ownHost = (server: Server): string => {
  const host = server.info.host
  const name = WILDCARDS.has(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host
  return `${name}:${server.info.port}`
}

/** The scheme the visitor used: what a trusted proxy says (http or https only), else the server's own. */
const schemeOf = (request: Request): string => {
  const forwarded = forwardedHeader(request, 'x-forwarded-proto')?.toLowerCase()
  return forwarded === 'http' || forwarded === 'https' ? forwarded : request.server.info.protocol
}

/** svc's public address for this request, without a trailing slash. */
export function baseUrlOf(request: Request): string {
  const trust = trustOf(request)
  if (trust.publicUrl) return trust.publicUrl
  const host = allowedHost(trust, forwardedHeader(request, 'x-forwarded-host') ?? request.info.host) ?? ownHost(request.server)
  return `${schemeOf(request)}://${host}`
}

/** The origin (`scheme://host[:port]`) of `baseUrlOf`. */
export const originOf = (request: Request): string => new URL(baseUrlOf(request)).origin

/** Does the visitor reach svc over https (by `baseUrlOf`)? Then its cookies are Secure. */
export const overHttps = (request: Request): boolean => baseUrlOf(request).startsWith('https:')
