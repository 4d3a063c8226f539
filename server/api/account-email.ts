/**
 * The account's own e-mail address, as `GET /users/me/email` answers it to
 * its owner in svc's own web client (an svc addition: App.net's User never
 * carries it, and no other answer does).
 */
export interface AccountEmail {
  /** The address, or null when the account has none. */
  address: string | null
  confirmed: boolean
  /** When it was confirmed, ISO 8601. */
  confirmed_at?: string
  /** Can the instance send mail at all? Without, an address cannot be confirmed and a forgotten password is the operator's to reset. */
  mail_available: boolean
  /** Does the instance require an address (it cannot be removed)? */
  required: boolean
  /** What became of the mail a change or a new request sent, in words for the owner. */
  notice?: string
}
