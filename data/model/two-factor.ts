/**
 * An account's second factor: a TOTP secret (RFC 6238) and recovery codes.
 * Kept apart from the user row on purpose: user rows travel in events and
 * answers, and the secret must appear in neither.
 */
export interface TwoFactorRow {
  readonly id: number
  user_id: number
  /** The base32 secret of the authenticator app, once set-up was confirmed with a code. */
  secret?: string
  /** A secret shown at set-up and not confirmed yet; it replaces `secret` when confirmed. */
  pending_secret?: string
  /** When set-up was confirmed: two-factor sign-in is on while this is set. */
  enabled_at?: string
  /** The last TOTP time step accepted: a code of that step or an earlier one is refused (no replay). */
  last_time_step?: number
  /** SHA-256 hashes of the recovery codes not used yet (the codes are shown once). */
  recovery_code_hashes: string[]
}

/**
 * A password the user made for one app that signs in with the password
 * grant while two-factor sign-in is on: random, shown once, kept as a hash.
 */
export interface AppPasswordRow {
  readonly id: number
  user_id: number
  /** The user's label for it ("phone", "Felix"). */
  name: string
  /** SHA-256 of the password. */
  hash: string
  created_at: string
  last_used_at?: string
  /** The tokens the password grant gave for it: revoking the password revokes them. */
  token_ids: number[]
}

/** What may be told of an app password: never the password nor its hash. */
export type AppPasswordFacts = Pick<AppPasswordRow, 'id' | 'name' | 'created_at' | 'last_used_at'>
