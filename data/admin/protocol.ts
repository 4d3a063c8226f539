/**
 * The admin socket's protocol, the one module the server (which answers),
 * the CLI and the console (which ask) share. The socket is
 * `<data dir>/admin.sock`, reachable only by the user running `svc serve`
 * (mode 600), speaking newline-delimited JSON: each request line
 * `{"id", "op", "args"}` gets one answer line, `{"id", "ok": true, "result"}`
 * or `{"id", "ok": false, "error": {"code", "message"}}`. The CLI and the
 * console send admin operations there so that only the server writes its store.
 *
 * Besides operations, a connection may watch a topic (see watch-topics.ts):
 * `{"id", "op": "watch", "args": {"topic"}}` is answered at once with the
 * topic's picture, `{"id", "ok": true, "result"}`, and again with the same id
 * each time the picture changes (at most a few times a second), until the
 * client sends `{"id", "op": "unwatch", "args": {"watch": <that id>}}` or
 * disconnects (the unwatch is answered `{"id", "ok": true, "result":
 * {"unwatched": <that id>}}`). A picture that could not be read comes as a
 * failure line with the watch's id; the watch goes on. Ordinary requests
 * keep working on the same connection; their answers come in request order,
 * interleaved with the watches' lines.
 *
 * The results are what the CLI prints with `--json` and the console lists:
 * users and tokens are the API's own objects, so a script can use what
 * `svc user create` prints exactly as it uses `GET /users/me`. Secrets'
 * hashes are never among them.
 */
import { join } from 'node:path'
import type { DeliveryReport } from '../federation/federation.js'
import type { PlaceStats } from '../places/places.js'
import type { BackupResult } from '../backup/backup-archive.js'
import type { ReportFacts } from '../moderation/reports.js'

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

/** Sent before the answer of a long operation (a backup), now and then: how far it has got. */
export interface AdminProgressLine {
  id?: number | string
  progress: { done: number; total: number }
}

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
  /** Only for the admin: when the account was suspended, while it is. */
  suspended_at?: string
  /** Only for the admin: since when the account waits for approval, and what it told the operator. */
  waiting_approval?: { since: string; note?: string }
  /** Only for the admin (`user.delete`'s answer): when the account was deleted. */
  deleted_at?: string
  [field: string]: unknown
}

/** The password grant's answer plus the token's id (for `svc token revoke`); named here are the fields the CLI reads. */
export interface IssuedToken {
  access_token: string
  token_id: string
  token: { scopes: string[] }
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
  'user.suspend': AdminUser
  'user.unsuspend': AdminUser
  'user.delete': AdminUser
  'user.reset-password': AdminUser
  'user.approve': AdminUser
  'user.reject': AdminUser
  'user.reset-2fa': AdminUser
  'app.delete': AppFacts
  'token.create': IssuedToken
  'token.list': TokenFacts[]
  'token.revoke': TokenFacts
  'explore.list': CuratedStream[]
  'explore.create': CuratedStream
  'explore.update': CuratedStream
  'explore.delete': CuratedStream
  'explore.pin': CuratedStream
  'explore.unpin': CuratedStream
  'places.stats': PlaceStats
  'places.reload': PlaceStats
  'federation.queue': DeliveryReport
  'federation.block': DomainBlockChange
  'federation.unblock': DomainBlockChange
  'federation.blocks': DomainBlock[]
  'federation.retry': DeliveriesChange
  'federation.drop': DeliveriesChange
  'backup.create': BackupResult
  'post.delete': PostRemoval
  'message.delete': MessageRemoval
  'invite.create': CreatedInvite
  'invite.list': InviteFacts[]
  'report.list': ReportFacts[]
  'report.resolve': ReportFacts
}

/** What retrying or dropping the deliveries to a host did: how many were waiting for it. */
export interface DeliveriesChange {
  host: string
  deliveries: number
}

/** A post the operator removed: whose, what it said, why, and the reports of it that closed. */
export interface PostRemoval {
  id: number
  author: string
  text: string
  created_at: string
  /** Why and when the operator removed it; null for a post its author deleted. */
  removed: { reason: string; at: string } | null
  /** It was deleted before this call, which changed nothing. */
  already_deleted: boolean
  reports_resolved: number
}

/** An invitation as the CLI shows it: how many it admits and has left. */
export interface InviteFacts {
  id: number
  uses: number
  uses_left: number
  created_at: string
}

/** A new invitation: its link (`/signup?invite=CODE` at the instance's address), shown this once. */
export interface CreatedInvite extends InviteFacts {
  code: string
  link: string
}

/** A message the operator removed: where, whose, why. */
export interface MessageRemoval {
  id: number
  channel_id: number
  author: string
  created_at: string
  /** Why and when the operator removed it; null for a message its author deleted. */
  removed: { reason: string; at: string } | null
  /** It was deleted before this call, which changed nothing. */
  already_deleted: boolean
}

/** A block of another server as the CLI and the console show it. */
export interface DomainBlock {
  domain: string
  /** `suspend`: nothing taken from or sent to it, its accounts hidden; `silence`: its accounts kept out of public streams. */
  severity: 'suspend' | 'silence'
  reject_media: boolean
  created_at: string
}

/** What blocking or unblocking did: the block, and the known accounts it suspended, limited or restored. */
export interface DomainBlockChange {
  block: DomainBlock
  accounts: number
}

/** A user stream as the console's Streams tab shows it: connected or waiting for a resume. */
export interface UserStreamFacts {
  connection_id: string
  user: { id: string; username: string } | null
  app: string
  token_id: string
  connected: boolean
  /** While connected: since when; else: since when it waits for a resume. */
  since: string
  created_at: string
  subscriptions: { subscription_id: string; endpoint: string; target?: string }[]
  /** Events waiting in its backlog (0 while not connected). */
  backlog: number
  /** Every event up to here was handled for it; compare with the picture's `head`. */
  cursor: number
  /** False while a connected stream replays what it missed. */
  live: boolean
}

/** The `user_streams` topic: every kept user stream, connected ones first. */
export interface UserStreamsPicture {
  /** The event log's newest seq. */
  head: number
  /** A connected stream's backlog past this disconnects it (USER_STREAM_BACKLOG). */
  backlog_limit: number
  streams: UserStreamFacts[]
}

/** One event of the log in a line: what the Events tab lists. */
export interface EventLine {
  seq: number
  name: string
  /** ISO time of the emit. */
  at: string
  /** Who did what to which, in a few words (`post 12 by @alice`). */
  summary: string
}

/** The `events` topic: the newest events of the log, newest first. */
export interface EventTail {
  head: number
  events: EventLine[]
}

/** A filter in words, for the console: its clauses each a line (`post /data/text matches "hello"`). */
export interface FilterSummary {
  id: string
  name?: string
  match_policy: string
  clauses: string[]
}

/** An app stream as the console's App streams tab shows it. */
export interface AppStreamLine {
  id: string
  /** `null` once the app is gone (its streams go with its tokens). */
  app: { id: string; name: string; client_id: string } | null
  key?: string
  object_types: string[]
  connected: boolean
  /** Events between the stream's position and the log's head. */
  queue_depth: number
  /** Past this many, the oldest are dropped (and a consumer disconnected). */
  queue_limit: number
  filter: FilterSummary | null
}

/** The `app_streams` topic: every app stream, oldest first. */
export interface AppStreamsPicture {
  streams: AppStreamLine[]
}

/** A filter as the console's Filters tab shows it: whose, and how many app streams use it. */
export interface FilterLine extends FilterSummary {
  /** `@username` for a user's filter, `app <name>` for an app stream's inline one. */
  owner: string
  /** App streams that filter with it. */
  streams: number
}

/** The `filters` topic: every filter, oldest first. */
export interface FiltersPicture {
  filters: FilterLine[]
}

/** A remote server as the console's Federation tab shows it: its accounts here, its block, the deliveries to it. */
export interface FederationHostLine {
  /** `host[:port]`, or a blocked domain no account or delivery has named yet. */
  host: string
  /** Its accounts known here. */
  accounts: number
  /** `-`, or the block that covers it: `suspended` or `silenced`, with `, no media`. */
  block: string
  pending: number
  failing: number
  given_up: number
  delivered: number
  /** The last failed delivery: when, which try and the error; null when none failed. */
  last_error: string | null
}

/** The `federation` topic: whether the instance federates and how far its outbox is, and every remote server it knows, by host. */
export interface FederationPicture {
  status: string
  hosts: FederationHostLine[]
}

/** What each watch topic pushes, by name. */
export interface AdminWatchPictures {
  user_streams: UserStreamsPicture
  events: EventTail
  app_streams: AppStreamsPicture
  filters: FiltersPicture
  federation: FederationPicture
}
