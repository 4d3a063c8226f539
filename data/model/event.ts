/**
 * Typed domain events. A service emits them inside the transaction that makes
 * the change (`tx.emit`), so an event is stored in the same journal line as
 * its change and a crash never keeps one without the other. Every listener
 * (user streams, app streams, the console) reads the event log, which hands
 * them on once durable (see event-log.ts).
 */
import type { AppRow } from './app.js'
import type { AppStreamRow } from './app-stream.js'
import type { ChannelRow, MarkerRow, MessageRow } from './channel.js'
import type { ExploreStreamRow } from './explore.js'
import type { FilterRow } from './filter.js'
import type { FileRow } from './file.js'
import type { FederationDomainBlockRow } from './federation.js'
import type { PostRow } from './post.js'
import type { TokenRow } from './token.js'
import type { UserRow } from './user.js'
import type { ReportRow } from './report.js'
import type { InviteRow } from './invite.js'
import type { AppPasswordFacts } from './two-factor.js'
import type { AccountLinkRow } from './account-link.js'

export interface DomainEvents {
  'app.created': { app: AppRow }
  /** Its tokens were revoked before, each with `token.deauthorized`. */
  'app.deleted': { app: AppRow }
  'user.created': { user: UserRow }
  'user.updated': { user: UserRow }
  'user.suspended': { user: UserRow }
  'user.unsuspended': { user: UserRow }
  /** The account's tombstone, once its posts, tokens and relations went, each with its own event. */
  'user.deleted': { user: UserRow }
  'token.authorized': { token: TokenRow; app: AppRow; user?: UserRow }
  'token.scopes_changed': { token: TokenRow; app: AppRow; user?: UserRow }
  'token.deauthorized': { token: TokenRow; app: AppRow; user?: UserRow }
  'follow.added': { user: UserRow; target: UserRow }
  'follow.removed': { user: UserRow; target: UserRow }
  'mute.added': { user: UserRow; target: UserRow }
  'mute.removed': { user: UserRow; target: UserRow }
  /** `ended`: which follows between the two the block ended (a remote account's server is told of those). */
  'block.added': { user: UserRow; target: UserRow; ended?: { following: boolean; followed: boolean } }
  'block.removed': { user: UserRow; target: UserRow }
  'post.created': { post: PostRow }
  'post.deleted': { post: PostRow }
  /**
   * A remote post's text, html and entities changed: its server sent an edit
   * of its Note (svc's own posts are never edited; App.net has no edits).
   * The post keeps its id, so a client replaces the one it holds.
   */
  'post.updated': { post: PostRow }
  /** `star_id`: the star's row (absent in events of older svc), which names the Like federation sends for it. */
  'star.added': { post: PostRow; user: UserRow; star_id?: number }
  'star.removed': { post: PostRow; user: UserRow; star_id?: number }
  'explore.changed': { stream: ExploreStreamRow; removed?: boolean }
  'channel.created': { channel: ChannelRow; subscribed_user_ids: number[] }
  'channel.updated': { channel: ChannelRow; subscribed_user_ids: number[] }
  'subscription.added': { channel: ChannelRow; user: UserRow }
  'subscription.removed': { channel: ChannelRow; user: UserRow }
  'message.created': { message: MessageRow; channel: ChannelRow; subscribed_user_ids: number[] }
  'message.deleted': { message: MessageRow; channel: ChannelRow; subscribed_user_ids: number[] }
  'marker.set': { marker: MarkerRow; user: UserRow; channel?: ChannelRow }
  'app_stream.created': { stream: AppStreamRow }
  'app_stream.updated': { stream: AppStreamRow }
  'app_stream.deleted': { stream: AppStreamRow }
  'filter.created': { filter: FilterRow }
  'filter.updated': { filter: FilterRow }
  'filter.deleted': { filter: FilterRow }
  /** Created, complete or not. */
  'file.created': { file: FileRow }
  /** Content set (completed), or its name, public flag or annotations changed. */
  'file.updated': { file: FileRow }
  'file.deleted': { file: FileRow }
  /** A consumer connected with this connection id on `node`: another node serving it lets it go. */
  'user_stream.taken': { connection_id: string; node: string }
  /**
   * A remote server delivered an activity to an inbox and its signature
   * verified (HTTP Signature or Object Integrity Proof, the signer owning
   * `actor`): `activity` is its JSON-LD as sent on, `recipient_id` the local
   * user whose inbox took it (null: the shared inbox).
   */
  /** An operator blocked (or changed the block of) a domain; the accounts it suspended follow as `user.suspended`. */
  'federation.domain_blocked': { block: FederationDomainBlockRow }
  'federation.domain_unblocked': { block: FederationDomainBlockRow }
  'federation.activity_received': { id: string | null; type: string; actor: string; recipient_id: number | null; activity: Record<string, unknown> }
  /** A user reported a post to the operator; `resolved` when the operator closed the report. */
  'report.created': { report: ReportRow }
  'report.resolved': { report: ReportRow }
  /** The operator made an invitation; someone signed up with one. */
  'invite.created': { invite: InviteRow }
  'invite.used': { invite: InviteRow; user: UserRow }
  /** The operator let in an account that waited for approval (its `user.created` carried `waiting_approval`), or turned it away: its row is gone. */
  'user.approved': { user: UserRow }
  'user.rejected': { user: UserRow }
  /**
   * Two-factor sign-in went on or off for `user` (off: by the user, or by the
   * operator with `by_operator`), its recovery codes were renewed, or one was
   * used to sign in (`codes_left`). Never the secret nor a code.
   */
  'user.two_factor_enabled': { user: UserRow }
  'user.two_factor_disabled': { user: UserRow; by_operator?: true }
  'user.two_factor_recovery_codes_renewed': { user: UserRow }
  'user.two_factor_recovery_code_used': { user: UserRow; codes_left: number }
  /** The user made or revoked an app password (its name and id, never the password nor its hash). */
  'user.app_password_created': { user: UserRow; app_password: AppPasswordFacts }
  'user.app_password_revoked': { user: UserRow; app_password: AppPasswordFacts }
  /** The account's e-mail address was set, changed or removed (unconfirmed from then on); confirmed by its mailed link. */
  'user.email_changed': { user: UserRow }
  'user.email_confirmed': { user: UserRow }
  /** The account has a new password (`svc user reset-password`, or its owner through a mailed link): its sessions ended, its tokens go next. */
  'user.password_reset': { user: UserRow; by: 'operator' | 'link' }
  /** The owner set a new password with the current one, or signed out everywhere else: every other session ended, every other token goes next. */
  'user.password_changed': { user: UserRow }
  'user.signed_out_elsewhere': { user: UserRow }
  /** A single-use link was made for the account, to be mailed (only its code's hash is kept). */
  'account_link.created': { link: AccountLinkRow }
  /** A stream's subscriptions changed, or it was deleted, on `node` (emitted only where processes share the store). */
  'user_stream.changed': { connection_id: string; node: string }
}

export type EventName = keyof DomainEvents

/** One durable event: its sequence number in the event log, its name, when (ms), and its payload. */
export interface DomainEvent<N extends EventName = EventName> {
  seq: number
  name: N
  at: number
  payload: DomainEvents[N]
}

/**
 * A row of the store's `event_log` table: the id is the event's sequence
 * number (the table's id allocation), `at` the time of the emit in ms. Write
 * it through `tx.emit`, which is what hands it to the store's event listeners.
 */
export type EventRow<N extends EventName = EventName> = { [K in N]: { id: number; name: K; at: number; payload: DomainEvents[K] } }[N]
