/**
 * The durable, numbered event log. Services emit inside their transactions
 * (`tx.emit`); the store keeps each event as an `event_log` row in the same
 * journal line as its change and hands it here once durable. Listeners (user
 * streams, app streams, the console) get events in seq order, each once, and
 * before the call that caused them returns; a client that lost its stream
 * reads what it missed with `after`, as long as the log still holds it.
 *
 * The log is trimmed from the front, by age and by count, every minute.
 */
import type { EventsListener, Store, TableReader } from '../store/port.js'
import type { DomainEvent, EventName, EventRow } from '../model/event.js'

export interface EventLogOptions {
  /** Events younger than this are kept (clients resume within about 600 s). */
  retention_seconds: number
  /** At most this many events are kept. */
  max_events: number
}

type Listener<N extends EventName> = (event: DomainEvent<N>) => void
type AnyListener = (event: DomainEvent) => void

/** How often `start` trims the log. */
export const TRIM_INTERVAL_MS = 60_000

/** Rows read at a time while looking for the first event young enough to keep. */
const AGE_CHUNK = 1000

/** The first seq (up to `head`) of an event stamped at or after `since` (ms): everything below it is too old. Reads only what goes, and one chunk. */
async function ageCut(table: TableReader<EventRow>, since: number, head: number): Promise<number> {
  let after = 0
  for (;;) {
    const ids = await table.scan({ since: after, before: head + 1, limit: AGE_CHUNK, order: 'asc' })
    if (ids.length === 0) return head
    for (const row of await table.getMany(ids)) if (row.at >= since) return row.id
    after = ids[ids.length - 1]
  }
}

const eventOf = (row: EventRow): DomainEvent => ({ seq: row.id, name: row.name, at: row.at, payload: row.payload }) as DomainEvent

export class EventLog {
  private readonly listeners = new Map<EventName, Set<Listener<EventName>>>()
  private readonly any = new Set<AnyListener>()
  private newest = 0
  /** The smallest durable seq still kept; `null` while the log holds none. */
  private first: number | null = null
  private timer: NodeJS.Timeout | null = null
  private trimming: Promise<number> | null = null
  private readonly holds = new Set<() => number>()

  private constructor(
    private readonly store: Store,
    private readonly options: EventLogOptions,
  ) {
    store.onEvents(this.deliver)
  }

  /**
   * The event log of `store`, which must have no transaction under way yet:
   * what its `event_log` table holds then is durable, and gives `head` and
   * `oldest` their starting values.
   */
  static async open(store: Store, options: EventLogOptions): Promise<EventLog> {
    const log = new EventLog(store, options)
    const [newest] = await store.read.event_log.scan({ limit: 1 })
    const [oldest] = await store.read.event_log.scan({ limit: 1, order: 'asc' })
    if (newest !== undefined && newest > log.newest) log.newest = newest
    if (oldest !== undefined && (log.first === null || oldest < log.first)) log.first = oldest
    return log
  }

  /** Subscribes to one event; answers the unsubscribe function. */
  on<N extends EventName>(name: N, listener: Listener<N>): () => void {
    let set = this.listeners.get(name)
    if (!set) this.listeners.set(name, (set = new Set()))
    set.add(listener as Listener<EventName>)
    return () => set.delete(listener as Listener<EventName>)
  }

  /** Subscribes to every event; answers the unsubscribe function. */
  onAny(listener: AnyListener): () => void {
    this.any.add(listener)
    return () => this.any.delete(listener)
  }

  /**
   * Keeps every event above `floor()` from being trimmed (a reader's queue,
   * such as an app stream's, that must survive until its consumer returns);
   * the reader bounds how far behind its floor may fall. Answers the release.
   */
  holdFrom(floor: () => number): () => void {
    this.holds.add(floor)
    return () => this.holds.delete(floor)
  }

  /** The seq of the newest durable event; 0 when there has been none. */
  head(): number {
    return this.newest
  }

  /** The smallest seq the log still holds; `head() + 1` when it holds none. */
  oldest(): number {
    return this.first ?? this.newest + 1
  }

  /** Durable events with a seq above `seq`, oldest first, at most `limit`. */
  async after(seq: number, limit: number): Promise<DomainEvent[]> {
    // Rows of a commit whose fsync is under way are in the table already: stop at the head.
    const ids = await this.store.read.event_log.scan({ since: seq, before: this.newest + 1, limit, order: 'asc' })
    return (await this.store.read.event_log.getMany(ids)).map(eventOf)
  }

  /**
   * Removes the events older than the retention (at `now`, ms) and the
   * oldest ones beyond the maximum count, in one transaction; answers how
   * many went. Events a hold still needs are kept (`holdFrom`). The newest event is always kept: `head` is read back from the
   * log when the store reopens, and sequence numbers must not seem to go back.
   */
  trim(now: number = Date.now()): Promise<number> {
    const run = async (): Promise<number> => {
      const { gone, next } = await this.store.transact(async (tx) => {
        const table = tx.event_log
        const head = this.newest
        if (head === 0) return { gone: 0, next: null }
        let cut = await ageCut(table, now - this.options.retention_seconds * 1000, head)
        const beyond = (await table.size()) - this.options.max_events
        if (beyond > 0) {
          const oldest = await table.scan({ limit: beyond, order: 'asc' })
          cut = Math.max(cut, oldest[oldest.length - 1] + 1)
        }
        cut = Math.min(cut, head)
        for (const floor of this.holds) cut = Math.min(cut, floor() + 1)
        const removed = (await table.scan({ before: cut, limit: Number.MAX_SAFE_INTEGER, order: 'asc' })).length
        if (removed === 0) return { gone: 0, next: null }
        table.removeBelow(cut)
        const [kept] = await table.scan({ since: cut - 1, limit: 1, order: 'asc' })
        return { gone: removed, next: kept ?? null }
      })
      if (next !== null) this.first = next
      return gone
    }
    // One trim at a time: a second one would only find what the first left.
    const trimming = (this.trimming ?? Promise.resolve(0)).catch(() => 0).then(run)
    this.trimming = trimming
    return trimming.finally(() => {
      if (this.trimming === trimming) this.trimming = null
    })
  }

  /** Trims the log now and then (every minute) until `stop`; the timer does not keep the process alive. */
  start(): void {
    if (this.timer) return
    this.timer = setInterval(() => {
      if (this.trimming) return
      this.trim().catch((err: unknown) => process.emitWarning(`svc: trimming the event log failed: ${(err as Error).message}`))
    }, TRIM_INTERVAL_MS)
    this.timer.unref()
  }

  /** Stops the periodic trim (a trim under way finishes). */
  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  /** Hands each durable event to its listeners; one that throws is reported and never reaches the writer. */
  private readonly deliver: EventsListener = (rows) => {
    for (const row of rows) {
      this.newest = row.id
      this.first ??= row.id
      const event = eventOf(row)
      for (const listener of [...(this.listeners.get(event.name) ?? []), ...this.any]) {
        try {
          ;(listener as AnyListener)(event)
        } catch (err) {
          process.emitWarning(`svc: listener for ${event.name} failed: ${(err as Error).message}`)
        }
      }
    }
  }
}
