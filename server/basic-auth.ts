/** Client credentials sent with HTTP Basic (RFC 6749 §2.3.1): `Authorization: Basic base64(client_id:client_secret)`. */
import type { Request } from '@hapi/hapi'

export interface ClientCredentials {
  client_id: string
  client_secret: string
}

// RFC 6749 form-encodes both parts before base64; plain values decode to themselves.
const formDecode = (s: string): string => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '))
  } catch {
    return s
  }
}

/** The Basic credentials of a request, or null when there are none (or they are malformed). */
export function basicCredentials(request: Request): ClientCredentials | null {
  const header = request.headers.authorization
  const m = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null
  if (!m) return null
  const decoded = Buffer.from(m[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 1) return null
  return { client_id: formDecode(decoded.slice(0, colon)), client_secret: formDecode(decoded.slice(colon + 1)) }
}
