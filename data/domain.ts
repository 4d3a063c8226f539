/**
 * Explicit wiring of the domain: the store, the event bus and the services,
 * each given only what it needs. `openDomain` is the one way in for the
 * server, the CLI and tests.
 */
import { join } from 'node:path'
import { loadConfig, type InstanceConfig } from './config.js'
import { EventBus } from './events.js'
import { AppService } from './services/apps.js'
import { DelegationService } from './services/delegation.js'
import { OAuthService } from './services/oauth.js'
import { ExploreService } from './services/explore.js'
import { InteractionService } from './services/interactions.js'
import { PostSearchService } from './services/post-search.js'
import { ChannelAccess } from './services/channel-acl.js'
import { MarkerService } from './services/markers.js'
import { ChannelService } from './services/channels.js'
import { ChannelViewService } from './services/channel-views.js'
import { ChannelInboxService } from './services/channel-inbox.js'
import { ChannelSearchService } from './services/channel-search.js'
import { SubscriptionService } from './services/subscriptions.js'
import { MessageService } from './services/messages.js'
import { MessageViewService } from './services/message-views.js'
import { PrivateMessageService } from './services/private-messages.js'
import { PublicReadService } from './services/public-reads.js'
import { PostStreamService } from './services/post-streams.js'
import { PostViewService } from './services/post-views.js'
import { PostService } from './services/posts.js'
import { ProfileService } from './services/profile.js'
import { RelationListService } from './services/relation-lists.js'
import { RelationService } from './services/relations.js'
import { RepostService } from './services/reposts.js'
import { StarService } from './services/stars.js'
import { TokenService } from './services/tokens.js'
import { UserService } from './services/users.js'
import { UserSearchService } from './services/user-search.js'
import { UserImageService } from './services/user-images.js'
import { TextService } from './text/text-service.js'
import { UserViewService } from './services/user-views.js'
import { FileStore, type FileStoreOptions } from './store/file-store.js'
import { initDataDir, requireCurrentFormat } from './store/data-dir.js'
import type { Store } from './store/port.js'

export interface Domain {
  readonly dataDir: string
  readonly imagesDir: string
  readonly config: InstanceConfig
  readonly store: Store
  readonly events: EventBus
  readonly users: UserService
  readonly profiles: ProfileService
  readonly userSearch: UserSearchService
  readonly userImages: UserImageService
  readonly text: TextService
  readonly apps: AppService
  readonly tokens: TokenService
  readonly delegation: DelegationService
  readonly oauth: OAuthService
  readonly userViews: UserViewService
  readonly explore: ExploreService
  readonly postSearch: PostSearchService
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
  close(): Promise<void>
}

export interface OpenDomainOptions extends FileStoreOptions {
  /** Overrides of the instance config (tests, `svc serve` flags). */
  config?: Partial<InstanceConfig>
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
  const store = await FileStore.open(dataDir, options)
  const domain = wireDomain(dataDir, config, store)
  // A fresh store starts with the explore streams App.net shipped.
  await domain.explore.seedDefaults()
  // Holding the lock, nothing else writes images now: what no user points at is a crash's litter.
  await domain.userImages.sweepOrphans()
  return domain
}

/** Builds the services over an open store. */
export function wireDomain(dataDir: string, config: InstanceConfig, store: Store): Domain {
  const events = new EventBus()
  const imagesDir = join(dataDir, 'images')
  const users = new UserService(store, events)
  const apps = new AppService(store, events)
  const tokens = new TokenService(store, events, config.limits)
  const delegation = new DelegationService(store, apps, tokens)
  const channelAccess = new ChannelAccess(store)
  const markers = new MarkerService(store, events, channelAccess)
  const posts = new PostService(store, events, users)
  const channelViews = new ChannelViewService(store, channelAccess, markers)
  const messages = new MessageService(store, events, channelAccess, users, markers)
  const postViews = new PostViewService(store)
  const messageViews = new MessageViewService(store)
  return {
    dataDir,
    imagesDir,
    config,
    store,
    events,
    users,
    profiles: new ProfileService(store, events, users),
    userSearch: new UserSearchService(store),
    userImages: new UserImageService(store, events, imagesDir),
    apps,
    tokens,
    delegation,
    oauth: new OAuthService(store, apps, users, tokens, delegation, config),
    userViews: new UserViewService(store),
    explore: new ExploreService(store, events, markers),
    postSearch: new PostSearchService(store),
    interactions: new InteractionService(store),
    channelAccess,
    markers,
    channels: new ChannelService(store, events, channelAccess, channelViews, users),
    channelViews,
    channelInbox: new ChannelInboxService(store, channelAccess, channelViews, markers),
    channelSearch: new ChannelSearchService(store, channelAccess, channelViews),
    subscriptions: new SubscriptionService(store, events, channelAccess),
    messages,
    messageViews,
    privateMessages: new PrivateMessageService(store, events, messages, users),
    relations: new RelationService(store, events, users, () => config.limits.following),
    relationLists: new RelationListService(store, users),
    posts,
    postViews,
    stars: new StarService(store, events, posts, users),
    reposts: new RepostService(store, events, posts),
    postStreams: new PostStreamService(store, posts, users, markers),
    publicReads: new PublicReadService(store, posts, postViews, channelAccess, messageViews),
    text: new TextService(users),
    close: () => store.close(),
  }
}
