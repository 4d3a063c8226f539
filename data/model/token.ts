export type TokenKind = 'user' | 'app'

export interface TokenRow {
  readonly id: number
  /** SHA-256 of the access token; the token itself is never stored. */
  hash: string
  kind: TokenKind
  app_id: number
  user_id?: number
  scopes: string[]
  created_at: string
}

/** A one-use OAuth authorization code. */
export interface AuthCodeRow {
  readonly id: number
  hash: string
  app_id: number
  user_id: number
  scopes: string[]
  redirect_uri: string
  expires_at: string
  used: boolean
  /** The token the code was exchanged for; revoked if the code is presented again. */
  token_id?: number
}

/** A token one client gives another to prove it acts for a user. */
export interface DelegateTokenRow {
  readonly id: number
  hash: string
  /** The user token the delegate token was minted from. */
  token_id: number
  delegate_client_id: string
  expires_at: string
}
