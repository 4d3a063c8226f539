/**
 * The row type of every table the domain stores. The storage port and the
 * schema both build on it, so neither needs the other for it.
 */
import type { EventRow } from '../model/event.js'
import type { AppRow } from '../model/app.js'
import type { AppStreamRow } from '../model/app-stream.js'
import type { BroadcastUnsubscriptionRow, ChannelMuteRow, ChannelRow, MarkerRow, MessageRow, SubscriptionRow } from '../model/channel.js'
import type { ExploreStreamRow } from '../model/explore.js'
import type { FilterRow } from '../model/filter.js'
import type { FileRow } from '../model/file.js'
import type {
  FederationDomainBlockRow,
  FederationHostRow,
  FederationKeyRow,
  FederationKvRow,
  FederationLeaseRow,
  FederationQueueRow,
  PendingFollowRow,
} from '../model/federation.js'
import type { PostRow, StarRow } from '../model/post.js'
import type { BlockRow, FollowRow, MuteRow } from '../model/relation.js'
import type { AuthCodeRow, DelegateTokenRow, TokenRow } from '../model/token.js'
import type { LogCursorRow, StreamSubscriptionRow, UserStreamRow } from '../model/stream.js'
import type { UserRow } from '../model/user.js'
import type { ReportRow } from '../model/report.js'
import type { InviteRow } from '../model/invite.js'
import type { AppPasswordRow, TwoFactorRow } from '../model/two-factor.js'
import type { AccountLinkRow } from '../model/account-link.js'

export interface Rows {
  users: UserRow
  apps: AppRow
  tokens: TokenRow
  auth_codes: AuthCodeRow
  delegate_tokens: DelegateTokenRow
  follows: FollowRow
  mutes: MuteRow
  blocks: BlockRow
  posts: PostRow
  stars: StarRow
  explore_streams: ExploreStreamRow
  channels: ChannelRow
  subscriptions: SubscriptionRow
  broadcast_unsubscriptions: BroadcastUnsubscriptionRow
  channel_mutes: ChannelMuteRow
  messages: MessageRow
  markers: MarkerRow
  user_streams: UserStreamRow
  stream_subscriptions: StreamSubscriptionRow
  log_cursors: LogCursorRow
  app_streams: AppStreamRow
  filters: FilterRow
  files: FileRow
  /** Domain events, numbered by their id; written by `tx.emit`, trimmed from the front with `removeBelow`. */
  event_log: EventRow
  /** Each local actor's key pairs, one row per user. */
  federation_keys: FederationKeyRow
  /** Fedify's key-value store: remote keys and documents it caches, activities it has seen. */
  federation_kv: FederationKvRow
  /** Fedify's message queue: activities acknowledged and waiting to be processed or delivered. */
  federation_queue: FederationQueueRow
  /** Follows of remote accounts sent and not yet accepted. */
  pending_follows: PendingFollowRow
  /** Jobs one node of several runs at a time, and who holds each. */
  federation_leases: FederationLeaseRow
  /** Outcomes of the deliveries to each remote host. */
  federation_hosts: FederationHostRow
  /** The operator's blocks of other servers. */
  federation_domain_blocks: FederationDomainBlockRow
  /** Users' reports of posts, for the operator. */
  reports: ReportRow
  /** The operator's invitations to sign up while registration is closed. */
  invites: InviteRow
  /** Accounts' second factors (TOTP secrets, recovery code hashes), one row per account that set one up. */
  two_factor: TwoFactorRow
  /** Passwords users made for apps that sign in with the password grant while two-factor sign-in is on. */
  app_passwords: AppPasswordRow
  /** Single-use links mailed to accounts: confirm an address, set a new password. */
  account_links: AccountLinkRow
}

export type TableName = keyof Rows
