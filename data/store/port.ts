/**
 * The storage port. Services reach storage only through these interfaces, so
 * the embedded file store and the PostgreSQL store are interchangeable;
 * `test/data/store/contract.ts` states what any implementation must do.
 *
 * Reads are asynchronous (a database answers later). Writes happen only inside
 * `transact`: they are buffered, applied together at commit, and the promise
 * resolves once they are durable. Reads inside a transaction see the state
 * before that transaction's own writes. Absence is `null`, never an error.
 *
 * Commits are applied in the order they were asked for. A read (or the next
 * transaction) may already see a commit whose fsync is still under way; it
 * becomes durable no later than anything that read it, since the journal is
 * written in commit order.
 *
 * Domain events are part of a transaction: `tx.emit` adds a row to the
 * `event_log` table, whose id is the event's sequence number, so an event is
 * durable exactly when its change is. `onEvents` hands each committed
 * transaction's events on once durable, before `transact` resolves.
 */
import type { DomainEvents, EventName, EventRow } from '../model/event.js'
import type { Rows, TableName } from './tables.js'

export type Key = string | number

/** A window over ascending ids: strictly after `since`, strictly before `before`. */
export interface Range {
  since?: number
  before?: number
  limit: number
  /** `desc` (default) takes the newest ids nearest `before`; `asc` takes the oldest nearest `since`. */
  order?: 'asc' | 'desc'
}

export interface Row {
  readonly id: number
}

export interface TableReader<R extends Row> {
  get(id: number): Promise<R | null>
  /** Rows for the ids that exist, in the order asked. */
  getMany(ids: readonly number[]): Promise<R[]>
  /** The row a unique index maps `key` to. */
  one(index: string, key: Key): Promise<R | null>
  /** Ids under `key` in `index`, windowed; `desc` answers newest first. */
  ids(index: string, key: Key, range: Range): Promise<number[]>
  /** Like `ids`, over the union of several keys (a timeline of many authors). */
  idsAny(index: string, keys: readonly Key[], range: Range): Promise<number[]>
  count(index: string, key: Key): Promise<number>
  /** All ids of the table, windowed, optionally filtered by `match`. */
  scan(range: Range, match?: (row: R) => boolean): Promise<number[]>
  size(): Promise<number>
}

export interface TableWriter<R extends Row> extends TableReader<R> {
  /** Allocates the next id of the table and buffers the row. */
  insert(row: Omit<R, 'id'>): R
  /** Buffers a whole-row replacement. */
  put(row: R): R
  /** Buffers the removal of a row. */
  remove(id: number): void
  /** Buffers the removal of every row whose id is below `id` (one journal op, however many rows: trims the front of a log). */
  removeBelow(id: number): void
}

export type Readers = { readonly [K in TableName]: TableReader<Rows[K]> }
export type Tx = { readonly [K in TableName]: TableWriter<Rows[K]> } & {
  /**
   * Records a domain event in this transaction: an `event_log` row whose id
   * (the table's next id) is its sequence number. Kept only if the
   * transaction commits; listeners get it once it is durable.
   */
  emit<N extends EventName>(name: N, payload: DomainEvents[N]): void
}

/** Called with one committed transaction's events, in seq order. */
export type EventsListener = (events: readonly EventRow[]) => void

export interface StoreStats {
  rows: Record<string, number>
  journalBytes: number
  snapshots: number
  lastCompactionMs: number | null
}

/** The store at one commit, as `checkpoint` hands it over. */
export interface StoreCheckpoint {
  /** The folder the files are in. */
  dir: string
  /** Each file with the bytes of it that belong to this commit (the newest journal grows past them as commits go on). */
  files: { name: string; bytes: number }[]
  /** Each table's last id handed out: the event log's is the newest event this commit holds. */
  lastIds: Record<string, number>
}

export interface Store {
  readonly read: Readers
  /**
   * Runs `work` alone (transactions never interleave), applies its writes
   * atomically and resolves once they are durable. If `work` throws, nothing
   * it wrote is kept.
   */
  transact<T>(work: (tx: Tx) => Promise<T> | T): Promise<T>
  /**
   * Calls `listener` with the event rows of each committed transaction once
   * they are durable: strictly in seq order, each once, before that
   * transaction's `transact` resolves. A listener that throws is reported
   * (a process warning) and does not fail the commit. Answers the
   * unsubscribe function.
   */
  onEvents(listener: EventsListener): () => void
  /** Writes a snapshot and drops the journal it covers. */
  compact(): Promise<void>
  stats(): StoreStats
  /**
   * The embedded store only (absent on PostgreSQL, whose database has its own
   * tools): runs `work` at one commit, handing it the store's files that hold
   * every commit up to it. Writes wait while `work` runs: it should take hold
   * of the files (hard links), not copy them.
   */
  checkpoint?<T>(work: (point: StoreCheckpoint) => Promise<T>): Promise<T>
  /** Resolves when the store can serve reads and writes now; `unavailable` when it cannot (closed, its database unreachable). */
  ping(): Promise<void>
  close(): Promise<void>
}
