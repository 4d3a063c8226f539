/**
 * The domain's one error vocabulary. Each edge translates a code once:
 * server/ to an HTTP status, bin/ to an exit line, admin/ to an error line.
 */
export const ERROR_CODES = ['invalid', 'unauthenticated', 'forbidden', 'not_found', 'conflict', 'too_large', 'rate_limited', 'quota', 'unavailable'] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

/** Is `code` one of the domain's error codes (say, one that crossed the admin socket as text)? */
export const isErrorCode = (code: string): code is ErrorCode => (ERROR_CODES as readonly string[]).includes(code)

export interface DomainErrorOptions {
  /** A machine-readable slug for clients, e.g. `invalid-token`. */
  slug?: string
  /** Extra detail for logs only; never sent to clients. */
  cause?: unknown
  /** For `rate_limited`: whole seconds until trying again may succeed (HTTP's `Retry-After`). */
  retryAfter?: number
}

export class DomainError extends Error {
  readonly code: ErrorCode
  readonly slug?: string
  readonly retryAfter?: number

  constructor(code: ErrorCode, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'DomainError'
    this.code = code
    this.slug = options.slug
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter
  }
}

export const invalid = (message: string): DomainError => new DomainError('invalid', message)
export const notFound = (message: string): DomainError => new DomainError('not_found', message)
export const forbidden = (message: string, slug?: string): DomainError => new DomainError('forbidden', message, { slug })
export const conflict = (message: string): DomainError => new DomainError('conflict', message)

export const isDomainError = (err: unknown): err is DomainError => err instanceof DomainError
