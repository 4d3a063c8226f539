/**
 * The delivery of app streams. An app stream's queue is its cursor in the
 * event log: each connected consumer reads the log from its cursor (a batch
 * at a time, then waits for the next event), keeps what its app may see
 * (app-audience.ts), its object types and its filter allow, and writes it.
 * The log is the buffer, so a consumer that is away, slow, or outlived by a
 * restart loses nothing while its queue stays within its bound; past it the
 * oldest events are dropped and a connected consumer is told why and
 * disconnected. Queue positions are saved every second and at shutdown, and
 * the log keeps every event a queue still holds (`EventLog.holdFrom`).
 *
 * Where processes share the store, a queue belongs to the process its
 * consumer is connected to: a connect reads the position saved in the
 * stream's row (another process may have moved it), and only queues with a
 * consumer here are held to their bound and saved from here; a queue with
 * no consumer anywhere is held to its bound when one connects.
 */
import type { DomainEvent, DomainEvents } from '../model/event.js'
import { compileFilter, type FilterMatcher, type FilterVariables } from '../filters/filter-matcher.js'
import type { AppStreamObjectType, AppStreamRow } from '../model/app-stream.js'
import type { FilterRow } from '../model/filter.js'
import type { AppAudiences } from './app-audience.js'
import type { AppEventSource, AppStreamFacts, AppStreamMessage, AppStreamSink, ConnectOptions } from './app-stream-delivery.js'
import { AppMessages } from './app-stream-messages.js'
import type { AppStreamService } from './app-streams.js'
import type { NotificationRules } from './notifications.js'

interface Queue {
  cursor: number
  dropped: number
}

class Consumer {
  closed = false
  wake: (() => void) | null = null
  /** The highest warning level sent (0, 50 or 80 % full). */
  warned = 0
  types: ReadonlySet<AppStreamObjectType>
  matcher: FilterMatcher | null = null

  constructor(
    public stream: AppStreamRow,
    readonly sink: AppStreamSink,
    readonly queue: Queue,
    readonly autoDelete: boolean,
  ) {
    this.types = new Set(stream.object_types)
  }
}

const BATCH = 256
const WARN_AT = [50, 80] as const

const yieldToIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

const control = (type: string, message: string, extra: Record<string, unknown> = {}): AppStreamMessage => ({ control: { type, message, ...extra } })

export class AppStreamHub {
  private readonly queues = new Map<number, Queue>()
  /** Each stream as last stored, for the streams nobody reads. */
  private readonly rows = new Map<number, AppStreamRow>()
  private readonly consumers = new Map<number, Consumer>()
  private readonly messages: AppMessages
  private saved = new Map<number, string>()
  /** Streams whose consumer left here since the last save: their last position here is still to be written. */
  private readonly left = new Set<number>()
  private timer: NodeJS.Timeout | null = null
  private unfollow: (() => void) | null = null
  private release: (() => void) | null = null
  private saving: Promise<void> = Promise.resolve()

  constructor(
    private readonly events: AppEventSource,
    private readonly streams: AppStreamService,
    private readonly audiences: AppAudiences,
    notifications: NotificationRules,
    private readonly filters: { byId(id: number): Promise<FilterRow | null> },
    /** How many events a queue holds before its oldest are dropped. */
    readonly queueLimit: number,
    /** Other processes serve consumers of the same streams. */
    private readonly shared = false,
  ) {
    this.messages = new AppMessages(audiences, notifications)
  }

  /** Loads every stream's queue and starts following the log. */
  async start(): Promise<void> {
    // A token revoked while the server was down (or as it went down) took its streams with it.
    await this.streams.removeOrphans()
    for (const stream of await this.streams.all()) this.track(stream)
    this.release = this.events.holdFrom(() => this.floor())
    this.unfollow = this.events.onAny((event) => this.saw(event))
    this.timer = setInterval(() => void this.tick(), 1000)
    this.timer.unref()
  }

  /** Disconnects every consumer and saves where each queue stands. */
  async stop(): Promise<void> {
    this.unfollow?.()
    this.unfollow = null
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    this.disconnectAll('the server is shutting down; reconnect to resume where you were')
    await this.save()
    this.release?.()
  }

  /** Disconnects every consumer with `reason`; their queues stay where they were, for the next connect. */
  disconnectAll(reason: string): void {
    for (const consumer of [...this.consumers.values()]) this.end(consumer, control('disconnect', reason))
  }

  /**
   * Connects a consumer to `stream` (a second one replaces the first, which
   * is told why). `purge` empties the queue first; a queue that overflowed
   * while nobody was connected says so in its first message.
   */
  connect(stream: AppStreamRow, options: ConnectOptions, sink: AppStreamSink): void {
    const earlier = this.consumers.get(stream.id)
    if (earlier) this.end(earlier, control('disconnect', 'another consumer connected to this stream'))
    const queue = this.track(stream, this.shared && !earlier)
    if (options.purge) queue.cursor = this.events.head()
    const consumer = new Consumer(stream, sink, queue, options.autoDelete === true)
    this.consumers.set(stream.id, consumer)
    void this.run(consumer)
  }

  /** The transport's consumer went away. */
  async disconnected(streamId: number, sink: AppStreamSink): Promise<void> {
    const consumer = this.consumers.get(streamId)
    if (!consumer || consumer.sink !== sink) return
    this.end(consumer, null)
    if (consumer.autoDelete) await this.streams.removeById(streamId).catch(warn)
    // The consumer may come back on another process: it finds its position saved, not a second old.
    else if (this.shared) await this.save()
  }

  /** Every stream with its consumer and queue (the console). */
  facts(): AppStreamFacts[] {
    const head = this.events.head()
    return [...this.queues.entries()].map(([id, queue]) => {
      const consumer = this.consumers.get(id)
      return {
        stream: consumer?.stream ?? (this.rows.get(id) as AppStreamRow),
        connected: consumer !== undefined,
        queueDepth: Math.max(0, head - queue.cursor),
        queueLimit: this.queueLimit,
      }
    })
  }

  /**
   * The queue of `stream`, from its row the first time; with `fromRow` (the
   * row was just read) also when the row is further on: another process
   * moved it. A queue only moves forward, and this process's own position
   * may be newer than the one it saved last.
   */
  private track(stream: AppStreamRow, fromRow = false): Queue {
    this.rows.set(stream.id, stream)
    let queue = this.queues.get(stream.id)
    if (!queue || (fromRow && stream.cursor > queue.cursor)) this.queues.set(stream.id, (queue = { cursor: stream.cursor, dropped: stream.dropped }))
    return queue
  }

  /** The lowest cursor of any queue: the log keeps everything above it. */
  private floor(): number {
    let low = this.events.head()
    for (const queue of this.queues.values()) low = Math.min(low, queue.cursor)
    return low
  }

  private saw(event: DomainEvent): void {
    this.audiences.saw(event)
    switch (event.name) {
      case 'app_stream.created':
        this.track((event.payload as DomainEvents['app_stream.created']).stream)
        break
      case 'app_stream.updated':
        void this.updated((event.payload as DomainEvents['app_stream.updated']).stream)
        break
      case 'app_stream.deleted': {
        const { stream } = event.payload as DomainEvents['app_stream.deleted']
        const consumer = this.consumers.get(stream.id)
        if (consumer) this.end(consumer, control('disconnect', 'the stream was deleted'))
        this.queues.delete(stream.id)
        this.rows.delete(stream.id)
        break
      }
      case 'token.deauthorized':
        // The streams of an app token go with it.
        if ((event.payload as DomainEvents['token.deauthorized']).token.kind === 'app') void this.streams.removeOrphans().catch(warn)
        break
      case 'filter.updated':
      case 'filter.deleted': {
        const { filter } = event.payload as DomainEvents['filter.updated']
        for (const consumer of this.consumers.values()) {
          if (consumer.stream.filter_id === filter.id) consumer.matcher = event.name === 'filter.updated' ? compileFilter(filter) : null
        }
        break
      }
    }
    for (const consumer of this.consumers.values()) {
      const wake = consumer.wake
      consumer.wake = null
      wake?.()
    }
  }

  private async updated(stream: AppStreamRow): Promise<void> {
    this.rows.set(stream.id, stream)
    const consumer = this.consumers.get(stream.id)
    if (!consumer) return
    const filter = stream.filter_id === undefined ? null : await this.filters.byId(stream.filter_id)
    consumer.stream = stream
    consumer.types = new Set(stream.object_types)
    consumer.matcher = filter ? compileFilter(filter) : null
  }

  private async run(consumer: Consumer): Promise<void> {
    try {
      const { stream, queue } = consumer
      const filter = stream.filter_id === undefined ? null : await this.filters.byId(stream.filter_id)
      consumer.matcher = filter ? compileFilter(filter) : null
      // A queue that grew past its bound while nobody read it is cut to it now, and the consumer told.
      this.overflow(queue, this.events.head())
      if (queue.dropped > 0) {
        await consumer.sink.write(
          control('overflow', `the queue overflowed while no consumer was connected: the oldest ${queue.dropped} events were dropped`, {
            dropped: queue.dropped,
          }),
        )
        queue.dropped = 0
      }
      while (!consumer.closed) {
        if (!(await this.withinBound(consumer))) return
        const batch = await this.events.after(queue.cursor, BATCH)
        if (batch.length === 0) {
          // Waits for the next event, unless one became durable while the log was read.
          if (this.events.head() <= queue.cursor) await new Promise<void>((resolve) => (consumer.wake = resolve))
          continue
        }
        // Who authorized the app is read once a batch (`$authorized_userids`).
        const vars: FilterVariables = { authorizedUserIds: await this.audiences.authorizedIds(consumer.stream.app_id) }
        for (const event of batch) {
          if (consumer.closed) return
          await this.deliver(consumer, event, vars)
          queue.cursor = event.seq
        }
        await yieldToIo()
      }
    } catch (err) {
      warn(err)
      this.end(consumer, control('disconnect', 'the stream failed; reconnect to resume where you were'))
    }
  }

  /** Warns as the queue fills; past its bound drops the oldest and disconnects. Answers whether the consumer may go on. */
  private async withinBound(consumer: Consumer): Promise<boolean> {
    const { queue } = consumer
    const head = this.events.head()
    const depth = head - queue.cursor
    if (depth > this.queueLimit) {
      this.overflow(queue, head)
      this.end(
        consumer,
        control(
          'disconnect',
          `the queue overflowed: the consumer fell more than ${this.queueLimit} events behind and the oldest ${queue.dropped} were dropped`,
          { dropped: queue.dropped },
        ),
      )
      queue.dropped = 0
      return false
    }
    // An event the log no longer holds cannot be sent: the log was trimmed by count past a queue it should have kept.
    const oldest = this.events.oldest()
    if (queue.cursor < oldest - 1) {
      const lost = oldest - 1 - queue.cursor
      queue.cursor = oldest - 1
      await consumer.sink.write(
        control('overflow', `the event log no longer held the oldest ${lost} events of this queue; they were dropped`, { dropped: lost }),
      )
    }
    const percent = Math.floor((depth * 100) / this.queueLimit)
    const level = [...WARN_AT].reverse().find((at) => percent >= at) ?? 0
    if (level > consumer.warned) {
      consumer.warned = level
      await consumer.sink.write(
        control(
          'warning',
          `the queue is ${percent}% full (${depth} of ${this.queueLimit} events); at 100% the oldest are dropped and the stream is disconnected`,
          {
            queue_depth: depth,
            queue_limit: this.queueLimit,
          },
        ),
      )
    } else if (percent < 25) consumer.warned = 0
    return true
  }

  private overflow(queue: Queue, head: number): void {
    const cut = head - this.queueLimit
    if (queue.cursor >= cut) return
    queue.dropped += cut - queue.cursor
    queue.cursor = cut
  }

  /** Writes what `event` holds for the consumer: each item's shared message its types and its filter let through. */
  private async deliver(consumer: Consumer, event: DomainEvent, vars: FilterVariables): Promise<void> {
    const found = this.messages.items(event)
    const items = Array.isArray(found) ? found : await found
    for (let i = 0; i < items.length; i++) {
      if (!consumer.types.has(items[i].item.meta.type)) continue
      const made = this.messages.message(consumer.stream.app_id, consumer.sink, event.seq, i, items[i])
      const message = made instanceof Promise ? await made : made
      if (message === null || (consumer.matcher && !consumer.matcher(message, vars)) || consumer.closed) continue
      const writing = consumer.sink.write(message)
      if (writing) await writing
    }
  }

  private end(consumer: Consumer, last: AppStreamMessage | null): void {
    if (consumer.closed) return
    consumer.closed = true
    if (this.consumers.get(consumer.stream.id) === consumer) this.consumers.delete(consumer.stream.id)
    this.left.add(consumer.stream.id)
    consumer.wake?.()
    consumer.sink.close(last)
  }

  /** Every second: queues nobody reads are held to their bound, and positions are saved. */
  private async tick(): Promise<void> {
    const head = this.events.head()
    if (!this.shared) for (const [id, queue] of this.queues) if (!this.consumers.has(id)) this.overflow(queue, head)
    await this.save()
  }

  private save(): Promise<void> {
    this.saving = this.saving
      .then(async () => {
        const changed = new Map<number, Queue>()
        const left = [...this.left]
        this.left.clear()
        for (const [id, queue] of this.queues) {
          // Another process's consumer may be moving this queue: only what moved here is written from here.
          if (this.shared && !this.consumers.has(id) && !left.includes(id)) continue
          const seen = `${queue.cursor}:${queue.dropped}`
          if (this.saved.get(id) !== seen) changed.set(id, { ...queue })
        }
        await this.streams.saveQueues(changed)
        const next = new Map<number, string>()
        for (const [id, queue] of changed) next.set(id, `${queue.cursor}:${queue.dropped}`)
        for (const [id, seen] of this.saved) if (!next.has(id) && this.queues.has(id)) next.set(id, seen)
        this.saved = next
      })
      .catch(warn)
    return this.saving
  }
}

const warn = (err: unknown): void => {
  process.emitWarning(`svc: app streams: ${(err as Error).message}`)
}
