/**
 * Explicit wiring of the domain: the store, its event log and the services,
 * each given only what it needs. `openDomain` is the one way in for the
 * server, the CLI and tests. The store itself stays inside (see
 * domain-store.ts): the edges see services only.
 */
import { AnnotationReplacer } from './annotations/replacements.js'
import { AnnotationRenderer } from './annotations/rendering.js'
import { GrantObjects } from './files/file-grants.js'
import { join } from 'node:path'
import { loadConfig, type InstanceConfig } from './config.js'
import { EventLog } from './events/event-log.js'
import { AppService } from './auth/apps.js'
import { DelegationService } from './auth/delegation.js'
import { OAuthService } from './auth/oauth.js'
import { SignInFlow } from './auth/sign-in-flow.js'
import { memoryGuardCounters, redisGuardCounters, SignInGuard } from './auth/sign-in-guard.js'
import { PASSWORD_COST, PasswordHasher } from './security/passwords.js'
import { ExploreService } from './explore/explore.js'
import { FilterService } from './filters/filters.js'
import { FileBytes } from './files/file-bytes.js'
import { FileService } from './files/files.js'
import { FileLinks } from './security/file-links.js'
import { InteractionService } from './posts/interactions.js'
import { PostSearchService } from './search/post-search.js'
import { ScanGate } from './search/scan-gate.js'
import { ChannelAccess } from './channels/channel-acl.js'
import { MarkerService } from './channels/markers.js'
import { ChannelService } from './channels/channels.js'
import { ChannelViewService } from './channels/channel-views.js'
import { ChannelInboxService } from './channels/channel-inbox.js'
import { ChannelSearchService } from './search/channel-search.js'
import { SubscriptionService } from './channels/subscriptions.js'
import { MessageService } from './channels/messages.js'
import { MessageViewService } from './channels/message-views.js'
import { PrivateMessageService } from './channels/private-messages.js'
import { PublicReadService } from './public/public-reads.js'
import { PostStreamService } from './posts/post-streams.js'
import { PostViewService } from './posts/post-views.js'
import { PostService } from './posts/posts.js'
import { ProfileService } from './users/profile.js'
import { RelationListService } from './relations/relation-lists.js'
import { RelationService } from './relations/relations.js'
import { RepostService } from './posts/reposts.js'
import { StarService } from './posts/stars.js'
import { TokenService } from './auth/tokens.js'
import { UserService } from './users/users.js'
import { UserSearchService } from './search/user-search.js'
import { UserImageService } from './users/user-images.js'
import { TextService } from './text/text-service.js'
import { UserViewService } from './users/user-views.js'
import { ModerationService } from './moderation/moderation.js'
import { ModeratedUsers } from './users/moderated-users.js'
import { nanoid } from 'nanoid'
import type { Bus } from './bus/bus.js'
import { FileStore, type FileStoreOptions } from './store/embedded/file-store.js'
import { initDataDir, requireCurrentFormat } from './store/data-dir.js'
import type { Store } from './store/port.js'
import { rememberStore } from './domain-store.js'
import { StreamHub } from './streams/stream-hub.js'
import { StreamMatcher } from './streams/stream-matcher.js'
import { SOLE_NODE, UserStreamService, type Node } from './streams/user-streams.js'
import { AppStreamService } from './streams/app-streams.js'
import { AppStreamHub } from './streams/app-stream-hub.js'
import { AppAudiences } from './streams/app-audience.js'
import { NotificationRules } from './streams/notifications.js'
import { APP_STREAM_QUEUE_LIMIT } from './limits.js'
import { PlaceService } from './places/places.js'
import { placesDirOf } from './places/place-files.js'

export interface Domain {
  readonly dataDir: string
  /** This process among those sharing the store. */
  readonly node: Node
  /** What this instance's nodes tell each other at once, when it has one (`--bus`). */
  readonly bus: Bus | null
  readonly imagesDir: string
  readonly config: InstanceConfig
  /** The durable event log: listeners, `after` for resuming, trimmed every minute while the domain is open. */
  readonly events: EventLog
  readonly users: UserService
  /** Suspension, deletion and password resets of accounts (admin operations). */
  readonly moderation: ModerationService
  readonly profiles: ProfileService
  readonly userSearch: UserSearchService
  readonly userImages: UserImageService
  readonly text: TextService
  readonly apps: AppService
  readonly tokens: TokenService
  readonly delegation: DelegationService
  readonly oauth: OAuthService
  readonly signInFlow: SignInFlow
  readonly userViews: UserViewService
  readonly explore: ExploreService
  readonly filters: FilterService
  /** Uploads, their derived files and content addresses. */
  readonly files: FileService
  /** Fills the marks stored annotations carry (base URL, file tokens and signed addresses) when they are shown. */
  readonly annotationRenderer: AnnotationRenderer
  readonly postSearch: PostSearchService
  /** Bounds how many searches scan at once (post, user and channel search share it). */
  readonly scanGate: ScanGate
  readonly interactions: InteractionService
  readonly channelAccess: ChannelAccess
  readonly markers: MarkerService
  readonly channels: ChannelService
  readonly channelViews: ChannelViewService
  readonly channelInbox: ChannelInboxService
  readonly channelSearch: ChannelSearchService
  readonly subscriptions: SubscriptionService
  readonly messages: MessageService
  readonly messageViews: MessageViewService
  readonly privateMessages: PrivateMessageService
  readonly relations: RelationService
  readonly relationLists: RelationListService
  readonly posts: PostService
  readonly postViews: PostViewService
  readonly stars: StarService
  readonly reposts: RepostService
  readonly postStreams: PostStreamService
  readonly publicReads: PublicReadService
  readonly userStreams: UserStreamService
  readonly streamHub: StreamHub
  readonly appStreams: AppStreamService
  readonly appStreamHub: AppStreamHub
  /** The bundled and imported places, searched around a point. */
  readonly places: PlaceService
  close(): Promise<void>
}

/** The view services presenters read from: what a viewer sees of users, posts, messages and channels. */
export type DomainViews = Pick<Domain, 'userViews' | 'postViews' | 'messageViews' | 'channelViews' | 'files' | 'annotationRenderer'>

export interface OpenDomainOptions extends FileStoreOptions {
  /** Overrides of the instance config (tests, `svc serve` flags). */
  config?: Partial<InstanceConfig>
  /** A `postgres://` URL: the PostgreSQL store instead of the embedded one (default: the config's `store`). */
  store?: string
  /** A `redis://` URL: the bus linking the nodes of an instance (default: the config's `bus`). */
  bus?: string
  /** Search the bundled GeoNames cities too (default true; tests that need only their own places leave them out, as loading them takes seconds). */
  bundledPlaces?: boolean
  /**
   * scrypt's N for new password hashes (a power of 2; default
   * `PASSWORD_COST.N`, 2^17). Tests lower it: they make hundreds of accounts.
   * Deliberately neither a config key nor an environment variable, so no
   * deployment weakens its hashes by mistake.
   */
  passwordCost?: number
}

/**
 * Opens the domain on `dataDir`, creating the data dir when it is missing.
 * Throws `unavailable` for a data dir of another format (an older one needs
 * `svc migrate`) and `conflict` when another process holds it.
 */
export async function openDomain(dataDir: string, options: OpenDomainOptions = {}): Promise<Domain> {
  await initDataDir(dataDir)
  await requireCurrentFormat(dataDir)
  const config = { ...(await loadConfig(dataDir)), ...options.config }
  const storeUrl = options.store || config.store
  const busUrl = options.bus || config.bus
  // Processes sharing a PostgreSQL store tell their user streams apart by a node id of their own.
  const node = { id: nanoid(12), shared: Boolean(storeUrl) }
  // The Redis and PostgreSQL drivers are loaded only by an instance that uses them: the embedded store's start does without.
  const bus = busUrl ? await (await import('./bus/bus.js')).Bus.open(busUrl, config.session_secret) : null
  let store: Store
  try {
    store = storeUrl
      ? await (await import('./store/postgres/postgres-store.js')).PostgresStore.open(storeUrl, { create: true, bell: bus?.bell('events') })
      : await FileStore.open(dataDir, options)
  } catch (err) {
    await bus?.close()
    throw err
  }
  const events = await EventLog.open(store, config.events)
  const passwords = new PasswordHasher({ ...PASSWORD_COST, N: options.passwordCost ?? PASSWORD_COST.N })
  const { domain, moderated } = wireDomainParts(dataDir, config, store, events, { bundledPlaces: options.bundledPlaces ?? true, node, bus, passwords })
  // Before any request: every post filter asks it.
  await moderated.load(store.read)
  // A fresh store starts with the explore streams App.net shipped.
  await domain.explore.seedDefaults()
  // Data dirs made before svc shipped its web client get it now.
  await domain.apps.ensureWebClient()
  // Holding the lock, nothing else writes images now: what no user points at is a crash's litter. Nodes on
  // PostgreSQL share the data dir without that lock, so there a file nobody points at may be another node's upload.
  if (!storeUrl) {
    await domain.userImages.sweepOrphans()
    await domain.files.sweepOrphans()
  }
  domain.files.startSweeping()
  events.start()
  await domain.streamHub.start()
  await domain.appStreamHub.start()
  return domain
}

/** Builds the services over an open store and its event log. */
export function wireDomain(dataDir: string, config: InstanceConfig, store: Store, events: EventLog): Domain {
  return wireDomainParts(dataDir, config, store, events).domain
}

function wireDomainParts(
  dataDir: string,
  config: InstanceConfig,
  store: Store,
  events: EventLog,
  {
    bundledPlaces = true,
    node = SOLE_NODE,
    bus = null,
    passwords = new PasswordHasher(),
  }: { bundledPlaces?: boolean; node?: Node; bus?: Bus | null; passwords?: PasswordHasher } = {},
): { domain: Domain; moderated: ModeratedUsers } {
  const imagesDir = join(dataDir, 'images')
  const moderated = new ModeratedUsers(events)
  const scanGate = new ScanGate(config.search.concurrent_scans)
  const users = new UserService(store, passwords)
  // Guessing is counted once for the instance: in Redis when nodes share a bus.
  const signInGuard = new SignInGuard(bus ? redisGuardCounters(bus) : memoryGuardCounters)
  const apps = new AppService(store, signInGuard)
  const fileLinks = new FileLinks(config.session_secret)
  const places = new PlaceService(placesDirOf(dataDir), { bundled: bundledPlaces })
  const replacer = new AnnotationReplacer(store, fileLinks, users, places)
  const annotationRenderer = new AnnotationRenderer(fileLinks)
  const channelAccess = new ChannelAccess(store)
  const markers = new MarkerService(store, channelAccess)
  const posts = new PostService(store, users, moderated, replacer)
  const channelViews = new ChannelViewService(store, channelAccess, markers)
  const messages = new MessageService(store, channelAccess, users, markers, replacer)
  const channels = new ChannelService(store, channelAccess, channelViews, users, replacer)
  // Read tokens handed out in annotations hold while their object does, as these services answer.
  const grants = new GrantObjects({ posts, messages, channels, users }, annotationRenderer)
  const files = new FileService(store, new FileBytes(join(dataDir, 'files')), config.limits, fileLinks, replacer, grants)
  const tokens = new TokenService(store, config.limits, (userId) => files.usedBy(userId))
  const delegation = new DelegationService(store, apps, tokens)
  const oauth = new OAuthService(store, apps, users, tokens, delegation, config, signInGuard)
  const postViews = new PostViewService(store)
  const messageViews = new MessageViewService(store)
  const postStreams = new PostStreamService(store, posts, users, markers, moderated)
  const userStreams = new UserStreamService(
    store,
    () => events.head(),
    () => events.oldest(),
    node,
  )
  const matcher = new StreamMatcher({ read: store.read, postStreams, messages, channelViews, channelAccess, tokens })
  const streamHub = new StreamHub(store, events, userStreams, matcher)
  const filters = new FilterService(store)
  const appStreams = new AppStreamService(store, filters, config.session_secret, () => events.head())
  const appStreamHub = new AppStreamHub(
    events,
    appStreams,
    new AppAudiences(store.read),
    new NotificationRules(store.read),
    filters,
    Math.min(APP_STREAM_QUEUE_LIMIT, config.events.max_events),
    node.shared,
  )
  const domain: Domain = {
    dataDir,
    node,
    bus,
    imagesDir,
    config,
    events,
    users,
    moderation: new ModerationService(store, passwords, files.bytes),
    profiles: new ProfileService(store, users, replacer),
    userSearch: new UserSearchService(store, scanGate),
    userImages: new UserImageService(store, imagesDir),
    apps,
    tokens,
    delegation,
    oauth,
    signInFlow: new SignInFlow(oauth, users),
    userViews: new UserViewService(store),
    explore: new ExploreService(store, markers, moderated),
    filters,
    files,
    annotationRenderer,
    postSearch: new PostSearchService(store, moderated, scanGate, config.search.window_posts),
    scanGate,
    interactions: new InteractionService(store),
    channelAccess,
    markers,
    channels,
    channelViews,
    channelInbox: new ChannelInboxService(store, channelAccess, channelViews, markers),
    channelSearch: new ChannelSearchService(store, channelAccess, channelViews, scanGate),
    subscriptions: new SubscriptionService(store, channelAccess),
    messages,
    messageViews,
    privateMessages: new PrivateMessageService(store, messages, users),
    relations: new RelationService(store, users, () => config.limits.following),
    relationLists: new RelationListService(store, users),
    posts,
    postViews,
    stars: new StarService(store, posts, users, moderated),
    reposts: new RepostService(store, posts),
    postStreams,
    publicReads: new PublicReadService(store, posts, postViews, channelAccess, messageViews),
    text: new TextService(users),
    userStreams,
    streamHub,
    appStreams,
    appStreamHub,
    places,
    close: async () => {
      files.stopSweeping()
      await appStreamHub.stop()
      await streamHub.stop()
      events.stop()
      await places.close()
      await store.close()
      await bus?.close()
    },
  }
  rememberStore(domain, store)
  return { domain, moderated }
}
