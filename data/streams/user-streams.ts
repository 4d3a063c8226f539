/**
 * User streams as stored: a stream per connection id, kept while a consumer
 * is connected and for five minutes after, with its subscriptions, so a
 * client that reconnects (or a server that restarts) resumes where it was.
 * Delivery itself is the hub's (stream-hub.ts); this is what it reads.
 */
import { nanoid } from 'nanoid'
import { DomainError, notFound } from '../errors.js'
import { SUBSCRIPTIONS_PER_STREAM, USER_STREAM_EXPIRY_MS, USER_STREAMS_PER_TOKEN } from '../limits.js'
import type { StreamDisplayOptions, StreamSubscriptionRow, SubscribableEndpoint, SubscriptionFilters, UserStreamRow } from '../model/stream.js'
import type { Store, Tx } from '../store/port.js'
import { pair } from '../store/schema.js'
import { isoNow } from '../time.js'
import { actingUser } from '../users/acting-user.js'
import type { Viewer } from '../viewer.js'

/** What the hub needs to hear about: a stream's subscriptions changed, or the stream is gone. */
export interface StreamWatcher {
  subscriptionsChanged(stream: UserStreamRow): Promise<void>
  streamRemoved(connectionId: string): void
}

export interface OpenStreamInput {
  /** The id the client proposes, to resume that stream. */
  connection_id?: string
  auto_delete?: boolean
  options: StreamDisplayOptions
}

export interface SubscribeInput {
  connection_id: string
  subscription_id?: string
  endpoint: SubscribableEndpoint
  target?: number
  filters: SubscriptionFilters
  /** The list's scopes (one of them is needed), checked again at each delivery. */
  scopes: readonly string[]
  /** The call's pagination: a subscription is made only when it cannot miss anything (the spec's creation conditions). */
  page: { since_id?: unknown; before_id?: unknown; count?: number }
  paginated: boolean
}

/** A subscription made before its list was read, confirmed or undone once the answer's `more` is known. */
export interface PendingSubscription {
  subscription: StreamSubscriptionRow
  /** The row it replaced, put back if the subscription is undone. */
  replaced: StreamSubscriptionRow | null
  needsNoMore: boolean
  stream: UserStreamRow
}

/**
 * A process serving streams. Processes sharing a store (PostgreSQL) each have
 * an id of their own; a process alone on its store is the only node there is.
 */
export interface Node {
  id: string
  /** Other processes write to the same store. */
  shared: boolean
}

export const SOLE_NODE: Node = { id: 'sole', shared: false }

const expired = (stream: UserStreamRow, now: number): boolean => stream.closed_at !== null && Date.parse(stream.closed_at) + USER_STREAM_EXPIRY_MS < now

export class UserStreamService {
  private watcher: StreamWatcher | null = null

  constructor(
    private readonly store: Store,
    /** The newest durable event: where a new stream starts. */
    private readonly head: () => number,
    /** The oldest event still kept: a stream behind it cannot resume without a gap. */
    private readonly oldest: () => number,
    /** This process among those sharing the store. */
    readonly node: Node = SOLE_NODE,
  ) {}

  /** The hub, told of every change it must apply to connected streams. */
  watch(watcher: StreamWatcher): void {
    this.watcher = watcher
  }

  /**
   * Opens a stream for the viewer's token: resumes `connection_id` when it is
   * one of this token's streams, not expired, and every event it missed is
   * still in the log; otherwise makes a new one (the client must then
   * subscribe and backfill again). Answers the row and whether it resumed.
   * Errors: `rate_limited` when the token already has its five streams connected.
   */
  async open(viewer: Viewer, input: OpenStreamInput, connected: (connectionId: string) => boolean): Promise<{ stream: UserStreamRow; resumed: boolean }> {
    const user = actingUser(viewer)
    const token = viewer.token
    if (!token) throw new DomainError('unauthenticated', 'a user stream needs a user token')
    return this.store.transact(async (tx) => {
      const now = Date.now()
      const known = input.connection_id ? await tx.user_streams.one('connection_id', input.connection_id) : null
      if (known && known.token_id === token.id && !expired(known, now) && known.cursor >= this.oldest() - 1) {
        // Still served by another process: it lets its consumer go when it reads this.
        if (known.closed_at === null && known.node !== undefined && known.node !== this.node.id) {
          tx.emit('user_stream.taken', { connection_id: known.connection_id, node: this.node.id })
        }
        const resumed = { ...known, closed_at: null, node: this.nodeMark, auto_delete: input.auto_delete ?? false, options: input.options }
        return { stream: tx.user_streams.put(resumed), resumed: true }
      }
      const mine = await tx.user_streams.getMany(await tx.user_streams.ids('token', token.id, { limit: Number.MAX_SAFE_INTEGER, order: 'asc' }))
      const alive = mine.filter((s) => !expired(s, now))
      for (const gone of mine.filter((s) => expired(s, now))) await this.removeIn(tx, gone)
      // Over the limit, the streams closed longest ago make room; five connected ones refuse a sixth.
      const closed = alive
        .filter((s) => s.closed_at !== null && !connected(s.connection_id))
        .sort((a, b) => Date.parse(a.closed_at!) - Date.parse(b.closed_at!))
      const excess = alive.length + 1 - USER_STREAMS_PER_TOKEN
      if (excess > closed.length) {
        throw new DomainError('rate_limited', `a user token may keep at most ${USER_STREAMS_PER_TOKEN} user streams connected; close one first`)
      }
      for (const old of closed.slice(0, Math.max(0, excess))) await this.removeIn(tx, old)
      const stream = tx.user_streams.insert({
        connection_id: nanoid(24),
        user_id: user.id,
        token_id: token.id,
        options: input.options,
        auto_delete: input.auto_delete ?? false,
        cursor: this.head(),
        closed_at: null,
        node: this.nodeMark,
        created_at: isoNow(),
      })
      return { stream, resumed: false }
    })
  }

  /** The consumer went away having handled every event up to `cursor`: kept for resuming, or deleted with `auto_delete`. */
  async close(connectionId: string, cursor: number): Promise<void> {
    await this.closeMany([[connectionId, cursor]])
  }

  /** `close` of several streams, in one commit. */
  async closeMany(ends: readonly (readonly [connectionId: string, cursor: number])[]): Promise<void> {
    if (ends.length === 0) return
    await this.store.transact(async (tx) => {
      for (const [connectionId, cursor] of ends) {
        const stream = await tx.user_streams.one('connection_id', connectionId)
        // Gone, or taken over by another process, which closes it when its own consumer leaves.
        if (!stream || (stream.node !== undefined && stream.node !== this.node.id)) continue
        if (stream.auto_delete) await this.removeIn(tx, stream)
        else tx.user_streams.put({ ...stream, cursor: Math.max(stream.cursor, cursor), closed_at: isoNow() })
      }
    })
  }

  /**
   * Tells the process serving `stream`, when it may be another one, that its
   * subscriptions changed: in the transaction, so it reads the change before
   * any later event (this process's own hub hears of it as the watcher).
   */
  private changedIn(tx: Tx, stream: UserStreamRow): void {
    if (this.node.shared) tx.emit('user_stream.changed', { connection_id: stream.connection_id, node: this.node.id })
  }

  /** What a stream served here records as its node: nothing when this process is alone on its store. */
  private get nodeMark(): string | undefined {
    return this.node.shared ? this.node.id : undefined
  }

  /** A stream by connection id, if it exists and has not expired. */
  async find(connectionId: string): Promise<UserStreamRow | null> {
    const stream = await this.store.read.user_streams.one('connection_id', connectionId)
    return stream && !expired(stream, Date.now()) ? stream : null
  }

  /** The streams kept now (connected or waiting for a resume), oldest first, at most `limit`. */
  async list(limit: number): Promise<UserStreamRow[]> {
    const r = this.store.read
    const now = Date.now()
    return r.user_streams.getMany(await r.user_streams.scan({ limit, order: 'asc' }, (s) => !expired(s, now)))
  }

  async subscriptionsOf(stream: UserStreamRow): Promise<StreamSubscriptionRow[]> {
    const r = this.store.read
    return r.stream_subscriptions.getMany(await r.stream_subscriptions.ids('stream', stream.id, { limit: SUBSCRIPTIONS_PER_STREAM * 2, order: 'asc' }))
  }

  /** Deletes one of the viewer's streams and its subscriptions, disconnecting its consumer. Errors: `not_found`. */
  async remove(viewer: Viewer, connectionId: string): Promise<void> {
    const user = actingUser(viewer)
    await this.store.transact(async (tx) => {
      const stream = await tx.user_streams.one('connection_id', connectionId)
      if (!stream || stream.user_id !== user.id) throw notFound(`no user stream ${connectionId}`)
      await this.removeIn(tx, stream)
      this.changedIn(tx, stream)
    })
    this.watcher?.streamRemoved(connectionId)
  }

  /** Deletes one subscription of one of the viewer's streams. Errors: `not_found`. */
  async unsubscribe(viewer: Viewer, connectionId: string, subscriptionId: string): Promise<void> {
    const user = actingUser(viewer)
    const stream = await this.store.transact(async (tx) => {
      const stream = await tx.user_streams.one('connection_id', connectionId)
      const sub = stream && stream.user_id === user.id ? await tx.stream_subscriptions.one('pair', pair(stream.id, subscriptionId)) : null
      if (!stream || !sub) throw notFound(`no subscription ${subscriptionId} on user stream ${connectionId}`)
      tx.stream_subscriptions.remove(sub.id)
      this.changedIn(tx, stream)
      return stream
    })
    await this.watcher?.subscriptionsChanged(stream)
  }

  /**
   * Subscribes a stream to a list, before the list is read, so that nothing
   * committed meanwhile is missed (an event may repeat what the answer
   * holds). Answers null when the spec's creation conditions cannot hold or
   * the connection is not one of this token's streams. Errors: `invalid`
   * past 50 subscriptions on the stream.
   */
  async prepare(viewer: Viewer, input: SubscribeInput): Promise<PendingSubscription | null> {
    const { since_id, before_id, count } = input.page
    if ((count ?? 0) < 0) return null
    const needsNoMore = input.paginated && since_id !== undefined
    if (input.paginated && before_id !== undefined) return null
    const token = viewer.token
    const made = await this.store.transact(async (tx) => {
      const stream = await tx.user_streams.one('connection_id', input.connection_id)
      if (!stream || !token || stream.token_id !== token.id || expired(stream, Date.now())) return null
      const subscriptionId = input.subscription_id ?? nanoid(16)
      // A thread is subscribed by any of its posts; it is the thread that is matched.
      const threadId = input.endpoint === 'posts/replies' ? (await tx.posts.get(input.target ?? 0))?.thread_id : undefined
      if (input.endpoint === 'posts/replies' && threadId === undefined) return null
      const replaced = await tx.stream_subscriptions.one('pair', pair(stream.id, subscriptionId))
      if (!replaced && (await tx.stream_subscriptions.count('stream', stream.id)) >= SUBSCRIPTIONS_PER_STREAM) {
        throw new DomainError('invalid', `a user stream holds at most ${SUBSCRIPTIONS_PER_STREAM} subscriptions; delete one first`)
      }
      const fields = {
        stream_id: stream.id,
        subscription_id: subscriptionId,
        endpoint: input.endpoint,
        filters: input.filters,
        scopes: [...input.scopes],
        created_at: isoNow(),
        ...(input.target === undefined ? {} : { target: input.target }),
        ...(threadId === undefined ? {} : { thread_id: threadId }),
      }
      const subscription = replaced ? tx.stream_subscriptions.put({ ...fields, id: replaced.id }) : tx.stream_subscriptions.insert(fields)
      this.changedIn(tx, stream)
      return { subscription, replaced, needsNoMore, stream }
    })
    if (made) await this.watcher?.subscriptionsChanged(made.stream)
    return made
  }

  /** Keeps a prepared subscription when the answer allows it (answers its id), or undoes it. */
  async confirm(pending: PendingSubscription, more: boolean): Promise<string[] | null> {
    if (!pending.needsNoMore || !more) return [pending.subscription.subscription_id]
    await this.undo(pending)
    return null
  }

  /** Undoes a prepared subscription (its list could not be read, or would miss items). */
  async undo(pending: PendingSubscription): Promise<void> {
    await this.store.transact(async (tx) => {
      if (pending.replaced) tx.stream_subscriptions.put(pending.replaced)
      else tx.stream_subscriptions.remove(pending.subscription.id)
      this.changedIn(tx, pending.stream)
    })
    await this.watcher?.subscriptionsChanged(pending.stream)
  }

  /** Removes streams closed longer than the expiry; answers how many. */
  async sweep(now = Date.now()): Promise<number> {
    const r = this.store.read
    const ids = await r.user_streams.scan({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' }, (s) => expired(s, now))
    if (ids.length === 0) return 0
    await this.store.transact(async (tx) => {
      for (const stream of await tx.user_streams.getMany(ids)) await this.removeIn(tx, stream)
    })
    return ids.length
  }

  /**
   * After a crash, streams still marked connected were cut at the crash:
   * they close now, from the last position the hub saved (never past what
   * their consumers were sent, so a resume repeats rather than skips).
   */
  async recover(savedCursor: number, servedBy: (stream: UserStreamRow) => boolean = () => true): Promise<void> {
    const r = this.store.read
    const ids = await r.user_streams.scan({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' }, (s) => s.closed_at === null && servedBy(s))
    if (ids.length === 0) return
    await this.store.transact(async (tx) => {
      const closedAt = isoNow()
      for (const s of await tx.user_streams.getMany(ids)) tx.user_streams.put({ ...s, cursor: Math.max(s.cursor, savedCursor), closed_at: closedAt })
    })
  }

  /** Every stream of a token (it was revoked): removed with their subscriptions. */
  async removeForToken(tokenId: number): Promise<string[]> {
    const r = this.store.read
    const ids = await r.user_streams.ids('token', tokenId, { limit: Number.MAX_SAFE_INTEGER })
    if (ids.length === 0) return []
    return this.store.transact(async (tx) => {
      const streams = await tx.user_streams.getMany(ids)
      for (const s of streams) await this.removeIn(tx, s)
      return streams.map((s) => s.connection_id)
    })
  }

  private async removeIn(tx: Tx, stream: UserStreamRow): Promise<void> {
    for (const id of await tx.stream_subscriptions.ids('stream', stream.id, { limit: Number.MAX_SAFE_INTEGER })) tx.stream_subscriptions.remove(id)
    tx.user_streams.remove(stream.id)
  }
}
