/**
 * Explicit wiring of the domain: each service given only what it needs,
 * gathered into one group per noun. Nothing here reads or writes: opening is
 * open-domain.ts's, effects beyond it are `start`'s.
 */
import { join } from 'node:path'
import { AnnotationReplacer } from '../annotations/replacements.js'
import { AnnotationRenderer } from '../annotations/rendering.js'
import { AppService } from '../auth/apps.js'
import { DelegationService } from '../auth/delegation.js'
import { OAuthService } from '../auth/oauth.js'
import { SignInFlow } from '../auth/sign-in-flow.js'
import { memoryGuardCounters, redisGuardCounters, SignInGuard } from '../auth/sign-in-guard.js'
import { TokenService } from '../auth/tokens.js'
import type { Bus } from '../bus/bus.js'
import { ChannelAccess } from '../channels/channel-acl.js'
import { ChannelInboxService } from '../channels/channel-inbox.js'
import { ChannelViewService } from '../channels/channel-views.js'
import { ChannelService } from '../channels/channels.js'
import { MarkerService } from '../channels/markers.js'
import { MessageViewService } from '../channels/message-views.js'
import { MessageService } from '../channels/messages.js'
import { PrivateMessageService } from '../channels/private-messages.js'
import { SubscriptionService } from '../channels/subscriptions.js'
import type { InstanceConfig } from '../config.js'
import type { EventLog } from '../events/event-log.js'
import { ExploreService } from '../explore/explore.js'
import type { DomainBlocks } from '../federation/domain-blocks.js'
import { FederationService } from '../federation/federation.js'
import { RemoteMedia } from '../federation/media/remote-media.js'
import { RemoteImages } from '../federation/media/remote-images.js'
import { FileBytes } from '../files/file-bytes.js'
import { GrantObjects } from '../files/file-grants.js'
import { FileService } from '../files/files.js'
import { FilterService } from '../filters/filters.js'
import { APP_STREAM_QUEUE_LIMIT } from '../limits.js'
import { packageVersion } from '../package-version.js'
import { ModerationService } from '../moderation/moderation.js'
import { placesDirOf } from '../places/place-files.js'
import { PlaceService } from '../places/places.js'
import { InteractionService } from '../posts/interactions.js'
import { PostStreamService } from '../posts/post-streams.js'
import { PostViewService } from '../posts/post-views.js'
import { PostService } from '../posts/posts.js'
import { RepostService } from '../posts/reposts.js'
import { StarService } from '../posts/stars.js'
import { PublicReadService } from '../public/public-reads.js'
import { RelationListService } from '../relations/relation-lists.js'
import { RelationService } from '../relations/relations.js'
import { ChannelSearchService } from '../search/channel-search.js'
import { PostSearchService } from '../search/post-search.js'
import { MessageSearchService } from '../search/message-search.js'
import { ScanGate } from '../search/scan-gate.js'
import { HealthService } from '../instance/health.js'
import { BackupService } from '../backup/backups.js'
import { ReportService } from '../moderation/reports.js'
import { InviteService } from '../auth/invites.js'
import { RegistrationService } from '../auth/registration.js'
import { TwoFactorService } from '../auth/two-factor/two-factor.js'
import { AppPasswordService } from '../auth/two-factor/app-passwords.js'
import { SecondStep } from '../auth/two-factor/second-step.js'
import { ExportService } from '../export/account-export.js'
import { EmailAddressService } from '../auth/email-addresses.js'
import { PasswordResetService } from '../auth/password-reset.js'
import { AccountControlService } from '../auth/account-control.js'
import { mailerOf } from '../mail/smtp-mailer.js'
import { UserSearchService } from '../search/user-search.js'
import { FileLinks } from '../security/file-links.js'
import type { PasswordHasher } from '../security/passwords.js'
import type { Store } from '../store/port.js'
import { AppAudiences } from '../streams/app-audience.js'
import { AppStreamHub } from '../streams/app-stream-hub.js'
import { AppStreamService } from '../streams/app-streams.js'
import { NotificationRules } from '../streams/notifications.js'
import { StreamHub } from '../streams/stream-hub.js'
import { StreamMatcher } from '../streams/stream-matcher.js'
import { UserStreamService, type Node } from '../streams/user-streams.js'
import { TextService } from '../text/text-service.js'
import type { ModeratedUsers } from '../users/moderated-users.js'
import { ProfileService } from '../users/profile.js'
import { UserImageService } from '../users/user-images.js'
import { UserViewService } from '../users/user-views.js'
import { UserService } from '../users/users.js'
import type { Domain } from './domain.js'
import { cacheRelations } from '../relations/relation-cache.js'

/** What the services are built over: an open store, its event log and the instance's parts. */
export interface DomainParts {
  dataDir: string
  config: InstanceConfig
  store: Store
  events: EventLog
  /** The accounts whose posts nobody sees, loaded already. */
  moderated: ModeratedUsers
  /** The operator's blocks of other servers, read from the store. */
  domainBlocks: DomainBlocks
  node: Node
  bus: Bus | null
  passwords: PasswordHasher
  /** Search the bundled GeoNames cities too. */
  bundledPlaces: boolean
}

/** Builds the services over `parts`; the domain owns the store and the bus from then on (`close`). */
export function wireServices({ dataDir, config, store, events, moderated, domainBlocks, node, bus, passwords, bundledPlaces }: DomainParts): Domain {
  const imagesDir = join(dataDir, 'images')
  // Where nodes share the store, another may change a relation: read each time there.
  if (!node.shared) cacheRelations(store.read, (listener) => events.onAny(listener))
  const scanGate = new ScanGate(config.search.concurrent_scans)
  const accounts = new UserService(store, passwords)
  // Guessing is counted once for the instance: in Redis when nodes share a bus.
  const signInGuard = new SignInGuard(bus ? redisGuardCounters(bus) : memoryGuardCounters)
  const apps = new AppService(store, signInGuard)
  const fileLinks = new FileLinks(config.session_secret)
  const places = new PlaceService(placesDirOf(dataDir), { bundled: bundledPlaces })
  const replacer = new AnnotationReplacer(store, fileLinks, accounts, places)
  const annotationRenderer = new AnnotationRenderer(fileLinks)
  const access = new ChannelAccess(store)
  const markers = new MarkerService(store, access)
  const posts = new PostService(store, accounts, moderated, replacer)
  const channelViews = new ChannelViewService(store, access, markers)
  const messages = new MessageService(store, access, accounts, markers, replacer)
  const channels = new ChannelService(store, access, channelViews, accounts, replacer)
  // Read tokens handed out in annotations hold while their object does, as these services answer.
  const grants = new GrantObjects({ posts, messages, channels, users: accounts }, annotationRenderer)
  const files = new FileService(store, new FileBytes(join(dataDir, 'files')), config.limits, fileLinks, replacer, grants)
  const tokens = new TokenService(store, config.limits, (userId) => files.usedBy(userId))
  const delegation = new DelegationService(store, apps, tokens)
  const invites = new InviteService(store)
  const mailer = mailerOf(config.smtp)
  const emails = new EmailAddressService(store, accounts, signInGuard, mailer, config)
  const moderation = new ModerationService(store, passwords, files.bytes)
  // A password set through a mailed link is stored as the operator's reset stores one: every session and token ends.
  const passwordReset = new PasswordResetService(store, accounts, signInGuard, mailer, config.name, (id, password, through) =>
    moderation.resetPassword(id, password, through),
  )
  const registration = new RegistrationService(store, accounts, invites, config)
  const twoFactor = new TwoFactorService(store, accounts, signInGuard, config)
  const appPasswords = new AppPasswordService(store, accounts, signInGuard, (userId) => twoFactor.isOn(userId))
  const oauth = new OAuthService(store, apps, accounts, tokens, delegation, signInGuard, registration, appPasswords)
  const userViews = new UserViewService(store)
  const postViews = new PostViewService(store)
  const messageViews = new MessageViewService(store)
  const postStreams = new PostStreamService(store, posts, accounts, markers, moderated)
  const userStreams = new UserStreamService(
    store,
    () => events.head(),
    () => events.oldest(),
    node,
  )
  const interactions = new InteractionService(store)
  const matcher = new StreamMatcher({ read: store.read, postStreams, messages, channelViews, channelAccess: access, tokens, interactions })
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
  const userImages = new UserImageService(store, imagesDir)
  const explore = new ExploreService(store, markers, moderated)
  const relations = new RelationService(store, accounts, () => config.limits.following)
  const stars = new StarService(store, posts, accounts, moderated)
  const pm = new PrivateMessageService(store, messages, accounts)
  const reposts = new RepostService(store, posts, moderated)
  const relationLists = new RelationListService(store, accounts)
  // Read at each fetch: `svc serve` sets it from SVC_FEDERATION_ALLOW_PRIVATE once the services are wired.
  const fetchesPrivate = {
    get allowPrivateAddress() {
      return config.federation.allow_private_addresses
    },
  }
  const federation = new FederationService(
    store,
    relations,
    {
      posts,
      stars,
      reposts,
      pm,
      annotations: annotationRenderer,
      images: new RemoteImages(userImages, files, domainBlocks, fetchesPrivate),
      media: new RemoteMedia(store, files, domainBlocks, {
        cacheBytes: config.federation.media_cache_bytes,
        maxBytes: config.limits.max_file_size,
        get allowPrivateAddress() {
          return fetchesPrivate.allowPrivateAddress
        },
      }),
    },
    domainBlocks,
    config,
    packageVersion(),
    events,
    node,
  )
  if (federation.site) {
    accounts.setRemoteLookup((handle) => federation.lookUpUser(handle))
    relations.setRemoteFollows({
      request: (me, target) => federation.requestFollow(me, target),
      cancel: (me, target) => federation.cancelFollow(me, target),
    })
  }
  let started = false
  return {
    dataDir,
    node,
    bus,
    imagesDir,
    config,
    events,
    views: { userViews, postViews, messageViews, channelViews, files, annotationRenderer },
    users: {
      accounts,
      profiles: new ProfileService(store, accounts, replacer),
      images: userImages,
      views: userViews,
      search: new UserSearchService(store, scanGate, federation.site ? accounts : null),
      moderation,
    },
    relations: {
      core: relations,
      lists: relationLists,
    },
    auth: {
      apps,
      tokens,
      delegation,
      oauth,
      signInFlow: new SignInFlow(oauth, accounts, registration, new SecondStep(twoFactor, accounts, signInGuard)),
      invites,
      registration,
      twoFactor,
      appPasswords,
      emails,
      passwordReset,
      // An owner deletes their account as the operator does (`svc user delete`).
      accountControl: new AccountControlService(store, accounts, passwords, signInGuard, twoFactor, (id) => moderation.deleteUser(id)),
    },
    posts: {
      core: posts,
      views: postViews,
      stars,
      reposts,
      streams: postStreams,
      search: new PostSearchService(store, moderated, scanGate, config.search.window_posts),
      interactions,
    },
    channels: {
      access,
      core: channels,
      views: channelViews,
      inbox: new ChannelInboxService(store, access, channelViews, markers),
      search: new ChannelSearchService(store, access, channelViews, scanGate),
      subscriptions: new SubscriptionService(store, access),
      markers,
      messages,
      messageViews,
      messageSearch: new MessageSearchService(store, access, scanGate, config.search.window_posts),
      pm,
    },
    streams: { user: userStreams, hub: streamHub, apps: appStreams, appHub: appStreamHub },
    files,
    explore,
    filters,
    places,
    text: new TextService(accounts),
    federation,
    public: new PublicReadService(store, posts, postViews, access, messageViews),
    scanGate,
    health: new HealthService(store, events, streamHub, appStreamHub),
    backups: new BackupService(dataDir, store),
    reports: new ReportService(store, posts, relations, messages, accounts),
    exports: new ExportService({ store, postStreams, stars, relationLists, access, messages, markers, files }),
    start: async ({ federate = true } = {}) => {
      if (started) return
      started = true
      // A fresh store starts with the explore streams App.net shipped.
      await explore.seedDefaults()
      // Data dirs made before svc shipped its web client get it now.
      await apps.ensureWebClient()
      // Holding the lock, nothing else writes images now: what no user points at is a crash's litter. Nodes on
      // PostgreSQL share the data dir without that lock, so there a file nobody points at may be another node's upload.
      if (!node.shared) {
        await userImages.sweepOrphans()
        await files.sweepOrphans()
      }
      files.startSweeping()
      events.start()
      await streamHub.start()
      await appStreamHub.start()
      if (federate) await federation.start()
    },
    close: async () => {
      // The hubs save where their streams stand when they stop: a domain never started has nothing of theirs to save.
      if (started) {
        files.stopSweeping()
        await appStreamHub.stop()
        await streamHub.stop()
        events.stop()
      }
      // A federation request may have started the queue in a domain never started (a test's).
      await federation.stop()
      await places.close()
      await store.close()
      await bus?.close()
    },
  }
}
