/**
 * Fedify's federation for this instance, one dispatcher per object and one
 * listener per activity, as Hollo registers them: actors (with their key
 * pairs and the handle and profile-page lookups WebFinger needs), Notes,
 * the outbox, followers and following collections, the inboxes and
 * NodeInfo. Fedify does the protocol: WebFinger, JSON-LD, HTTP Signatures
 * and Object Integrity Proofs, the key fetch and its cache, the queue.
 * Loaded only when federation is used: Fedify takes most of a second to load.
 */
import {
  createExponentialBackoffPolicy,
  createFederation,
  exportJwk,
  importJwk,
  Note,
  parseSemVer,
  type Federation,
  type Recipient,
  type RetryPolicy,
} from '@fedify/fedify'
import type { UserRow } from '../model/user.js'
import { paginate } from '../pagination/pagination.js'
import type { PrivateMessageService } from '../channels/private-messages.js'
import type { PostService } from '../posts/posts.js'
import type { RepostService } from '../posts/reposts.js'
import type { StarService } from '../posts/stars.js'
import type { RelationService } from '../relations/relations.js'
import type { Store } from '../store/port.js'
import { isModerated } from '../users/moderated-users.js'
import { usernameKey } from '../users/users.js'
import { actorOf } from './actors.js'
import { userAgentOf, type Loaders } from './documents/loaders.js'
import type { DeliveryLog } from './outgoing/delivery-log.js'
import type { DomainBlocks } from './domain-blocks.js'
import { recipientOf } from './follows.js'
import { listenInboxes } from './inbox.js'
import { KeyPairs } from './key-pairs.js'
import type { StoreKvStore } from './kv-store.js'
import type { StoreMessageQueue } from './message-queue.js'
import { createOf, noteLinksOf, noteOf, type AnnotationAddresses } from './notes.js'
import type { RemoteMedia } from './media/remote-media.js'
import { AP_PATHS, type FederationSite } from './site.js'

/** Items per page of the outbox, followers and following collections. */
export const COLLECTION_PAGE = 20

export interface FederationParts {
  store: Store
  relations: RelationService
  blocks: DomainBlocks
  posts: PostService
  stars: StarService
  reposts: RepostService
  pm: PrivateMessageService
  /** Fills in the file addresses of posts' annotations, for their Notes' attachments. */
  annotations: AnnotationAddresses
  media: RemoteMedia
  site: FederationSite
  kv: StoreKvStore
  queue: StoreMessageQueue
  /** Where the outcome of each delivery is recorded (its failures and when it is given up). */
  deliveries: DeliveryLog
  /** Let outgoing fetches (remote keys, actors) reach loopback and private addresses. */
  allowPrivateAddress: boolean
  /** How remote documents and JSON-LD contexts are loaded (documents/loaders.ts), the same for every federation built. */
  loaders: Loaders
  /** svc's version, for NodeInfo and the User-Agent. */
  version: string
  openRegistrations: () => boolean
  /**
   * Take inbox POSTs without checking their signatures: only for the
   * federation that is handed requests svc verified itself (rfc9421.ts),
   * never for one that answers requests as they come.
   */
  skipSignatureVerification?: boolean
}

/** NodeInfo wants a semantic version; a build without one (no package.json found) says 0.0.0. */
const semVerOf = (version: string) => {
  try {
    return parseSemVer(version)
  } catch {
    return parseSemVer('0.0.0')
  }
}

/**
 * `identifier` is a user id; the local user whose keys sign for it: a live
 * account, or a deleted one, whose last word is the Delete of its actor
 * (its actor document is a Tombstone by then, so the keys show nowhere).
 */
async function signingUser(store: Store, identifier: string): Promise<UserRow | null> {
  if (!/^\d{1,15}$/.test(identifier)) return null
  const user = await store.read.users.get(Number(identifier))
  return user && !user.remote && user.suspended_at === undefined ? user : null
}

/** `identifier` is a user id; the user, while their account is live and local (a remote account's actor is on its own server). */
async function liveUser(store: Store, identifier: string): Promise<UserRow | null> {
  const user = await signingUser(store, identifier)
  return user && !isModerated(user) ? user : null
}

/** `cursor` as a page's `before_id`: '' (the first page) is none, anything not an id is no page. */
const beforeOf = (cursor: string | null): number | undefined | null =>
  cursor === '' || cursor === null ? undefined : /^\d{1,15}$/.test(cursor) ? Number(cursor) : null

/**
 * Deliveries that fail are tried again soon, as Mastodon does (its first
 * retry comes 15 to 25 seconds after a failure), so a server that was down
 * for a restart gets what it missed within seconds of coming back; then
 * ever less often. Retry n (n = 1 to 18) waits 5 s × 2^(n-1), times Fedify's
 * jitter (1 to 2), at most 6 hours: without the jitter 5 s, 10 s, 20 s,
 * 40 s, 80 s, 160 s, 5 min 20 s, 10 min 40 s, 21 min 20 s, 42 min 40 s,
 * 1 h 25 min, 2 h 51 min, 5 h 41 min, then 6 h five times. 19 tries in all
 * over 41 h 23 min (47 h 23 min at the most jitter), about a day and three
 * quarters, before a delivery is given up, which leaves a warning in the log
 * and a mark in the delivery log (`svc federation queue` shows it).
 */
export const DELIVERY_RETRIES = { initialDelay: { seconds: 5 }, maxDelay: { hours: 6 }, maxAttempts: 18 } as const
const backoff = createExponentialBackoffPolicy(DELIVERY_RETRIES)
export const deliveryRetries: RetryPolicy = (context) => {
  const delay = backoff(context)
  if (delay === null) process.emitWarning(`svc: a federation delivery was given up after ${context.attempts + 1} tries`)
  return delay
}

export function buildFederation({
  store,
  relations,
  blocks,
  posts,
  stars,
  reposts,
  pm,
  annotations,
  media,
  site,
  kv,
  queue,
  deliveries,
  allowPrivateAddress,
  loaders,
  version,
  openRegistrations,
  skipSignatureVerification = false,
}: FederationParts): Federation<void> {
  const federation = createFederation<void>({
    kv,
    queue,
    manuallyStartQueue: true,
    origin: site.origin,
    allowPrivateAddress,
    userAgent: userAgentOf(version, site.origin),
    documentLoaderFactory: loaders.documentLoaderFactory,
    contextLoaderFactory: loaders.contextLoaderFactory,
    outboxRetryPolicy: (context) => {
      const delay = deliveryRetries(context)
      if (delay === null) deliveries.gaveUp()
      return delay
    },
    onOutboxError: deliveries.failed,
    skipSignatureVerification,
  })
  const keys = new KeyPairs(store, { exportJwk, importJwk })
  const r = store.read

  federation
    .setActorDispatcher(AP_PATHS.actor, async (ctx, identifier) => {
      const user = await liveUser(store, identifier)
      return user && actorOf(ctx, site.origin, user)
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      const user = await signingUser(store, identifier)
      return user ? keys.keyPairsOf(user.id) : []
    })
    .mapHandle(async (_ctx, username) => {
      const user = await r.users.one('username', usernameKey(username))
      return user && !isModerated(user) && !user.remote ? String(user.id) : null
    })
    // The profile page's address names the actor too (WebFinger by URL).
    .mapAlias((_ctx, resource) => {
      const match = /^\/@(\w{1,20})$/.exec(resource.pathname)
      return resource.origin === site.origin && match ? { username: match[1] } : null
    })

  federation.setObjectDispatcher(Note, AP_PATHS.note, async (ctx, { id }) => {
    const post = /^\d{1,15}$/.test(id) ? await r.posts.get(Number(id)) : null
    if (!post || post.is_deleted || post.machine_only || post.repost_of !== undefined || post.remote) return null
    const author = await liveUser(store, String(post.user_id))
    return author && noteOf(ctx, site, post, author, await noteLinksOf(store, post, annotations, site.origin))
  })

  federation
    .setOutboxDispatcher(AP_PATHS.outbox, async (ctx, identifier, cursor) => {
      const user = await liveUser(store, identifier)
      const before = beforeOf(cursor)
      if (!user || before === null) return null
      // Reposts and machine-only posts are not Notes: left out (reposts as Announce come with delivery).
      const page = await paginate(
        { before_id: before, count: COLLECTION_PAGE },
        (range) => r.posts.ids('user_live', user.id, range),
        (ids) => r.posts.getMany(ids),
        (post) => post.repost_of === undefined && !post.machine_only,
      )
      const last = page.items[page.items.length - 1]
      return {
        items: await Promise.all(
          page.items.map(async ({ item }) => createOf(noteOf(ctx, site, item, user, await noteLinksOf(store, item, annotations, site.origin)), item)),
        ),
        nextCursor: page.more && last ? String(last.pagination_id) : null,
      }
    })
    .setCounter(async (_ctx, identifier) => {
      const user = await liveUser(store, identifier)
      return user && r.posts.count('user_live', user.id)
    })
    .setFirstCursor(() => '')

  /** A page of the users on one side of `user`'s follows (`target`: their followers; `user`: whom they follow). */
  const relationPage = async (identifier: string, cursor: string | null, index: 'target' | 'user') => {
    const user = await liveUser(store, identifier)
    const before = beforeOf(cursor)
    if (!user || before === null) return null
    const page = await paginate(
      { before_id: before, count: COLLECTION_PAGE },
      (range) => r.follows.ids(index, user.id, range),
      (ids) => r.follows.getMany(ids),
    )
    const others = await r.users.getMany(page.items.map(({ item }) => (index === 'target' ? item.user_id : item.target_id)))
    const last = page.items[page.items.length - 1]
    return { users: others.filter((u) => !isModerated(u)), nextCursor: page.more && last ? String(last.pagination_id) : null }
  }

  federation
    .setFollowersDispatcher(AP_PATHS.followers, async (ctx, identifier, cursor) => {
      const page = await relationPage(identifier, cursor, 'target')
      if (!page) return null
      // Remote followers are their actors, reached at their own inboxes.
      const items: Recipient[] = page.users.map((u) =>
        u.remote
          ? recipientOf(u)
          : {
              id: ctx.getActorUri(String(u.id)),
              inboxId: ctx.getInboxUri(String(u.id)),
              endpoints: { sharedInbox: ctx.getInboxUri() },
            },
      )
      return { items, nextCursor: page.nextCursor }
    })
    .setCounter(async (_ctx, identifier) => {
      const user = await liveUser(store, identifier)
      return user && r.follows.count('target', user.id)
    })
    .setFirstCursor(() => '')

  federation
    .setFollowingDispatcher(AP_PATHS.following, async (ctx, identifier, cursor) => {
      const page = await relationPage(identifier, cursor, 'user')
      return page && { items: page.users.map((u) => (u.remote ? new URL(u.remote.actor_id) : ctx.getActorUri(String(u.id)))), nextCursor: page.nextCursor }
    })
    .setCounter(async (_ctx, identifier) => {
      const user = await liveUser(store, identifier)
      return user && r.follows.count('user', user.id)
    })
    .setFirstCursor(() => '')

  listenInboxes(federation.setInboxListeners(AP_PATHS.inbox, AP_PATHS.sharedInbox), { store, relations, blocks, posts, stars, reposts, pm, media })

  federation.setNodeInfoDispatcher(AP_PATHS.nodeInfo, async () => {
    // Local accounts only: remote ones are their servers' users.
    const ids = await r.users.scan({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' }, (u) => !isModerated(u) && !u.remote)
    let localPosts = 0
    for (const id of ids) localPosts += await r.posts.count('user_live', id)
    return {
      software: { name: 'svc', version: semVerOf(version) },
      protocols: ['activitypub'],
      openRegistrations: openRegistrations(),
      usage: { users: { total: ids.length }, localPosts, localComments: 0 },
    }
  })

  return federation
}
