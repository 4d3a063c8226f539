/** The API's Token object (spec: Token object), and the token endpoint's plain JSON answers (no envelope). */
import type { Source } from './source.js'
import type { User } from './user.js'

export interface TokenLimits {
  following: number
  /** Bytes. */
  max_file_size: number
  available_invites: number
}

/** Bytes. */
export interface TokenStorage {
  available: number
  used: number
}

export interface Token {
  app: Source
  client_id: string
  scopes: string[]
  limits: TokenLimits
  storage: TokenStorage
  invite_link: string
  /** Only for user tokens. */
  user?: User
}

/** `POST /oauth/access_token` granting an access token; `username` and `user_id` for user tokens. */
export interface AccessTokenGrant {
  access_token: string
  token: Token
  username?: string
  user_id?: string
}

/** `POST /oauth/access_token` with `grant_type=delegate` (spec: identity delegation). */
export interface DelegateTokenGrant {
  delegate_token: string
}

/** RFC 6749's error codes, as the token endpoint answers them. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_token'
  | 'access_denied'
  | 'temporarily_unavailable'

/** The token endpoint's error body (RFC 6749 §5.2), with svc's slug when the cause has one. */
export interface OAuthError {
  error: OAuthErrorCode
  error_description: string
  error_slug?: string
}
