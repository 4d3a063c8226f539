/**
 * The account's own settings as its owner sees them through svc's own calls
 * under `/users/me` (svc additions: App.net had none, and no other answer
 * carries them): its e-mail address, its two-factor sign-in, its app
 * passwords, its sessions and its own deletion.
 */

/** The account's own e-mail address, as `GET /users/me/email` answers it to its owner in svc's own web client. */
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

/** Where the account's two-factor sign-in stands (`GET /users/me/two_factor`). */
export interface TwoFactorStatus {
  enabled: boolean
  /** When it was turned on; null while off. */
  enabled_at: string | null
  recovery_codes_left: number
}

/** A change's answer; `recovery_codes` only where new ones were made (turning it on, renewing them): shown this once. */
export interface TwoFactorChange extends TwoFactorStatus {
  recovery_codes?: string[]
}

/** What an authenticator app is set up with (`POST /users/me/two_factor/setup`): the only answer that shows the secret. */
export interface TwoFactorSetup {
  secret: string
  otpauth_uri: string
  /** The URI's QR code, an SVG image as a `data:` URL. */
  qr_code: string
}

/** An app password of the password grant; the password itself only in the answer that made it. */
export interface AppPassword {
  id: string
  name: string
  created_at: string
  last_used_at: string | null
}

export interface CreatedAppPassword extends AppPassword {
  password: string
}

/** One place the account is signed in: a live user token of it (`GET /users/me/sessions`), never the token itself. */
export interface AccountSession {
  id: string
  /** The name of the app holding the token. */
  app_name: string
  created_at: string
  /** Not kept yet: null. */
  last_used_at: string | null
  scopes: string[]
  /** Is it the token making this request? */
  current: boolean
}

/** A change that signed the account out everywhere but here (`POST /users/me/password`, `DELETE /users/me/sessions`). */
export interface SignedOutElsewhere {
  /** How many other tokens ended. */
  sessions_ended: number
}

/** What `DELETE /users/me` leaves: the account's id and when it went. */
export interface DeletedAccount {
  id: string
  deleted_at: string | null
}
