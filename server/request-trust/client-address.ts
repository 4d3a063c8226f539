/**
 * The address a request came from, as every per-address rule (rate limits,
 * sign-in guesses, image resizing) counts it: the peer's own address, or,
 * when the peer is one of the operator's `trusted_proxies`, the address
 * X-Forwarded-For gives, walking back through trusted proxies only
 * (proxy-addr), so a visitor cannot name an address of their choosing. An
 * IPv6 client counts by its /64, the network one subscriber is given: it
 * could take a new address of it for every request.
 */
import type { Request } from '@hapi/hapi'
import ipaddr from 'ipaddr.js'
import proxyaddr from 'proxy-addr'
import { trustOf } from './trust.js'

/** `address` as it is counted: IPv4 as it is (an IPv4-mapped IPv6 one too), IPv6 as its /64. */
function countedAs(address: string): string {
  if (!ipaddr.IPv6.isValid(address)) return address
  const v6 = ipaddr.IPv6.parse(address)
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString()
  return `${v6.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`
}

export const clientAddressOf = (request: Request): string => {
  const { proxy } = trustOf(request)
  const address = proxy ? proxyaddr(request.raw.req, proxy) : request.info.remoteAddress
  return address ? countedAs(address) : 'unknown'
}
