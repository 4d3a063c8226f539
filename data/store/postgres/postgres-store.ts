/**
 * The PostgreSQL store: the same port as the file store, over a database
 * that several svc nodes may share. A transaction:
 *
 *   BEGIN; take the write lock (an advisory lock: writers of every node
 *   commit one at a time, in one order); read the id counters; run the work
 *   (its reads see the database as of then, its writes are buffered); write
 *   rows, index entries and counters; COMMIT.
 *
 * A commit is acknowledged once PostgreSQL has it durable. Its events (rows
 * of `svc_event_log`, written in the same transaction) then go to this
 * node's `onEvents` listeners. Every other node (a server, or a CLI command
 * run beside it) learns of them through a NOTIFY sent with the commit (with
 * a bus, a Redis message sent after it; at worst within `POLL_MS`, should a
 * message be lost) and reads them from the log. Event ids are handed out
 * under the write lock and a failed transaction spends none, so the log has
 * no gaps and a node hands on exactly the ids after the last it handed on,
 * in order. Reads outside transactions go to a pool and never wait for the
 * lock.
 */
import postgres, { type Sql } from 'postgres'
import type { Bell } from '../../bus/bus.js'
import { DomainError } from '../../errors.js'
import type { EventRow } from '../../model/event.js'
import type { EventsListener, Readers, Row, Store, StoreStats, TableReader, Tx } from '../port.js'
import { schema, tableNames, type TableDef } from '../schema.js'
import { redactUrl } from '../../redact-url.js'
import { commitOps } from './pg-commit.js'
import { freezeRow, PgReader } from './pg-reader.js'
import { migratePostgres, pgFormat, requireCurrentPg, WRITE_LOCK } from './pg-schema.js'
import { PgTxState, pgTxOf } from './pg-tx.js'

/** Where commits that emitted events say so; the payload is the last event id. */
const EVENTS_CHANNEL = 'svc_events'

/** How often the log is read for events no message announced (one lost on the way). */
const POLL_MS = 2_000

export interface PostgresStoreOptions {
  /** A schema (namespace) to keep svc's tables in, made if missing; default `public`. Tests give each store its own. */
  schema?: string
  /** Create or upgrade svc's tables when they are missing or older (what `svc init` and `svc migrate` do); default: refuse. */
  migrate?: boolean
  /** Create svc's tables in a database that has none yet (what a first `svc serve` does), but upgrade nothing. */
  create?: boolean
  /** Hear other nodes' commits on the bus (Redis) rather than through PostgreSQL's LISTEN. */
  bell?: Bell
  /** How often the log is read for events no message announced (default 2 s). */
  pollMs?: number
  /** Connections in the pool (default 10). */
  max?: number
}

/** A connection that answers bigint columns (ids, counts) as numbers: ids stay below 2^53. */
export function connect(url: string, options: PostgresStoreOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    types: { bigint: { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) } },
    connection: options.schema ? { search_path: options.schema } : {},
  }) as unknown as Sql
}

export class PostgresStore implements Store {
  readonly read: Readers
  private chain: Promise<unknown> = Promise.resolve()
  private closed = false
  private readonly eventListeners = new Set<EventsListener>()
  private unlisten: (() => Promise<void>) | null = null
  private poller: NodeJS.Timeout | null = null
  private bell: Bell | null = null

  private constructor(
    private readonly sql: Sql,
    private readonly rowCounts: Map<string, number>,
    /** The id of the last event handed to this node's listeners. */
    private lastDelivered: number,
  ) {
    const read: Record<string, TableReader<Row>> = {}
    for (const name of tableNames) read[name] = new PgReader(sql, name, schema[name] as TableDef<Row>)
    this.read = read as unknown as Readers
  }

  /** Connects to the database at `url`; throws `unavailable` when it cannot be reached or holds an older schema. */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const sql = connect(url, options)
    try {
      if (options.schema) await sql`CREATE SCHEMA IF NOT EXISTS ${sql(options.schema)}`
      if (options.migrate || (options.create && (await pgFormat(sql)) === null)) await migratePostgres(sql)
      else await requireCurrentPg(sql)
      const counts = new Map<string, number>()
      for (const name of tableNames) {
        const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM ${sql(`svc_${name}`)}`
        counts.set(name, row.n)
      }
      const [events] = await sql<{ last_id: number }[]>`SELECT last_id FROM svc_counters WHERE name = 'event_log'`
      const store = new PostgresStore(sql, counts, events.last_id)
      if (options.bell) {
        store.bell = options.bell
        store.unlisten = await options.bell.listen(() => void store.catchUp())
      } else {
        const listening = await sql.listen(EVENTS_CHANNEL, () => void store.catchUp())
        store.unlisten = () => listening.unlisten()
      }
      store.poller = setInterval(() => void store.catchUp(), options.pollMs ?? POLL_MS)
      store.poller.unref()
      return store
    } catch (err) {
      await sql.end({ timeout: 1 })
      if (err instanceof DomainError) throw err
      throw new DomainError('unavailable', `the PostgreSQL store at ${redactUrl(url)} cannot be used: ${(err as Error).message}`, { cause: err })
    }
  }

  transact<T>(work: (tx: Tx) => Promise<T> | T): Promise<T> {
    if (this.closed) return Promise.reject(new DomainError('unavailable', 'the store is closed'))
    // One at a time in this process too, so transactions asked in order commit in that order.
    const run = this.chain.then(() => this.runOne(work))
    this.chain = run.catch(() => undefined)
    return run
  }

  private async runOne<T>(work: (tx: Tx) => Promise<T> | T): Promise<T> {
    let state: PgTxState | null = null
    let counted: Map<string, number> | null = null
    const result = await this.sql
      .begin(async (sql) => {
        // Sent together: the counters are read once the lock is granted, in one round trip.
        const locked = sql`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`.execute()
        // If the lock fails, so does the read after it, which is what is reported.
        locked.catch(() => undefined)
        const counters = await sql<{ name: string; last_id: number }[]>`SELECT name, last_id FROM svc_counters`
        await locked
        state = new PgTxState(sql, new Map(counters.map((c) => [c.name, c.last_id])))
        let answer: T
        try {
          answer = await work(pgTxOf(state))
        } finally {
          state.open = false
        }
        if (state.ops.length > 0) counted = await commitOps(sql, state.ops, state.lastIds)
        // Sent when (and only if) the transaction commits.
        if (state.events.length > 0) await sql`SELECT pg_notify(${EVENTS_CHANNEL}, ${String(state.events[state.events.length - 1].id)})`
        return answer
      })
      .catch((err: unknown) => {
        throw asStoreError(err)
      })
    if (counted) for (const [name, delta] of counted as Map<string, number>) this.rowCounts.set(name, (this.rowCounts.get(name) ?? 0) + delta)
    const events = (state as PgTxState | null)?.events ?? []
    if (events.length > 0) {
      this.bell?.ring(String(events[events.length - 1].id))
      // Another node's events committed before these and not yet read must go first.
      if (events[0].id > this.lastDelivered + 1) await this.catchUp()
      this.deliver(events)
    }
    return result as T
  }

  /** Hands on the events of other nodes' commits, read from the log. */
  private async catchUp(): Promise<void> {
    if (this.closed) return
    try {
      const rows = await this.sql<{ row: EventRow }[]>`SELECT row FROM svc_event_log WHERE id > ${this.lastDelivered} ORDER BY id`
      this.deliver(rows.map((r) => freezeRow(r.row)))
    } catch (err) {
      // The next notification (or this node's next commit) reads them again: nothing is skipped.
      if (!this.closed) process.emitWarning(`svc: could not read new events from PostgreSQL: ${(err as Error).message}`)
    }
  }

  /** Hands on, in order, the events after the last one handed on; earlier ones were handed on already. */
  private deliver(rows: readonly EventRow[]): void {
    const fresh = rows.filter((r) => r.id > this.lastDelivered)
    if (fresh.length === 0) return
    this.lastDelivered = fresh[fresh.length - 1].id
    for (const listener of [...this.eventListeners]) {
      try {
        listener(fresh)
      } catch (err) {
        process.emitWarning(`svc: event listener failed: ${(err as Error).message}`)
      }
    }
  }

  onEvents(listener: EventsListener): () => void {
    this.eventListeners.add(listener)
    return () => this.eventListeners.delete(listener)
  }

  /** PostgreSQL keeps its own files compact (autovacuum): there is no journal to fold. */
  async compact(): Promise<void> {
    if (this.closed) throw new DomainError('unavailable', 'the store is closed')
  }

  async ping(): Promise<void> {
    if (this.closed) throw new DomainError('unavailable', 'the store is closed')
    try {
      await this.sql`SELECT 1`
    } catch (err) {
      throw asStoreError(err)
    }
  }

  stats(): StoreStats {
    return { rows: Object.fromEntries(this.rowCounts), journalBytes: 0, snapshots: 0, lastCompactionMs: null }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    if (this.poller) clearInterval(this.poller)
    await this.chain
    await this.unlisten?.().catch(() => undefined)
    await this.sql.end({ timeout: 5 })
  }
}

/** A domain error stays as it is; a lost connection or a database error is `unavailable`, never a crash. */
function asStoreError(err: unknown): unknown {
  if (err instanceof DomainError) return err
  const pg = err as { code?: string; message?: string }
  // Errors the work threw itself (not the database's) go back unchanged.
  if (typeof pg.code !== 'string' || !/^([0-9A-Z]{5}|E[A-Z]+|CONNECT.*|CONNECTION.*)$/.test(pg.code)) return err
  return new DomainError('unavailable', `the PostgreSQL store failed: ${pg.message ?? String(err)}`, { cause: err })
}
