/**
 * The fan-out of user streams: the one reader of the event log that feeds
 * every connected stream, in the manner of the atproto PDS sequencer.
 *
 * Each durable event goes through one dispatcher, in sequence order: it
 * works out the event's audience (event-audience.ts) and appends the event
 * to the backlog of each connected stream in it. Streams with a backlog
 * take turns on the delivery lanes (delivery-lanes.ts), a few events at a
 * time (match its subscriptions, hand the result to its sink), in slices
 * that leave the event loop to requests in between: the request that made
 * the event never waits for its fan-out. A consumer that stops reading
 * waits off the lanes, so it slows nobody else. A backlog past its bound
 * disconnects the consumer with a reason; it may resume. When the streams
 * ask for more than the process delivers, the lanes fall behind and the
 * hub disconnects as many of the costliest streams as the excess
 * (stream-overload.ts); an event that still waited past
 * USER_STREAM_MAX_DELAY_MS disconnects its consumer too. The positions of
 * streams that end are written together, a batch per turn of the loop:
 * shedding thousands must not cost thousands of commits.
 *
 * A stream that connects with a cursor behind the dispatcher (a resume)
 * first catches up by reading the log itself, a batch per turn, up to where
 * the dispatcher is; in the same synchronous step that finds it has caught
 * up it turns live, so every later event reaches it through its backlog: no
 * gap, no repeat at the cut-over. Catching up takes turns like live
 * delivery, so resumes cannot starve live streams.
 */
import type { DomainEvent } from '../model/event.js'
import { USER_STREAM_BACKLOG, USER_STREAM_MAX_DELAY_MS } from '../limits.js'
import type { UserStreamRow } from '../model/stream.js'
import { holdersOf } from '../relations/relation-reads.js'
import type { Store } from '../store/port.js'
import { pair } from '../store/schema.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'
import { audienceOf, type Audience } from './event-audience.js'
import type { StreamDelivery, StreamSink } from './stream-delivery.js'
import type { StreamMatcher } from './stream-matcher.js'
import type { OpenStreamInput, StreamWatcher, UserStreamService } from './user-streams.js'
import { addTo, Connection, forgetWhatChanged, removeFrom } from './stream-connection.js'
import { DeliveryLanes } from './delivery-lanes.js'
import { RecentRate, SATURATED, streamsToShed, Throughput } from './stream-overload.js'

/** The event log as the hub reads it. */
export interface EventSource {
  head(): number
  oldest(): number
  after(seq: number, limit: number): Promise<DomainEvent[]>
  onAny(listener: (event: DomainEvent) => void): () => void
}

export interface OpenedStream {
  connectionId: string
  resumed: boolean
  stream: UserStreamRow
}

/** One connected consumer as the console sees it: a copy, taken without touching the hub's state. */
export interface ConnectionSnapshot {
  connection_id: string
  user_id: number
  token_id: number
  connected_at: string
  /** False while it replays the log from its cursor. */
  live: boolean
  /** Events waiting in its backlog (bounded by USER_STREAM_BACKLOG). */
  backlog: number
  /** Every event up to here was handled for it. */
  cursor: number
  subscriptions: { subscription_id: string; endpoint: string; target?: number }[]
}

export interface HubSnapshot {
  /** The event log's newest seq. */
  head: number
  connections: ConnectionSnapshot[]
}

const CURSOR_NAME = 'user_streams'

/**
 * Processes sharing a store each save their cursor as `user_streams@NODE`,
 * at least this often: the row's age tells the others whether it still runs.
 */
const HEARTBEAT_MS = 5_000
/** A process silent this long has died (kill -9, a lost machine): its streams close, from its saved cursor. */
const NODE_DEAD_MS = 30_000

const yieldToIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
/**
 * How long the dispatcher runs before it lets I/O in. Not once per event:
 * that would tie its pace to the loop's turns, each holding a slice of
 * deliveries, and under load the events would queue up before any stream.
 */
const DISPATCH_SLICE_MS = 4
const CATCH_UP_BATCH = 200
/** Events of its backlog a live stream is sent in one turn. */
const EVENTS_PER_TURN = 8
/** Sockets of shed consumers closed in one turn of the loop. */
const CLOSES_PER_TURN = 200
/**
 * Streams that catch up from the log at once; the rest wait for a place.
 * Each takes turns like a live stream, so this bounds the share of the
 * process resumes take: a thousand streams resuming together cannot starve
 * the live ones, and each, once it has its place, catches up quickly.
 */
const CATCHING_UP_AT_ONCE = 32
/** An event waiting this long in a backlog means the hub is behind (the lanes' own target for a turn). */
const BEHIND_MS = 500
/** How often at most the hub sheds streams: what it did must show before it decides again. */
const BEHIND_EVERY_MS = 500
/** Events of the log a catching-up stream looks at in one turn, delivered or not. */
const CATCH_UP_STEP = 50

export class StreamHub implements StreamWatcher {
  private readonly byId = new Map<string, Connection>()
  private readonly byUser = new Map<number, Set<Connection>>()
  private readonly byThread = new Map<number, Set<Connection>>()
  private readonly byChannel = new Map<number, Set<Connection>>()
  private readonly incoming: DomainEvent[] = []
  private dispatching = false
  /** Every event up to here was handed to the backlog of each live stream it concerns. */
  private dispatched = 0
  private savedCursor = -1
  private savedAt = 0
  private timers: NodeJS.Timeout[] = []
  private unfollow: (() => void) | null = null
  private readonly lanes = new DeliveryLanes<Connection>(
    (conn) => this.step(conn),
    () => this.behind(),
  )
  /** When the hub last found itself behind. */
  private behindAt = -Infinity
  /** Consumers shed whose sockets are still to be closed, with the reason they are told. */
  private readonly closingSinks: [StreamSink, string][] = []
  /** Streams catching up now, and those waiting for their turn to (a resume), first come first served. */
  private catchingUp = 0
  private readonly resuming: Connection[] = []
  /** Events delivered per second the lanes had work; and a second lately, to streams catching up. */
  private readonly delivered = new Throughput()
  private readonly caughtUp = new RecentRate()
  /** Positions of streams that ended, waiting for their batch's commit. */
  private readonly ending = new Map<string, number>()
  private endingBatch: Promise<void> | null = null
  /** The commit each ended stream's position is in, until it is done: a resume of it waits for it. */
  private readonly endedIn = new Map<string, Promise<void>>()
  /** Consumers disconnected because the server was behind on them (the metric of a server behind). */
  private shed = 0
  /** When each event reached this hub: its wait for a consumer counts from there (its commit is not the hub's to hurry). */
  private readonly arrived = new WeakMap<DomainEvent, number>()

  constructor(
    private readonly store: Store,
    private readonly events: EventSource,
    private readonly streams: UserStreamService,
    private readonly matcher: StreamMatcher,
  ) {
    streams.watch(this)
  }

  private get node() {
    return this.streams.node
  }

  private get cursorName(): string {
    return this.node.shared ? `${CURSOR_NAME}@${this.node.id}` : CURSOR_NAME
  }

  /** Starts following the log; closes the streams a crash left open. */
  async start(): Promise<void> {
    this.dispatched = this.events.head()
    if (this.node.shared) {
      await this.saveCursor()
      await this.recoverDeadNodes()
      // Streams a process alone on this store left open (before it moved to PostgreSQL).
      const sole = await this.store.read.log_cursors.one('name', CURSOR_NAME)
      await this.streams.recover(sole?.seq ?? 0, (s) => s.node === undefined)
    } else {
      const saved = await this.store.read.log_cursors.one('name', CURSOR_NAME)
      await this.streams.recover(saved?.seq ?? this.dispatched)
    }
    this.unfollow = this.events.onAny((event) => {
      if (event.name === 'user_stream.taken') this.taken(event as DomainEvent<'user_stream.taken'>)
      this.arrived.set(event, Date.now())
      this.incoming.push(event)
      if (!this.dispatching) void this.dispatchLoop()
    })
    this.timers = [setInterval(() => void this.saveCursor(), 1000), setInterval(() => void this.streams.sweep().catch(warn), 60_000)]
    if (this.node.shared) this.timers.push(setInterval(() => void this.recoverDeadNodes().catch(warn), HEARTBEAT_MS))
    for (const t of this.timers) t.unref()
  }

  /**
   * Closes the streams of processes that stopped saving their cursor, from
   * the cursor each saved last (a resume then repeats rather than skips).
   */
  private async recoverDeadNodes(): Promise<void> {
    const r = this.store.read
    const now = Date.now()
    const prefix = `${CURSOR_NAME}@`
    const dead = await r.log_cursors.getMany(
      await r.log_cursors.scan(
        { limit: Number.MAX_SAFE_INTEGER, order: 'asc' },
        (c) => c.name.startsWith(prefix) && c.name !== this.cursorName && Date.parse(c.updated_at) + NODE_DEAD_MS < now,
      ),
    )
    for (const cursor of dead) {
      const node = cursor.name.slice(prefix.length)
      await this.streams.recover(cursor.seq, (s) => s.node === node)
      await this.store.transact(async (tx) => {
        const row = await tx.log_cursors.one('name', cursor.name)
        if (row && row.updated_at === cursor.updated_at) tx.log_cursors.remove(row.id)
      })
    }
  }

  /** Another process changed the subscriptions of a stream served here (or deleted it): read them again before the next event. */
  private async changedElsewhere(event: DomainEvent<'user_stream.changed'>): Promise<void> {
    const { connection_id: connectionId, node } = event.payload
    if (node === this.node.id || !this.byId.has(connectionId)) return
    const stream = await this.streams.find(connectionId)
    if (stream) await this.subscriptionsChanged(stream)
    else this.streamRemoved(connectionId)
  }

  /** Another process took a stream this one serves: its consumer here goes, and the stream's row is now the other's. */
  private taken(event: DomainEvent<'user_stream.taken'>): void {
    if (event.payload.node === this.node.id) return
    const conn = this.byId.get(event.payload.connection_id)
    if (!conn) return
    this.unregister(conn)
    conn.closed = true
    this.caughtUpWith(conn)
    conn.sink.close('another consumer connected with this connection_id')
  }

  /** Disconnects every consumer, keeping each stream's exact position for its resume. */
  async disconnectAll(reason: string): Promise<void> {
    await Promise.all([...this.byId.values()].map((conn) => this.detach(conn, reason)))
  }

  /** Stops following the log, disconnecting whoever is still connected. */
  async stop(): Promise<void> {
    this.unfollow?.()
    this.unfollow = null
    for (const t of this.timers) clearInterval(t)
    await this.disconnectAll('the server is shutting down; reconnect with your connection_id')
    if (!this.node.shared) {
      await this.saveCursor()
      return
    }
    // Every stream it served was closed at its exact position: nobody needs this process's heartbeat row.
    const name = this.cursorName
    await this.store
      .transact(async (tx) => {
        const row = await tx.log_cursors.one('name', name)
        if (row) tx.log_cursors.remove(row.id)
      })
      .catch(warn)
  }

  /** How many consumers are connected (the console and the benchmark read it). */
  get connected(): number {
    return this.byId.size
  }

  /**
   * How loaded the hub is, for metrics: connected streams, their backlogs
   * together, how far the furthest behind is from the head, streams waiting
   * for a turn, and consumers disconnected so far because the server could
   * not keep up with them.
   */
  load(): { connected: number; backlog: number; lag: number; waiting: number; shed: number } {
    const head = this.events.head()
    let backlog = 0
    let lag = 0
    for (const conn of this.byId.values()) {
      backlog += conn.queue.length
      lag = Math.max(lag, head - this.cursorOf(conn))
    }
    return { connected: this.byId.size, backlog, lag, waiting: this.lanes.waiting, shed: this.shed }
  }

  /** The connected consumers as they are now, for the admin console (read-only). */
  snapshot(): HubSnapshot {
    const connections = [...this.byId.values()].map((conn): ConnectionSnapshot => ({
      connection_id: conn.stream.connection_id,
      user_id: conn.stream.user_id,
      token_id: conn.stream.token_id,
      connected_at: conn.connectedAt,
      live: conn.live,
      backlog: conn.queue.length,
      cursor: this.cursorOf(conn),
      subscriptions: conn.subs.map((s) => ({
        subscription_id: s.subscription_id,
        endpoint: s.endpoint,
        ...(s.target === undefined ? {} : { target: s.target }),
      })),
    }))
    return { head: this.events.head(), connections }
  }

  /**
   * Connects a consumer: opens or resumes the viewer's stream (see
   * `UserStreamService.open`), disconnects an earlier consumer of the same
   * id, and starts delivery from where the stream was. Answers its
   * connection id and whether it resumed.
   */
  async connect(viewer: Viewer, input: OpenStreamInput, sink: StreamSink): Promise<OpenedStream> {
    const opened = await this.open(viewer, input)
    await this.attach(opened, sink)
    return opened
  }

  /**
   * The first half of `connect`, for a transport that must answer the
   * handshake before it has a sink (a WebSocket upgrade): opens or resumes
   * the stream, so a refusal (the limit) is still an HTTP answer.
   */
  async open(viewer: Viewer, input: OpenStreamInput): Promise<OpenedStream> {
    if (input.connection_id !== undefined) await this.endedIn.get(input.connection_id)
    const { stream, resumed } = await this.streams.open(viewer, input, (id) => this.byId.has(id))
    return { connectionId: stream.connection_id, resumed, stream }
  }

  /** The second half: starts delivering an opened stream to its consumer. */
  async attach(opened: OpenedStream, sink: StreamSink): Promise<void> {
    const { stream } = opened
    const earlier = this.byId.get(stream.connection_id)
    let cursor = stream.cursor
    if (earlier) {
      cursor = this.cursorOf(earlier)
      this.unregister(earlier)
      earlier.closed = true
      this.caughtUpWith(earlier)
      earlier.sink.close('another consumer connected with this connection_id')
    }
    const conn = new Connection(stream, await this.streams.subscriptionsOf(stream), sink, cursor)
    this.register(conn)
    this.schedule(conn)
  }

  /** An opened stream whose consumer never arrived (the handshake failed): closed as if it had left at once. */
  async abandon(opened: OpenedStream): Promise<void> {
    if (!this.byId.has(opened.connectionId)) await this.streams.close(opened.connectionId, opened.stream.cursor).catch(warn)
  }

  /** The transport's consumer went away. */
  async disconnected(connectionId: string, sink: StreamSink): Promise<void> {
    const conn = this.byId.get(connectionId)
    if (conn && conn.sink === sink) await this.detach(conn, null)
  }

  async subscriptionsChanged(stream: UserStreamRow): Promise<void> {
    const conn = this.byId.get(stream.connection_id)
    if (!conn) return
    const subs = await this.streams.subscriptionsOf(stream)
    if (conn.closed) return
    this.unindex(conn)
    conn.subs = subs
    conn.memo.clear()
    this.index(conn)
  }

  streamRemoved(connectionId: string): void {
    const conn = this.byId.get(connectionId)
    if (!conn) return
    this.unregister(conn)
    conn.closed = true
    this.caughtUpWith(conn)
    conn.sink.close('the stream was deleted')
  }

  private async dispatchLoop(): Promise<void> {
    this.dispatching = true
    let since = performance.now()
    try {
      while (this.incoming.length > 0) {
        const event = this.incoming.shift() as DomainEvent
        if (event.name === 'user_stream.changed') await this.changedElsewhere(event as DomainEvent<'user_stream.changed'>)
        const audience = await this.audienceOf(event)
        const followers = audience.followersOf === undefined ? null : await this.followersOnline(audience.followersOf)
        // From here to `dispatched` nothing awaits: a stream turning live sees either both or neither.
        for (const conn of this.connectionsOf(audience, followers)) this.push(conn, event)
        if (audience.revokedToken !== undefined) await this.revoke(audience.revokedToken)
        this.dispatched = event.seq
        if (performance.now() - since >= DISPATCH_SLICE_MS) {
          await yieldToIo()
          since = performance.now()
        }
      }
    } catch (err) {
      warn(err)
    } finally {
      this.dispatching = false
      if (this.incoming.length > 0) void this.dispatchLoop()
    }
  }

  /** The event's audience, with the author of the post it replies to or reposts (read here: the event names only the post). */
  private async audienceOf(event: DomainEvent): Promise<Audience> {
    const audience = audienceOf(event)
    if (audience.authorOfPost === undefined) return audience
    const post = await this.store.read.posts.get(audience.authorOfPost)
    return post ? { ...audience, users: [...audience.users, post.user_id] } : audience
  }

  /** The author's followers that have a stream connected, read from whichever side is smaller. */
  private async followersOnline(authorId: number): Promise<ReadonlySet<number>> {
    const r = this.store.read
    if ((await r.follows.count('target', authorId)) <= this.byUser.size) return holdersOf(r, 'follows', authorId)
    const online = new Set<number>()
    for (const userId of this.byUser.keys()) if ((await r.follows.one('pair', pair(userId, authorId))) !== null) online.add(userId)
    return online
  }

  private connectionsOf(audience: Audience, followers: ReadonlySet<number> | null): Set<Connection> {
    const out = new Set<Connection>()
    const add = (set: Set<Connection> | undefined) => set?.forEach((c) => out.add(c))
    for (const id of audience.users) add(this.byUser.get(id))
    for (const id of audience.threads) add(this.byThread.get(id))
    for (const id of audience.channels) add(this.byChannel.get(id))
    if (followers) for (const id of followers) add(this.byUser.get(id))
    return out
  }

  /** Does `event` possibly concern `conn` (the same test as the dispatcher's, for one stream catching up)? */
  private async concerns(conn: Connection, event: DomainEvent): Promise<boolean> {
    const a = await this.audienceOf(event)
    const me = conn.stream.user_id
    if (a.users.includes(me) || a.threads.some((t) => conn.threads.includes(t)) || a.channels.some((c) => conn.channels.includes(c))) return true
    return a.followersOf !== undefined && (await this.store.read.follows.one('pair', pair(me, a.followersOf))) !== null
  }

  private push(conn: Connection, event: DomainEvent): void {
    // A stream that opened after this event (its cursor at the log's head then) does not get it.
    if (!conn.live || conn.closed || event.seq <= conn.cursor) return
    conn.asked.add()
    if (conn.queue.length >= USER_STREAM_BACKLOG) {
      void this.detach(conn, `the consumer fell ${USER_STREAM_BACKLOG} events behind; reconnect with your connection_id to resume`)
      return
    }
    conn.queue.push(event)
    this.schedule(conn)
  }

  /** Gives a stream with work a turn on the lanes, once its consumer can take more. */
  private schedule(conn: Connection): void {
    if (conn.scheduled || conn.closed || (conn.live && conn.queue.length === 0)) return
    if (!conn.live && !conn.catchingUp) {
      if (this.catchingUp >= CATCHING_UP_AT_ONCE) {
        if (!this.resuming.includes(conn)) this.resuming.push(conn)
        return
      }
      conn.catchingUp = true
      this.catchingUp++
    }
    conn.scheduled = true
    const ready = conn.sink.whenReady()
    if (ready === null) this.lanes.add(conn)
    else {
      const go = () => {
        conn.readyAt = Date.now()
        this.lanes.add(conn)
      }
      void ready.then(go, go)
    }
  }

  /** One turn of a stream: one event of its backlog, or one batch of its catch-up. */
  private async step(conn: Connection): Promise<void> {
    try {
      if (conn.closed) return
      if (!conn.live) await this.catchUpStep(conn)
      else if (conn.queue.length > 0) {
        const event = conn.queue[0]
        const now = Date.now()
        const arrived = this.arrived.get(event) ?? now
        const waited = now - arrived
        // What it waited for its consumer to read is the consumer's, not the server's.
        if (now - Math.max(arrived, conn.readyAt) > BEHIND_MS) this.behind()
        if (conn.closed) return
        if (waited > USER_STREAM_MAX_DELAY_MS) {
          this.shedding(conn, `its events waited more than ${USER_STREAM_MAX_DELAY_MS / 1000} s for the server; reconnect with your connection_id to resume`)
          return
        }
        // What waited is delivered together, a few at a time: one event a turn would cap a busy stream at one event per round of the queue.
        for (let sent = 0; sent < EVENTS_PER_TURN && conn.queue.length > 0 && !conn.closed; sent++) {
          await this.deliver(conn, conn.queue[0])
          conn.queue.shift()
          if (conn.sink.whenReady() !== null) break
        }
      }
    } catch (err) {
      warn(err)
      await this.detach(conn, 'the stream failed; reconnect with your connection_id to resume')
    } finally {
      conn.scheduled = false
    }
    this.schedule(conn)
  }

  /**
   * The lanes are behind (a stream waited past their target for its turn,
   * or an event past BEHIND_MS in a backlog): disconnects the costliest
   * live streams, as many as ask for more than the process delivers. It
   * looks every BEHIND_EVERY_MS at most and acts on the second look in a
   * row, while the deliveries are what keeps the process busy.
   */
  private behind(): void {
    const now = performance.now()
    if (now - this.behindAt < BEHIND_EVERY_MS) return
    // Behind at two looks in a row: a moment's pause (a collection, a long request) is not an overload.
    const strike = now - this.behindAt <= 2.5 * BEHIND_EVERY_MS
    this.behindAt = now
    if (!strike) return
    const busyMs = this.lanes.busyMs()
    // Events that waited while the deliveries themselves were idle part of the time: something else held the loop.
    if (this.delivered.busyShare(busyMs) < SATURATED) return
    const live: { conn: Connection; rate: number; backlog: number }[] = []
    for (const conn of this.byId.values()) if (conn.live) live.push({ conn, rate: conn.asked.perSecond(), backlog: conn.queue.length })
    const capacity = this.delivered.perBusySecond(busyMs)
    const shed = streamsToShed(live, capacity, this.caughtUp.perSecond())
    if (shed.length === 0) return
    for (const { conn } of shed) this.shedding(conn, 'the server is behind on its streams; reconnect with your connection_id to resume')
    // What shedding costs (closing sockets, the commit of their positions) must not count as the next look's slowness: it measures afresh.
    this.delivered.reset()
    this.behindAt = -Infinity
  }

  /**
   * Disconnects a consumer the server cannot serve in time; it resumes from
   * where it was. It stops being served at once; its socket is closed a few
   * hundred a turn, so shedding thousands does not hold the loop.
   */
  private shedding(conn: Connection, reason: string): void {
    this.shed++
    conn.scheduled = false
    this.closingSinks.push([conn.sink, reason])
    if (this.closingSinks.length === 1) setImmediate(() => this.closeSinks())
    void this.detach(conn, null)
  }

  private closeSinks(): void {
    for (const [sink, reason] of this.closingSinks.splice(0, CLOSES_PER_TURN)) sink.close(reason)
    if (this.closingSinks.length > 0) setImmediate(() => this.closeSinks())
  }

  /** Replays the log from the stream's cursor toward the dispatcher, a batch per turn, then turns live. */
  private async catchUpStep(conn: Connection): Promise<void> {
    if (conn.pending.length === 0) {
      const upTo = this.dispatched
      if (conn.cursor >= upTo) {
        conn.live = true
        this.caughtUpWith(conn)
        return
      }
      if (conn.cursor < this.events.oldest() - 1) {
        // The log was trimmed past this stream: resuming it would skip events, so it ends and the client starts afresh.
        await this.detach(conn, 'the events this stream missed are no longer kept; reconnect for a new stream and backfill')
        return
      }
      const batch = await this.events.after(conn.cursor, CATCH_UP_BATCH)
      if (batch.length === 0) conn.cursor = upTo
      conn.pending = batch
      return
    }
    // As many events a turn as a live stream is sent: a resume must catch up faster than the log grows.
    let sent = 0
    for (let looked = 0; looked < CATCH_UP_STEP && conn.pending.length > 0 && sent < EVENTS_PER_TURN; looked++) {
      const event = conn.pending[0]
      // Past the dispatcher: the next batch reads it again, or it comes live.
      if (event.seq > this.dispatched || conn.closed) {
        conn.pending = []
        return
      }
      if (await this.concerns(conn, event)) {
        await this.deliver(conn, event)
        sent++
      }
      conn.cursor = event.seq
      conn.pending.shift()
      if (sent > 0 && conn.sink.whenReady() !== null) return
    }
  }

  /** Matches one event against every subscription of the stream and sends what matched, one frame per list. */
  private async deliver(conn: Connection, event: DomainEvent): Promise<void> {
    this.delivered.add(this.lanes.busyMs())
    if (!conn.live) this.caughtUp.add()
    forgetWhatChanged(conn, event)
    const viewer = (conn.viewer ??= await this.viewerOf(conn.stream))
    if (!viewer) {
      await this.detach(conn, 'the token was revoked')
      return
    }
    const frames = new Map<string, StreamDelivery>()
    for (const sub of conn.subs) {
      const match = await this.matcher.match(viewer, sub, event, conn.memo)
      if (!match) continue
      const key = `${sub.endpoint}:${sub.target ?? ''}`
      const frame = frames.get(key)
      if (frame) frame.subscriptionIds.push(sub.subscription_id)
      else frames.set(key, { ...match, connectionId: conn.stream.connection_id, subscriptionIds: [sub.subscription_id], viewer })
    }
    for (const frame of frames.values()) if (!conn.closed) await conn.sink.send(frame)
  }

  private async viewerOf(stream: UserStreamRow): Promise<Viewer | null> {
    const r = this.store.read
    const token = await r.tokens.get(stream.token_id)
    const user = token?.user_id === undefined ? null : await r.users.get(token.user_id)
    const app = token ? await r.apps.get(token.app_id) : null
    return token && user && app ? { token, user, app } : null
  }

  private async revoke(tokenId: number): Promise<void> {
    for (const conn of [...this.byId.values()].filter((c) => c.stream.token_id === tokenId)) {
      this.unregister(conn)
      conn.closed = true
      this.caughtUpWith(conn)
      conn.sink.close('the token was revoked')
    }
    await this.streams.removeForToken(tokenId)
  }

  /** Every event up to this one was handled for `conn`. */
  private cursorOf(conn: Connection): number {
    if (!conn.live) return conn.cursor
    return conn.queue.length > 0 ? conn.queue[0].seq - 1 : this.dispatched
  }

  private async detach(conn: Connection, reason: string | null): Promise<void> {
    if (conn.closed) return
    conn.closed = true
    this.caughtUpWith(conn)
    const cursor = this.cursorOf(conn)
    this.unregister(conn)
    if (reason) conn.sink.close(reason)
    await this.ended(conn.stream.connection_id, cursor)
  }

  /** `conn` no longer catches up (it turned live, or ended): its place goes to the next stream waiting for one. */
  private caughtUpWith(conn: Connection): void {
    if (!conn.catchingUp) return
    conn.catchingUp = false
    this.catchingUp--
    let next: Connection | undefined
    while ((next = this.resuming.shift()) !== undefined && next.closed);
    if (next) this.schedule(next)
  }

  /** Writes an ended stream's position, with every other ended in this turn of the loop. */
  private ended(connectionId: string, cursor: number): Promise<void> {
    this.ending.set(connectionId, cursor)
    const batch = (this.endingBatch ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      const ends = [...this.ending]
      this.ending.clear()
      this.endingBatch = null
      return this.streams.closeMany(ends).catch(warn)
    }))
    this.endedIn.set(connectionId, batch)
    void batch.then(() => {
      if (this.endedIn.get(connectionId) === batch) this.endedIn.delete(connectionId)
    })
    return batch
  }

  /** Saves the lowest position any connected stream is at, for `recover` after a crash. */
  private async saveCursor(): Promise<void> {
    let low = this.dispatched
    for (const conn of this.byId.values()) low = Math.min(low, this.cursorOf(conn))
    // Alongside others, the save is also this process's heartbeat.
    if (low === this.savedCursor && !(this.node.shared && Date.now() - this.savedAt >= HEARTBEAT_MS)) return
    this.savedCursor = low
    this.savedAt = Date.now()
    const name = this.cursorName
    await this.store
      .transact(async (tx) => {
        const row = await tx.log_cursors.one('name', name)
        if (row) tx.log_cursors.put({ ...row, seq: low, updated_at: isoNow() })
        else tx.log_cursors.insert({ name, seq: low, updated_at: isoNow() })
      })
      .catch(warn)
  }

  private register(conn: Connection): void {
    this.byId.set(conn.stream.connection_id, conn)
    addTo(this.byUser, conn.stream.user_id, conn)
    this.index(conn)
  }

  private unregister(conn: Connection): void {
    if (this.byId.get(conn.stream.connection_id) === conn) this.byId.delete(conn.stream.connection_id)
    removeFrom(this.byUser, conn.stream.user_id, conn)
    this.unindex(conn)
  }

  private index(conn: Connection): void {
    conn.threads = conn.subs.filter((s) => s.endpoint === 'posts/replies' && s.thread_id !== undefined).map((s) => s.thread_id as number)
    conn.channels = conn.subs.filter((s) => s.endpoint.startsWith('channels/') && s.target !== undefined).map((s) => s.target as number)
    for (const t of conn.threads) addTo(this.byThread, t, conn)
    for (const c of conn.channels) addTo(this.byChannel, c, conn)
  }

  private unindex(conn: Connection): void {
    for (const t of conn.threads) removeFrom(this.byThread, t, conn)
    for (const c of conn.channels) removeFrom(this.byChannel, c, conn)
  }
}

const warn = (err: unknown): void => {
  process.emitWarning(`svc: user streams: ${(err as Error).message}`)
}
