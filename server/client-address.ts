/**
 * The address a request came from, as every per-address rule (rate limits,
 * sign-in guesses, image resizing) counts it: the peer's own address, or,
 * when the peer is one of the operator's `trusted_proxies`, the address
 * X-Forwarded-For gives, walking back through trusted proxies only
 * (proxy-addr), so a visitor cannot name an address of their choosing.
 */
import type { Request } from '@hapi/hapi'
import proxyaddr from 'proxy-addr'
import { trustOf } from './request-trust.js'

/** As hapi's `remoteAddress` writes them: an IPv4 peer of a dual-stack socket without its `::ffff:`. */
const unmapped = (address: string): string => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1')

export const clientAddressOf = (request: Request): string => {
  const { proxy } = trustOf(request)
  if (!proxy) return request.info.remoteAddress || 'unknown'
  return unmapped(proxyaddr(request.raw.req, proxy)) || 'unknown'
}
