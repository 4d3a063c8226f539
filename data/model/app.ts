export interface AppRow {
  readonly id: number
  client_id: string
  /** Hash of the client secret; the secret itself is shown once, at creation. */
  secret_hash: string
  /** Hash of the separate password-grant secret, when one was issued. */
  password_grant_secret_hash?: string
  name: string
  link: string
  redirect_uris: string[]
  /** svc's own web client: registered by svc itself, redirects only to the instance's own address. */
  first_party?: boolean
  /** The account that owns the app, when created by a user. */
  owner_id?: number
  created_at: string
}
