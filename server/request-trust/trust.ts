/**
 * What svc believes of a request's account of itself. Anyone may write
 * X-Forwarded-For, X-Forwarded-Proto, X-Forwarded-Host or Host, so they are
 * believed only as far as the operator said: forwarded headers from the
 * proxies in `trusted_proxies`, and a Host that is this machine's own name or
 * one of `allowed_hosts`. Built once per server from the config, kept on
 * `server.app.trust`.
 */
import type { Request, Server } from '@hapi/hapi'
import { networkInterfaces } from 'node:os'
import proxyaddr from 'proxy-addr'
import { HOST_PATTERN, type InstanceConfig } from '../../data/index.js'

/** A host name as svc compares it: lower case, IPv6 in brackets; a rule without a port allows any. */
interface HostName {
  name: string
  port?: string
}

export interface RequestTrust {
  /** `public_url` without its trailing slash; '' when the operator set none. */
  publicUrl: string
  /** Is the address (at `hop` from svc, 0 for the peer) one of the operator's proxies? Null: none are. */
  proxy: ((address: string, hop: number) => boolean) | null
  allowedHosts: HostName[]
  /** This machine's own names: localhost and its interfaces' addresses, as a Host header writes them. */
  ownNames: Set<string>
}

const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/

/** `host` (a Host header's value) split into name and port; null when it is not a plain host[:port]. */
export function hostNameOf(host: string): HostName | null {
  const match = HOST_PATTERN.exec(host)
  if (!match) return null
  return match[2] === undefined ? { name: match[1].toLowerCase() } : { name: match[1].toLowerCase(), port: match[2] }
}

/** localhost and every address of this machine's interfaces (read at start), as names in a Host header. */
function ownNames(): Set<string> {
  const names = new Set(['localhost', '[::1]'])
  for (const addresses of Object.values(networkInterfaces())) {
    for (const { address, family } of addresses ?? []) names.add(family === 'IPv6' ? `[${address.replace(/%.*$/, '').toLowerCase()}]` : address)
  }
  return names
}

export function requestTrustOf(config: Pick<InstanceConfig, 'public_url' | 'allowed_hosts' | 'trusted_proxies'>): RequestTrust {
  const proxies = config.trusted_proxies ?? []
  return {
    publicUrl: config.public_url.replace(/\/$/, ''),
    proxy: proxies.length > 0 ? proxyaddr.compile(proxies) : null,
    allowedHosts: (config.allowed_hosts ?? []).map(hostNameOf).filter((host): host is HostName => host !== null),
    ownNames: ownNames(),
  }
}

const NO_TRUST: RequestTrust = { publicUrl: '', proxy: null, allowedHosts: [], ownNames: new Set(['localhost', '[::1]']) }

/** The trust of the server that answers `request` (none at all on a server svc did not build). */
export const trustOf = (request: Request): RequestTrust => request.server.app.trust ?? NO_TRUST

/** Sets the trust of `server`, from its instance's config. */
export function trustRequests(server: Server, config: InstanceConfig): void {
  server.app.trust = requestTrustOf(config)
}

/** Did the request come straight from one of the operator's proxies? */
export const fromTrustedProxy = (request: Request): boolean => {
  const { proxy } = trustOf(request)
  return proxy !== null && proxy(request.raw.req.socket.remoteAddress ?? '', 0)
}

/** The first value of a forwarded header (the one the first proxy wrote), when a trusted proxy sent the request; else undefined. */
export function forwardedHeader(request: Request, name: 'x-forwarded-proto' | 'x-forwarded-host'): string | undefined {
  const value = request.headers[name]
  if (typeof value !== 'string' || !fromTrustedProxy(request)) return undefined
  return value.split(',')[0].trim() || undefined
}

/** `host` when the operator allowed it or it names this machine (with any port); else null. */
export function allowedHost(trust: RequestTrust, host: string | undefined): string | null {
  const parsed = host === undefined ? null : hostNameOf(host)
  if (!parsed) return null
  const own = trust.ownNames.has(parsed.name) || LOOPBACK_V4.test(parsed.name)
  if (!own && !trust.allowedHosts.some((rule) => rule.name === parsed.name && (rule.port === undefined || rule.port === parsed.port))) return null
  return parsed.port === undefined ? parsed.name : `${parsed.name}:${parsed.port}`
}
