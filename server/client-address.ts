/**
 * The address a request came from, as every per-address rule (rate limits,
 * sign-in guesses, image resizing) counts it: the peer's own address.
 */
import type { Request } from '@hapi/hapi'

export const clientAddressOf = (request: Request): string => request.info.remoteAddress || 'unknown'
