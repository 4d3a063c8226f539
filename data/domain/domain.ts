/**
 * What the domain is to its edges: one group of services per noun (as
 * GoToSocial's processor has one sub-processor per noun), the views the
 * presenters read through, and the instance's shared parts. Each route
 * module receives its noun's group; the admin operations, which coordinate
 * several nouns, receive the whole domain. `openDomain` (open-domain.ts)
 * builds it; `start` runs what has effects beyond opening.
 */
import type { AnnotationRenderer } from '../annotations/rendering.js'
import type { AppService } from '../auth/apps.js'
import type { DelegationService } from '../auth/delegation.js'
import type { OAuthService } from '../auth/oauth.js'
import type { SignInFlow } from '../auth/sign-in-flow.js'
import type { TokenService } from '../auth/tokens.js'
import type { Bus } from '../bus/bus.js'
import type { ChannelAccess } from '../channels/channel-acl.js'
import type { ChannelInboxService } from '../channels/channel-inbox.js'
import type { ChannelViewService } from '../channels/channel-views.js'
import type { ChannelService } from '../channels/channels.js'
import type { MarkerService } from '../channels/markers.js'
import type { MessageViewService } from '../channels/message-views.js'
import type { MessageService } from '../channels/messages.js'
import type { PrivateMessageService } from '../channels/private-messages.js'
import type { SubscriptionService } from '../channels/subscriptions.js'
import type { InstanceConfig } from '../config.js'
import type { EventLog } from '../events/event-log.js'
import type { ExploreService } from '../explore/explore.js'
import type { FederationService } from '../federation/federation.js'
import type { FileService } from '../files/files.js'
import type { FilterService } from '../filters/filters.js'
import type { ModerationService } from '../moderation/moderation.js'
import type { PlaceService } from '../places/places.js'
import type { InteractionService } from '../posts/interactions.js'
import type { PostStreamService } from '../posts/post-streams.js'
import type { PostViewService } from '../posts/post-views.js'
import type { PostService } from '../posts/posts.js'
import type { RepostService } from '../posts/reposts.js'
import type { StarService } from '../posts/stars.js'
import type { PublicReadService } from '../public/public-reads.js'
import type { RelationListService } from '../relations/relation-lists.js'
import type { RelationService } from '../relations/relations.js'
import type { ChannelSearchService } from '../search/channel-search.js'
import type { PostSearchService } from '../search/post-search.js'
import type { MessageSearchService } from '../search/message-search.js'
import type { ScanGate } from '../search/scan-gate.js'
import type { UserSearchService } from '../search/user-search.js'
import type { AppStreamHub } from '../streams/app-stream-hub.js'
import type { AppStreamService } from '../streams/app-streams.js'
import type { StreamHub } from '../streams/stream-hub.js'
import type { Node, UserStreamService } from '../streams/user-streams.js'
import type { TextService } from '../text/text-service.js'
import type { ProfileService } from '../users/profile.js'
import type { UserImageService } from '../users/user-images.js'
import type { UserViewService } from '../users/user-views.js'
import type { UserService } from '../users/users.js'
import type { HealthService } from '../instance/health.js'
import type { BackupService } from '../backup/backups.js'
import type { ReportService } from '../moderation/reports.js'
import type { InviteService } from '../auth/invites.js'
import type { RegistrationService } from '../auth/registration.js'
import type { TwoFactorService } from '../auth/two-factor/two-factor.js'
import type { AppPasswordService } from '../auth/two-factor/app-passwords.js'
import type { ExportService } from '../export/account-export.js'
import type { EmailAddressService } from '../auth/email-addresses.js'
import type { PasswordResetService } from '../auth/password-reset.js'
import type { AccountControlService } from '../auth/account-control.js'

/** Accounts and what is shown of them. */
export interface UserServices {
  /** Creating accounts, finding them, passwords and sessions. */
  readonly accounts: UserService
  readonly profiles: ProfileService
  /** Avatars and covers. */
  readonly images: UserImageService
  readonly views: UserViewService
  readonly search: UserSearchService
  /** Suspension, deletion and password resets of accounts (admin operations). */
  readonly moderation: ModerationService
}

/** Follows, mutes and blocks. */
export interface RelationServices {
  /** Following, muting, blocking and their undoing. */
  readonly core: RelationService
  /** Who follows whom, and one's muted and blocked users. */
  readonly lists: RelationListService
}

/** Apps, tokens and signing in. */
export interface AuthServices {
  readonly apps: AppService
  readonly tokens: TokenService
  readonly delegation: DelegationService
  readonly oauth: OAuthService
  readonly signInFlow: SignInFlow
  /** Invitations to sign up while registration is closed. */
  readonly invites: InviteService
  /** The registration mode, the rules, and the accounts waiting for approval. */
  readonly registration: RegistrationService
  /** Two-factor sign-in (TOTP and recovery codes), and the app passwords of the password grant for accounts with it. */
  readonly twoFactor: TwoFactorService
  readonly appPasswords: AppPasswordService
  /** Accounts' e-mail addresses and their confirmation; "forgot password" links. */
  readonly emails: EmailAddressService
  readonly passwordReset: PasswordResetService
  /** The owner's own control of the account: a new password, its sessions, deleting it. */
  readonly accountControl: AccountControlService
}

/** Posts and everything read or done around them. */
export interface PostServices {
  /** Creating, reading and deleting posts. */
  readonly core: PostService
  readonly views: PostViewService
  readonly stars: StarService
  readonly reposts: RepostService
  /** The lists of posts: global, personal, unified, mentions, a user's, a hashtag's, a thread. */
  readonly streams: PostStreamService
  readonly search: PostSearchService
  readonly interactions: InteractionService
}

/** Channels, their messages and the markers. */
export interface ChannelServices {
  /** Who may read and write a channel. */
  readonly access: ChannelAccess
  /** Creating, reading, updating and deactivating channels. */
  readonly core: ChannelService
  readonly views: ChannelViewService
  /** The signed-in user's channels with unread counts. */
  readonly inbox: ChannelInboxService
  readonly search: ChannelSearchService
  readonly subscriptions: SubscriptionService
  /** Stream and channel markers: where a user has read to. */
  readonly markers: MarkerService
  readonly messages: MessageService
  readonly messageViews: MessageViewService
  /** Searching the messages of channels the viewer reads. */
  readonly messageSearch: MessageSearchService
  /** Private messages: the `pm` channel of a set of people, found or made. */
  readonly pm: PrivateMessageService
}

/** The long-lived streams: user streams and app streams, each with its hub. */
export interface StreamServices {
  /** User streams and their subscriptions. */
  readonly user: UserStreamService
  /** The fan-out of events to connected user streams. */
  readonly hub: StreamHub
  /** App streams: their definitions and keys. */
  readonly apps: AppStreamService
  /** The fan-out of events to app streams' queues and consumers. */
  readonly appHub: AppStreamHub
}

/** The view services presenters read from: what a viewer sees of users, posts, messages, channels and files. */
export interface DomainViews {
  readonly userViews: UserViewService
  readonly postViews: PostViewService
  readonly messageViews: MessageViewService
  readonly channelViews: ChannelViewService
  readonly files: FileService
  /** Fills the marks stored annotations carry (base URL, file tokens and signed addresses) when they are shown. */
  readonly annotationRenderer: AnnotationRenderer
}

export interface Domain {
  readonly dataDir: string
  /** This process among those sharing the store. */
  readonly node: Node
  /** What this instance's nodes tell each other at once, when it has one (`--bus`). */
  readonly bus: Bus | null
  readonly imagesDir: string
  readonly config: InstanceConfig
  /** The durable event log: listeners, `after` for resuming, trimmed every minute once started. */
  readonly events: EventLog
  /** What presenters read through. */
  readonly views: DomainViews
  readonly users: UserServices
  readonly relations: RelationServices
  readonly auth: AuthServices
  readonly posts: PostServices
  readonly channels: ChannelServices
  readonly streams: StreamServices
  /** Uploads, their derived files and content addresses. */
  readonly files: FileService
  readonly explore: ExploreService
  readonly filters: FilterService
  /** The bundled and imported places, searched around a point. */
  readonly places: PlaceService
  readonly text: TextService
  /** ActivityPub: whether the instance federates, the answers to federation requests, the durable queue. */
  readonly federation: FederationService
  /** What an anonymous browser may read: public posts and broadcast channels, for the HTML pages. */
  readonly public: PublicReadService
  /** Bounds how many searches scan at once (post, user and channel search share it). */
  readonly scanGate: ScanGate
  /** Whether the instance can serve now, and the numbers its metrics show. */
  readonly health: HealthService
  /** Backups of the instance taken while it serves (the embedded store). */
  readonly backups: BackupService
  /** Users' reports of posts, accounts and messages, and the operator's queue of them. */
  readonly reports: ReportService
  /** A user's own data, read for the download of it (the `export` scope). */
  readonly exports: ExportService
  /**
   * Runs what has effects beyond opening, once: seeds a fresh store's explore
   * streams, registers the web client, sweeps orphaned images and files (on
   * the embedded store, whose lock says nobody else writes them), and starts
   * the upload sweeper, the event log's trimming and the two stream hubs,
   * and federation's outbox and queue unless `federate` is false (an admin
   * command on a data dir no server holds: what is owed to other servers
   * is sent by the next `svc serve`, not by a command). `svc serve` and the
   * admin commands start it; a test that needs no hub need not.
   */
  start(options?: { federate?: boolean }): Promise<void>
  /** Stops what `start` started, then closes the places, the store and the bus. */
  close(): Promise<void>
}
