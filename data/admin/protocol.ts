/**
 * The admin socket's protocol, the one module the server (which answers),
 * the CLI and the console (which ask) share. The socket is
 * `<data dir>/admin.sock`, reachable only by the user running `svc serve`
 * (mode 600), speaking newline-delimited JSON: each request line
 * `{"id", "op", "args"}` gets one answer line, `{"id", "ok": true, "result"}`
 * or `{"id", "ok": false, "error": {"code", "message"}}`. The CLI and the
 * console send admin operations there so that only the server writes its store.
 *
 * The results are what the CLI prints with `--json` and the console lists:
 * users and tokens are the API's own objects, so a script can use what
 * `svc user create` prints exactly as it uses `GET /users/me`. Secrets'
 * hashes are never among them.
 */
import { join } from 'node:path'

export const adminSocketPath = (dataDir: string): string => join(dataDir, 'admin.sock')

export interface AdminRequest {
  id?: number | string
  op: string
  args?: Record<string, unknown>
}

/** A failed operation: a domain error code (or `internal`) and a message meant for the operator. */
export interface AdminFailure {
  code: string
  message: string
}

export type AdminResponse = { id?: number | string; ok: true; result: unknown } | { id?: number | string; ok: false; error: AdminFailure }

/** A request line longer than this is refused; no admin operation needs as much. */
export const MAX_ADMIN_LINE = 1 << 20

/** A client app as the admin lists it. */
export interface AppFacts {
  id: string
  client_id: string
  name: string
  link: string
  redirect_uris: string[]
  created_at: string
}

/** A new app with its secrets, shown this once. */
export interface CreatedApp extends AppFacts {
  client_secret: string
  password_grant_secret: string
}

/** The API's User object; named here are the fields the CLI and the console read. */
export interface AdminUser {
  id: string
  username: string
  name: string
  type: string
  created_at: string
  [field: string]: unknown
}

/** The password grant's answer plus the token's id (for `svc token revoke`); named here are the fields the CLI reads. */
export interface IssuedToken {
  access_token: string
  token_id: string
  token: { scopes: string[]; [field: string]: unknown }
  [field: string]: unknown
}

/** One token's facts for listing (`token.list`, `token.revoke`): ids, app, user, scopes; never a secret. */
export interface TokenFacts {
  id: string
  kind: string
  app: { client_id: string; name: string }
  user?: { id: string; username: string }
  scopes: string[]
  created_at: string
}

/** The API's Explore stream object plus what curates it: id, rule (ids as strings), pins. */
export interface CuratedStream {
  id: string
  slug: string
  title: string
  description: string
  url: string
  marker: string
  rule: Record<string, unknown>
  pinned: string[]
  created_at: string
  updated_at?: string
}

/** What each admin operation answers over the socket, by name. */
export interface AdminResults {
  'app.create': CreatedApp
  'app.list': AppFacts[]
  'user.create': AdminUser
  'user.list': AdminUser[]
  'token.create': IssuedToken
  'token.list': TokenFacts[]
  'token.revoke': TokenFacts
  'explore.list': CuratedStream[]
  'explore.create': CuratedStream
  'explore.update': CuratedStream
  'explore.delete': CuratedStream
  'explore.pin': CuratedStream
  'explore.unpin': CuratedStream
}
