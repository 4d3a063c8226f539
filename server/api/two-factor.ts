/** Two-factor sign-in as the owner's settings see it (svc's own calls under `/users/me`; App.net had none). */

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
