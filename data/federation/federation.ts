/**
 * Federation as the rest of svc sees it: on or off (and why), the answer to
 * a federation request (a Web `Request`, whatever server took it), the
 * addresses of a user's actor and a post's Note, and the durable queue
 * running between `start` and `stop`. Fedify itself is loaded on first use
 * (a federation request, or a queue left with work by the last run), so an
 * instance that never federates never pays for loading it.
 */
import type { Federation } from '@fedify/fedify'
import type { InstanceConfig } from '../config.js'
import type { EventLog } from '../events/event-log.js'
import type { DomainEvent } from '../model/event.js'
import type { PostRow } from '../model/post.js'
import type { UserRow } from '../model/user.js'
import { namedMembers, PM_TYPE } from '../channels/channel-acl.js'
import type { PrivateMessageService } from '../channels/private-messages.js'
import type { ChannelRow, MessageRow } from '../model/channel.js'
import type { PostService } from '../posts/posts.js'
import type { RepostService } from '../posts/reposts.js'
import type { StarService } from '../posts/stars.js'
import type { RelationService } from '../relations/relations.js'
import type { Store } from '../store/port.js'
import { isModerated } from '../users/moderated-users.js'
import { registrationModeOf } from '../auth/registration.js'
import { knownRemoteAccounts, remoteAudienceOf, remoteFollowersOf } from './outgoing/audience.js'
import { blockDomainOf, type DomainBlocks } from './domain-blocks.js'
import { actOnDeliveries, DeliveryLog, deliveriesByHost, type HostDeliveries } from './outgoing/delivery-log.js'
import { StoreKvStore } from './kv-store.js'
import { StoreMessageQueue } from './message-queue.js'
import { OUTBOX, OutboxPump, type OutboxNode, type OutboxOptions } from './outgoing/outbox.js'
import type { AnnotationAddresses } from './notes.js'
import type { RemoteMedia } from './media/remote-media.js'
import type { RemoteImages } from './media/remote-images.js'
import { AP_PATHS, federationSiteOf, type FederationSite } from './site.js'
import { postAddress, profileAddress } from './web-addresses.js'
import { WorkShare } from './work-share.js'
import type { KeyCache } from './signatures/key-cache.js'
import type { Loaders } from './documents/loaders.js'
import { DomainError } from '../errors.js'

/**
 * Federation messages (activities in, deliveries out) a node handles at
 * once: enough that a peer waiting out its timeout does not hold up the
 * others, few enough for two cores.
 */
export const QUEUE_WORKERS = 4

/** How long an inbox POST waits for its turn in federation's share of the server (`federation.work_share`) before a 429. */
const INBOX_WAIT_MS = 5000

/** Remote accounts read per page when counting them by server. */
const ACCOUNTS_PAGE = 1000

/** How often expired entries of the key-value store are removed. */
const SWEEP_INTERVAL_MS = 10 * 60_000

const ACTOR_PATH = /^\/ap\/users\/(\d{1,15})$/
const NOTE_PATH = /^\/ap\/posts\/(\d{1,15})$/
/** An actor's inbox or the shared one (site.ts's AP_PATHS). */
const INBOX_PATH = /^\/ap\/(?:users\/([^/]+)\/)?inbox$/

/** The services federation acts through: remote posts, stars, reposts and private messages come in as local ones do. */
export interface FederatedServices {
  posts: PostService
  stars: StarService
  reposts: RepostService
  pm: PrivateMessageService
  /** Fills in the file addresses of posts' annotations, for their Notes' attachments. */
  annotations: AnnotationAddresses
  /** Keeps remote posts' media. */
  media: RemoteMedia
  /** Keeps copies of remote accounts' avatars and covers, following the events while federation runs. */
  images: RemoteImages
}

export class FederationService {
  /** Where the instance federates; null when it does not. */
  readonly site: FederationSite | null
  /** Why the instance does not federate, in a line for the operator and for the 404s; null when it does. */
  readonly off: string | null
  private readonly kv: StoreKvStore
  private readonly queue: StoreMessageQueue
  private readonly deliveries: DeliveryLog
  private readonly outbox: OutboxPump
  private readonly share: WorkShare
  private loading: Promise<Federation<void>> | null = null
  /** The federation that takes the inbox POSTs svc verified itself (RFC 9421, draft-cavage at a user's inbox): built like the other, without its signature check. */
  private verifiedLoading: Promise<Federation<void>> | null = null
  private keys: Promise<KeyCache> | null = null
  private loaders: Promise<Loaders> | null = null
  private readonly stopping = new AbortController()
  private running: Promise<void> | null = null
  private sweeper: NodeJS.Timeout | null = null

  constructor(
    private readonly store: Store,
    private readonly relations: RelationService,
    private readonly services: FederatedServices,
    /** The operator's blocks of other servers. */
    readonly blocks: DomainBlocks,
    private readonly config: InstanceConfig,
    private readonly version: string,
    private readonly events: EventLog,
    node: OutboxNode,
    outboxOptions: OutboxOptions = {},
  ) {
    const { site, off } = federationSiteOf(config)
    this.site = site
    this.off = off
    this.kv = new StoreKvStore(store)
    this.deliveries = new DeliveryLog(store)
    const { percent, at_once, waiting } = config.federation.work_share
    // A little credit saved while idle lets a lone activity through at once.
    this.share = new WorkShare({ share: percent / 100, concurrency: at_once, burstMs: 250, waiting })
    this.queue = new StoreMessageQueue(store, {
      workers: QUEUE_WORKERS,
      around: (message, handle) => {
        // A delivery to a server blocked since it was queued is dropped, not sent.
        if (this.blocks.suspends(inboxOf(message))) return Promise.resolve()
        // An activity received takes its turn in federation's share, before new inbox POSTs.
        return isInbound(message) ? this.inTurn({ first: true }, handle) : this.deliveries.around(message, handle)
      },
    })
    this.outbox = new OutboxPump(store, events, node, (event) => this.deliver(event), outboxOptions)
  }

  /** The path of the actor of user `userId`. */
  actorPath = (userId: number): string => AP_PATHS.actor.replace('{identifier}', String(userId))

  /** The path of the Note of post `postId`. */
  notePath = (postId: number): string => AP_PATHS.note.replace('{id}', String(postId))

  /**
   * Answers a federation request (WebFinger, NodeInfo, an actor, a Note, a
   * collection, an inbox POST): Fedify's response, a 410 with a Tombstone for
   * a deleted account or post, a redirect to the web page for a browser
   * asking for an actor or a Note. Null when federation is off or has nothing
   * at that address: the caller answers its own 404 then. An inbox POST
   * whose signature does not verify is a 401, a malformed one a 400.
   * An inbox POST signed only with RFC 9421 is verified here first
   * (rfc9421.ts) and, when it passes, handed to the federation that does
   * not check signatures again; one with a draft-cavage signature is
   * checked here with Fedify's own checks and the parsed keys of
   * signatures/key-cache.ts and, when it passes, queued here, at the shared
   * inbox or a user's (signatures/take-verified.ts); one that does not pass
   * is refused as Fedify refuses it, or goes to Fedify's inbox as it came
   * when something else might vouch for it (signatures/draft-cavage.ts). An
   * inbox POST waits for its turn in federation's share of the server.
   * Errors: `rate_limited` (slug
   * `inbox-busy`, with `retryAfter`) when the inbox takes no more for now.
   */
  async fetch(request: Request): Promise<Response | null> {
    if (!this.site) return null
    const path = new URL(request.url).pathname
    if (request.method === 'POST' && INBOX_PATH.test(path)) return this.inTurn({ waitMs: INBOX_WAIT_MS }, () => this.answer(request, path, true))
    return this.answer(request, path, false)
  }

  /** Runs `work` in its turn of federation's share; `rate_limited` when none comes within `waitMs`. */
  private async inTurn<T>(options: { waitMs?: number; first?: boolean }, work: () => Promise<T>): Promise<T> {
    const release = await this.share.enter(options)
    if (!release) {
      const retryAfter = this.share.retryAfterS()
      throw new DomainError(
        'rate_limited',
        `Too Many Requests: the inbox takes no more activities for now; retry in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
        {
          slug: 'inbox-busy',
          retryAfter,
        },
      )
    }
    try {
      return await work()
    } finally {
      release()
    }
  }

  private async answer(request: Request, path: string, inboxPost: boolean): Promise<Response | null> {
    let federation = await this.load()
    const gone = await this.tombstone(federation, request, path)
    if (gone) return gone
    if (inboxPost) {
      if (await this.fromBlocked(request)) return new Response('Forbidden: this instance does not federate with your server', { status: 403 })
      const { signedWithRfc9421Only, verifyRfc9421 } = await import('./rfc9421.js')
      const { signedDraftCavage, checkDraftCavage } = await import('./signatures/draft-cavage.js')
      const { keyFetchersFor } = await import('./signatures/key-cache.js')
      if (signedWithRfc9421Only(request)) {
        const outcome = await verifyRfc9421(request, federation.createContext(request, undefined))
        if (!outcome.ok) return outcome.response
        request = outcome.request
        federation = await this.loadVerified()
      } else if (signedDraftCavage(request)) {
        const ctx = federation.createContext(request, undefined)
        const recipient = INBOX_PATH.exec(path)?.[1]
        const outcome = await checkDraftCavage(request, ctx, await this.keyCache(), keyFetchersFor(ctx, recipient, await this.documentLoaders()))
        // Fedify's inbox answers a POST to nobody's inbox with a 404 before it looks at the signature.
        if (recipient !== undefined && !('forFedify' in outcome) && (await ctx.getActor(recipient)) === null) return null
        if ('verified' in outcome) {
          const { takeVerified } = await import('./signatures/take-verified.js')
          return takeVerified(ctx, this.kv, this.queue, outcome.verified.json, outcome.verified.activity, recipient ?? null)
        }
        if ('refusal' in outcome) return outcome.refusal
      }
    }
    const notFound = new Response(null, { status: 404 })
    const response = await federation.fetch(request, {
      contextData: undefined,
      onNotFound: () => notFound,
      onNotAcceptable: async () => (await this.webPage(path)) ?? new Response('Not acceptable: ask for application/activity+json', { status: 406 }),
    })
    return response === notFound ? null : response
  }

  /** How remote documents and contexts are loaded, by both federations and the key cache. */
  private documentLoaders(): Promise<Loaders> {
    this.loaders ??= (async () => {
      const { loaderFactories, userAgentOf } = await import('./documents/loaders.js')
      return loaderFactories({
        kv: this.kv,
        allowPrivateAddress: this.config.federation.allow_private_addresses,
        userAgent: userAgentOf(this.version, this.site!.origin),
      })
    })()
    return this.loaders
  }

  /** The parsed public keys inbox POSTs are verified with. */
  private keyCache(): Promise<KeyCache> {
    this.keys ??= (async () => {
      const { KeyCache } = await import('./signatures/key-cache.js')
      const { documentLoaderFactory, contextLoaderFactory } = await this.documentLoaders()
      return new KeyCache(this.kv, { documentLoader: documentLoaderFactory(), contextLoader: contextLoaderFactory() })
    })()
    return this.keys
  }

  /** Does an inbox POST come from a suspended server: its signature's key, or the actor its activity names? */
  private async fromBlocked(request: Request): Promise<boolean> {
    if (!this.blocks.active()) return false
    const signature = `${request.headers.get('signature') ?? ''} ${request.headers.get('signature-input') ?? ''}`
    for (const [, keyId] of signature.matchAll(/keyid="([^"]+)"/gi)) if (this.blocks.suspends(keyId)) return true
    const body = (await request
      .clone()
      .json()
      .catch(() => null)) as { actor?: unknown } | null
    const actor = typeof body?.actor === 'string' ? body.actor : (body?.actor as { id?: unknown } | undefined)?.id
    return typeof actor === 'string' && this.blocks.suspends(actor)
  }

  /** The host-meta document (XRD) that points WebFinger clients at this instance's WebFinger; null when federation is off. */
  hostMeta(): string | null {
    if (!this.site) return null
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">',
      `  <Link rel="lrdd" template="${this.site.origin}/.well-known/webfinger?resource={uri}"/>`,
      '</XRD>',
      '',
    ].join('\n')
  }

  /**
   * The account of `handle` (`name@authority`, another server's), from the
   * store or found on its server and kept; null when federation is off or
   * it cannot be had (unknown, unreachable, too slow, a private address
   * while those are refused). Never throws.
   */
  async lookUpUser(handle: string): Promise<UserRow | null> {
    if (!this.site || this.blocks.suspends(handle.slice(handle.lastIndexOf('@') + 1))) return null
    try {
      const federation = await this.load()
      const { lookUpRemoteUser } = await import('./remote-users.js')
      const ctx = federation.createContext(new URL(this.site.origin), undefined)
      return await lookUpRemoteUser(ctx, this.store, handle, {
        localAuthority: this.site.authority,
        allowPrivateAddress: this.config.federation.allow_private_addresses,
      })
    } catch (err) {
      process.emitWarning(`svc: looking up ${handle} failed: ${(err as Error).message}`)
      return null
    }
  }

  /** Sends `me`'s Follow of remote account `target`, pending until accepted (RelationService's port). */
  async requestFollow(me: UserRow, target: UserRow): Promise<void> {
    const { requestFollow } = await import('./follows.js')
    await requestFollow(await this.context(), this.store, me, target)
  }

  /** Sends the Undo of `me`'s Follow of remote account `target`. */
  async cancelFollow(me: UserRow, target: UserRow): Promise<void> {
    const { cancelFollow } = await import('./follows.js')
    await cancelFollow(await this.context(), this.store, me, target)
  }

  /** A Fedify context at the instance's origin (federation loaded). */
  private async context() {
    const federation = await this.load()
    return federation.createContext(new URL(this.site!.origin), undefined)
  }

  /**
   * Starts the queue at once when the last run left messages in it (Fedify
   * loads then); otherwise the first federation request starts it. From now
   * on local posts, their deletions and profile edits go out to the remote
   * accounts they concern, read from the event log after the outbox's
   * stored cursor (outbox.ts): what a crash left undelivered goes now.
   * Fedify loads only once something is to be sent.
   */
  async start(): Promise<void> {
    if (!this.site) return
    this.services.images.start(this.events)
    await this.outbox.start()
    if ((await this.queue.size()) > 0) await this.load()
  }

  /**
   * Outgoing deliveries per remote host (pending, failing, the last error),
   * and how far the outbox has read the event log: `svc federation queue`.
   */
  async deliveryReport(): Promise<DeliveryReport> {
    // The outcomes noted and not yet written (they are written a second at a time) count too.
    await this.deliveries.flush()
    const cursor = await this.store.read.log_cursors.one('name', OUTBOX)
    const lease = await this.store.read.federation_leases.one('name', OUTBOX)
    return {
      federating: this.site !== null,
      outbox: {
        cursor: cursor?.seq ?? null,
        head: this.events.head(),
        ...(lease && lease.until > Date.now() ? { node: lease.holder, lease_until: new Date(lease.until).toISOString() } : {}),
      },
      hosts: await deliveriesByHost(this.store),
    }
  }

  /**
   * The deliveries to remote host `host` (`name[:port]`) waiting in the
   * queue: `retry` tries them now, `drop` removes them unsent. Answers how
   * many. Errors: `invalid` (not a host).
   */
  async deliveriesTo(host: string, action: 'retry' | 'drop'): Promise<{ host: string; deliveries: number }> {
    const name = blockDomainOf(host)
    return { host: name, deliveries: await actOnDeliveries(this.store, name, action) }
  }

  /** How many live remote accounts svc knows per server (`host[:port]` of their actors). */
  async accountsByServer(): Promise<Map<string, number>> {
    const users = this.store.read.users
    const counts = new Map<string, number>()
    for (let since = 0; ;) {
      const ids = await users.scan({ since, limit: ACCOUNTS_PAGE, order: 'asc' }, (u) => u.remote !== undefined && u.deleted_at === undefined)
      for (const user of await users.getMany(ids)) {
        const server = new URL(user.remote!.actor_id).host
        counts.set(server, (counts.get(server) ?? 0) + 1)
      }
      if (ids.length < ACCOUNTS_PAGE) return counts
      since = ids[ids.length - 1]
    }
  }

  /** Queues the deliveries one event of the log asks for (none for most); true when it queued any. */
  private async deliver(event: DomainEvent): Promise<boolean> {
    switch (event.name) {
      case 'post.created': {
        const { post } = (event as DomainEvent<'post.created'>).payload
        // Deleted before its Create went out (a crash's catch-up): neither is sent.
        if ((await this.store.read.posts.get(post.id))?.is_deleted) return false
        return post.repost_of === undefined ? this.deliverPost(post, false) : this.deliverRepost(post, false)
      }
      case 'post.deleted': {
        const { post } = (event as DomainEvent<'post.deleted'>).payload
        return post.repost_of === undefined ? this.deliverPost(post, true) : this.deliverRepost(post, true)
      }
      case 'post.updated':
        // Only a remote post is edited, by its own server: nothing here to send anywhere.
        return false
      case 'message.created':
      case 'message.deleted':
        return this.deliverMessage(
          (event as DomainEvent<'message.created'>).payload.message,
          (event as DomainEvent<'message.created'>).payload.channel,
          event.name === 'message.deleted',
        )
      case 'star.added':
      case 'star.removed':
        return this.deliverStar((event as DomainEvent<'star.added'>).payload, event.name === 'star.removed')
      case 'user.updated':
        return this.deliverProfile((event as DomainEvent<'user.updated'>).payload.user, event.seq)
      case 'user.deleted':
        return this.deliverAccountDeleted((event as DomainEvent<'user.deleted'>).payload.user)
      case 'block.added':
        return this.deliverBlock((event as DomainEvent<'block.added'>).payload, event.seq)
      case 'block.removed':
        return this.deliverUnblock((event as DomainEvent<'block.removed'>).payload, event.seq)
      default:
        return false
    }
  }

  /** The Create (or Delete) of local post `post`'s Note, to the remote accounts it concerns. */
  private async deliverPost(post: PostRow, deleted: boolean): Promise<boolean> {
    const author = await this.store.read.users.get(post.user_id)
    if (!author || author.remote || isModerated(author)) return false
    const audience = await remoteAudienceOf(this.store, post, author)
    if (audience.length === 0) return false
    const ctx = await this.context()
    const { sendPost, sendPostDeleted } = await import('./outgoing/deliveries.js')
    if (deleted) await sendPostDeleted(ctx, post, author, audience)
    else await sendPost(ctx, this.site!, this.store, this.services.annotations, post, author, audience)
    return true
  }

  /** A local user's private message (or its deletion) in a pm channel with members on other servers, sent to them as a direct Note. */
  private async deliverMessage(message: MessageRow, channel: ChannelRow, deleted: boolean): Promise<boolean> {
    if (channel.type !== PM_TYPE || message.remote || message.machine_only) return false
    const r = this.store.read
    const author = await r.users.get(message.user_id)
    if (!author || author.remote || isModerated(author)) return false
    const members = (await r.users.getMany(namedMembers(channel).filter((id) => id !== author.id))).filter((u) => u.deleted_at === undefined)
    if (!members.some((m) => m.remote && !isModerated(m))) return false
    const ctx = await this.context()
    const { sendDirectMessage } = await import('./direct-messages.js')
    await sendDirectMessage(ctx, this.site!, message, author, members, deleted)
    return true
  }

  /** A local user's star of a remote post (or its removal), told to the post's author as a Like (or its Undo). */
  private async deliverStar({ post, user, star_id: starId }: DomainEvent<'star.added'>['payload'], undone: boolean): Promise<boolean> {
    if (!post.remote || user.remote || starId === undefined || isModerated(user)) return false
    const author = await this.store.read.users.get(post.user_id)
    if (!author?.remote || isModerated(author)) return false
    const ctx = await this.context()
    const { sendLike } = await import('./interactions.js')
    await sendLike(ctx, user, post, author, starId, undone)
    return true
  }

  /** A local user's repost (or its deletion), told as an Announce (or its Undo) to the reposter's remote followers and a remote original's author. */
  private async deliverRepost(repost: PostRow, undone: boolean): Promise<boolean> {
    const r = this.store.read
    const reposter = await r.users.get(repost.user_id)
    const original = await r.posts.get(repost.repost_of!)
    if (!reposter || reposter.remote || isModerated(reposter) || !original || original.machine_only) return false
    const originalAuthor = await r.users.get(original.user_id)
    if (!originalAuthor) return false
    const audience = await remoteFollowersOf(this.store, reposter)
    if (originalAuthor.remote && !isModerated(originalAuthor) && !audience.some((u) => u.id === originalAuthor.id)) audience.push(originalAuthor)
    if (audience.length === 0) return false
    const ctx = await this.context()
    const { sendAnnounce } = await import('./interactions.js')
    await sendAnnounce(ctx, repost, original, originalAuthor, audience, undone)
    return true
  }

  /** The Update of local user `user`'s actor, to its remote followers; `seq` (the edit's event) names the Update. */
  private async deliverProfile(user: UserRow, seq: number): Promise<boolean> {
    if (user.remote || isModerated(user)) return false
    const audience = await remoteFollowersOf(this.store, user)
    if (audience.length === 0) return false
    const ctx = await this.context()
    const { sendProfile } = await import('./outgoing/deliveries.js')
    await sendProfile(ctx, this.site!, user, audience, seq)
    return true
  }

  /**
   * The Delete of deleted local account `user`'s actor, to every server svc
   * knows of: its followers and those it followed are gone by now, and any
   * server may hold copies of its posts.
   */
  private async deliverAccountDeleted(user: UserRow): Promise<boolean> {
    if (user.remote) return false
    const audience = await knownRemoteAccounts(this.store)
    if (audience.length === 0) return false
    const ctx = await this.context()
    const { sendAccountDeleted } = await import('./outgoing/deliveries.js')
    await sendAccountDeleted(ctx, user, audience)
    return true
  }

  /**
   * A local user's block of a remote account, told to its server: an Undo of
   * the user's follow and a Reject of the account's, when the block ended
   * them, and the Block itself (event `seq` names it), as Mastodon sends it.
   */
  private async deliverBlock({ user, target, ended }: DomainEvent<'block.added'>['payload'], seq: number): Promise<boolean> {
    if (user.remote || !target.remote || isModerated(user) || isModerated(target)) return false
    const ctx = await this.context()
    const { cancelFollow, refuseFollower, sendBlock } = await import('./follows.js')
    if (ended?.following) await cancelFollow(ctx, this.store, user, target)
    if (ended?.followed) await refuseFollower(ctx, user, target)
    await sendBlock(ctx, user, target, seq, false)
    return true
  }

  /** A local user's unblock of a remote account, told to its server as the Undo of the Block. */
  private async deliverUnblock({ user, target }: DomainEvent<'block.removed'>['payload'], seq: number): Promise<boolean> {
    if (user.remote || !target.remote || isModerated(user) || isModerated(target)) return false
    const ctx = await this.context()
    const { sendBlock } = await import('./follows.js')
    await sendBlock(ctx, user, target, seq, true)
    return true
  }

  /** Stops the queue (a message being handled finishes) and the sweeps. */
  async stop(): Promise<void> {
    // The images being copied finish (each is one commit); no new one starts.
    await this.services.images.stop()
    // The outbox first: its last event may still be queueing deliveries.
    await this.outbox.stop()
    this.stopping.abort()
    if (this.sweeper) clearInterval(this.sweeper)
    await this.running
    // The outcomes of the last deliveries, for svc federation queue.
    await this.deliveries.flush()
  }

  /** Fedify's federation for this instance, built from the same parts each time. */
  private async build(skipSignatureVerification: boolean): Promise<Federation<void>> {
    const { buildFederation } = await import('./build-federation.js')
    return buildFederation({
      store: this.store,
      relations: this.relations,
      blocks: this.blocks,
      ...this.services,
      site: this.site!,
      kv: this.kv,
      queue: this.queue,
      deliveries: this.deliveries,
      allowPrivateAddress: this.config.federation.allow_private_addresses,
      loaders: await this.documentLoaders(),
      version: this.version,
      // As Mastodon says it: anyone may ask for an account, whether or not the operator approves it first.
      openRegistrations: () => ['open', 'approval'].includes(registrationModeOf(this.config)),
      skipSignatureVerification,
    })
  }

  /**
   * The federation for inbox POSTs svc verified itself: it does not check
   * signatures, so nothing else ever reaches it. Its queue is the other's
   * (the same store), which that one's workers run: this one never starts it.
   */
  private loadVerified(): Promise<Federation<void>> {
    this.verifiedLoading ??= this.build(true)
    return this.verifiedLoading
  }

  private load(): Promise<Federation<void>> {
    this.loading ??= (async () => {
      const federation = await this.build(false)
      if (!this.stopping.signal.aborted) {
        this.running = federation.startQueue(undefined, { signal: this.stopping.signal })
        this.sweeper = setInterval(() => {
          this.kv.sweep().catch((err: unknown) => process.emitWarning(`svc: sweeping the federation cache failed: ${(err as Error).message}`))
        }, SWEEP_INTERVAL_MS).unref()
      }
      return federation
    })()
    return this.loading
  }

  /** A 410 with a Tombstone at the id of a deleted account or post. */
  private async tombstone(federation: Federation<void>, request: Request, path: string): Promise<Response | null> {
    const actor = ACTOR_PATH.exec(path)
    const note = NOTE_PATH.exec(path)
    let deleted = false
    if (actor) {
      const user = await this.store.read.users.get(Number(actor[1]))
      deleted = user?.deleted_at !== undefined && !user.remote
    }
    if (note) {
      const post = await this.store.read.posts.get(Number(note[1]))
      deleted = post?.is_deleted === true && !post.machine_only && post.repost_of === undefined && !post.remote
    }
    if (!deleted || request.method !== 'GET') return null
    const { Tombstone } = await import('@fedify/fedify')
    const ctx = federation.createContext(new URL(this.site!.origin), undefined)
    const body = await new Tombstone({ id: new URL(path, this.site!.origin) }).toJsonLd({ contextLoader: ctx.contextLoader })
    return new Response(JSON.stringify(body), { status: 410, headers: { 'Content-Type': 'application/activity+json' } })
  }

  /** Where a browser that asked for an actor or a Note reads it: the profile page or the post page. */
  private async webPage(path: string): Promise<Response | null> {
    const actor = ACTOR_PATH.exec(path)
    const note = NOTE_PATH.exec(path)
    const post = note ? await this.store.read.posts.get(Number(note[1])) : null
    const user = await this.store.read.users.get(actor ? Number(actor[1]) : (post?.user_id ?? 0))
    if (!user || isModerated(user) || user.remote) return null
    const location = post ? postAddress(this.site!.origin, user, post.id) : profileAddress(this.site!.origin, user)
    return new Response(null, { status: 303, headers: { Location: location } })
  }
}

/** Is a queued message of Fedify's an activity received (not a delivery)? */
const isInbound = (message: unknown): boolean => (message as { type?: unknown } | null)?.type === 'inbox'

/** The inbox a queued message of Fedify's delivers to, when it is a delivery. */
function inboxOf(message: unknown): string | null {
  const m = message as { type?: unknown; inbox?: unknown } | null
  return m?.type === 'outbox' && typeof m.inbox === 'string' ? m.inbox : null
}

/** What `svc federation queue` shows. */
export interface DeliveryReport {
  federating: boolean
  /** The event log as the outbox reads it: every event up to `cursor` had its deliveries queued; `node` pumps while its lease lasts (nodes sharing a store). */
  outbox: { cursor: number | null; head: number; node?: string; lease_until?: string }
  hosts: HostDeliveries[]
}
