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
 * node's `onEvents` listeners. Reads outside transactions go to a pool and
 * never wait for the lock.
 */
import postgres, { type Sql } from 'postgres'
import { DomainError } from '../../errors.js'
import type { EventsListener, Readers, Row, Store, StoreStats, TableReader, Tx } from '../port.js'
import { schema, tableNames, type TableDef } from '../schema.js'
import { commitOps } from './pg-commit.js'
import { PgReader } from './pg-reader.js'
import { migratePostgres, requireCurrentPg, WRITE_LOCK } from './pg-schema.js'
import { PgTxState, pgTxOf } from './pg-tx.js'

export interface PostgresStoreOptions {
  /** A schema (namespace) to keep svc's tables in, made if missing; default `public`. Tests give each store its own. */
  schema?: string
  /** Create or upgrade svc's tables when they are missing or older (what `svc init` and `svc migrate` do); default: refuse. */
  migrate?: boolean
  /** Connections in the pool (default 10). */
  max?: number
}

/** `postgres://` and `postgresql://` addresses name a PostgreSQL store. */
export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//.test(url)

/** A connection that answers bigint columns (ids, counts) as numbers: ids stay below 2^53. */
export function connect(url: string, options: PostgresStoreOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    types: { bigint: { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) } },
    connection: options.schema ? { search_path: options.schema } : {},
  }) as unknown as Sql
}

/** The address without its password, for messages. */
export const redactUrl = (url: string): string => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')

export class PostgresStore implements Store {
  readonly read: Readers
  private chain: Promise<unknown> = Promise.resolve()
  private closed = false
  private readonly eventListeners = new Set<EventsListener>()

  private constructor(
    private readonly sql: Sql,
    private readonly rowCounts: Map<string, number>,
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
      if (options.migrate) await migratePostgres(sql)
      else await requireCurrentPg(sql)
      const counts = new Map<string, number>()
      for (const name of tableNames) {
        const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM ${sql(`svc_${name}`)}`
        counts.set(name, row.n)
      }
      return new PostgresStore(sql, counts)
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
        await sql`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`
        const counters = await sql<{ name: string; last_id: number }[]>`SELECT name, last_id FROM svc_counters`
        state = new PgTxState(sql, new Map(counters.map((c) => [c.name, c.last_id])))
        let answer: T
        try {
          answer = await work(pgTxOf(state))
        } finally {
          state.open = false
        }
        if (state.ops.length > 0) counted = await commitOps(sql, state.ops, state.lastIds)
        return answer
      })
      .catch((err: unknown) => {
        throw asStoreError(err)
      })
    if (counted) for (const [name, delta] of counted as Map<string, number>) this.rowCounts.set(name, (this.rowCounts.get(name) ?? 0) + delta)
    const events = (state as PgTxState | null)?.events ?? []
    if (events.length > 0) {
      for (const listener of [...this.eventListeners]) {
        try {
          listener(events)
        } catch (err) {
          process.emitWarning(`svc: event listener failed: ${(err as Error).message}`)
        }
      }
    }
    return result as T
  }

  onEvents(listener: EventsListener): () => void {
    this.eventListeners.add(listener)
    return () => this.eventListeners.delete(listener)
  }

  /** PostgreSQL keeps its own files compact (autovacuum): there is no journal to fold. */
  async compact(): Promise<void> {
    if (this.closed) throw new DomainError('unavailable', 'the store is closed')
  }

  stats(): StoreStats {
    return { rows: Object.fromEntries(this.rowCounts), journalBytes: 0, snapshots: 0, lastCompactionMs: null }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.chain
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
