/** What a mailed link lets its holder do once: confirm the address it went to, or set a new password. */
export type LinkPurpose = 'confirm_email' | 'reset_password'

/**
 * A single-use link mailed to an account's address. Only the hash of its
 * code is kept; the link dies when used, when it expires, when a newer one
 * of the same purpose is made, and when the account moves on (its address
 * changes, or its password is reset: another credential generation).
 */
export interface AccountLinkRow {
  readonly id: number
  user_id: number
  purpose: LinkPurpose
  /** SHA-256 of the code the link carries. */
  code_hash: string
  /** The address (lower-cased) it was mailed to: a confirmation holds only while the account still has it. */
  address: string
  /** The account's credential generation when it was made (see `UserRow.session_epoch`). */
  epoch: number
  created_at: string
  expires_at: string
}
