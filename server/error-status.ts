/** The one translation of domain error codes to HTTP statuses. */
import type { ErrorCode } from '../data/index.js'

export const errorStatus: Record<ErrorCode, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 400,
  too_large: 413,
  rate_limited: 429,
  quota: 507,
  unavailable: 503,
}
