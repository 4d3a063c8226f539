/**
 * The port's table reader over PostgreSQL: every call is one query, answered
 * from the rows table's primary key or the index entries' B-tree (a window
 * of ids under a key is a range scan of (index_name, key, id)). Rows come
 * back frozen, as the file store's do.
 *
 * `get`, `one` and `count` asked in the same turn (a page of posts viewed
 * side by side asks each post's author, counts and stars at once) go as one
 * query per kind (DataLoader's batching; nothing is cached between calls).
 */
import DataLoader from 'dataloader'
import type { Sql, TransactionSql } from 'postgres'
import type { Key, Range, Row, TableReader } from '../port.js'
import type { TableDef } from '../schema.js'
import { encodeKey, keysTable, rowsTable } from './pg-names.js'

type Conn = Sql | TransactionSql

/** Rows read while scanning with a filter, per query: at most this many, starting from twice the rows wanted. */
const SCAN_BATCH = 1000

export const freezeRow = <R>(row: R): R => {
  const freeze = (value: unknown): void => {
    if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return
    Object.freeze(value)
    for (const inner of Object.values(value)) freeze(inner)
  }
  freeze(row)
  return row
}

/** LIMIT of a window: the port's limit may be unbounded (MAX_SAFE_INTEGER). */
const limitOf = (range: Range): number | null => (Number.isSafeInteger(range.limit) && range.limit < 2 ** 31 ? Math.max(0, range.limit) : null)

const batched = <K, V>(load: (keys: readonly K[]) => Promise<V[]>): DataLoader<K, V> => new DataLoader(load, { cache: false })

export class PgReader<R extends Row> implements TableReader<R> {
  private readonly byId = batched<number, R | null>(async (ids) => {
    const found = await this.sql<{ id: number; row: R }[]>`SELECT id, row FROM ${this.rows} WHERE id = ANY(${this.sql.array([...ids])}::bigint[])`
    const byId = new Map(found.map((f) => [f.id, freezeRow(f.row)]))
    return ids.map((id) => byId.get(id) ?? null)
  })
  private readonly unique = new Map<string, DataLoader<string, R | null>>()
  private readonly counts = new Map<string, DataLoader<string, number>>()

  constructor(
    protected readonly sql: Conn,
    readonly name: string,
    protected readonly def: TableDef<R>,
  ) {}

  /** The loader of `index`'s rows by key: the row of the lowest id under each. */
  private oneLoader(index: string): DataLoader<string, R | null> {
    let loader = this.unique.get(index)
    if (!loader) {
      loader = batched(async (keys) => {
        const found = await this.sql<{ key: string; row: R }[]>`
          SELECT DISTINCT ON (k.key) k.key, r.row FROM ${this.keys} k JOIN ${this.rows} r ON r.id = k.id
          WHERE k.index_name = ${index} AND k.key = ANY(${this.sql.array([...keys])}::text[]) ORDER BY k.key, k.id`
        const byKey = new Map(found.map((f) => [f.key, freezeRow(f.row)]))
        return keys.map((key) => byKey.get(key) ?? null)
      })
      this.unique.set(index, loader)
    }
    return loader
  }

  private countLoader(index: string): DataLoader<string, number> {
    let loader = this.counts.get(index)
    if (!loader) {
      loader = batched(async (keys) => {
        const found = await this.sql<{ key: string; n: number }[]>`
          SELECT key, count(*)::int AS n FROM ${this.keys} WHERE index_name = ${index} AND key = ANY(${this.sql.array([...keys])}::text[]) GROUP BY key`
        const byKey = new Map(found.map((f) => [f.key, f.n]))
        return keys.map((key) => byKey.get(key) ?? 0)
      })
      this.counts.set(index, loader)
    }
    return loader
  }

  private get rows() {
    return this.sql(rowsTable(this.name))
  }

  private get keys() {
    return this.sql(keysTable(this.name))
  }

  private index(name: string): string {
    if (!Object.hasOwn(this.def, name)) throw new Error(`${this.name} has no index ${name}`)
    return name
  }

  /** The WHERE and ORDER BY of an id window over column `id`. */
  private window(range: Range) {
    const sql = this.sql
    const since = range.since === undefined ? sql`` : sql`AND id > ${range.since}`
    const before = range.before === undefined ? sql`` : sql`AND id < ${range.before}`
    const order = range.order === 'asc' ? sql`ORDER BY id ASC` : sql`ORDER BY id DESC`
    const limit = limitOf(range)
    return sql`${since} ${before} ${order} ${limit === null ? sql`` : sql`LIMIT ${limit}`}`
  }

  async get(id: number): Promise<R | null> {
    return this.byId.load(id)
  }

  async getMany(ids: readonly number[]): Promise<R[]> {
    if (ids.length === 0) return []
    const found = await this.sql<{ id: number; row: R }[]>`SELECT id, row FROM ${this.rows} WHERE id = ANY(${this.sql.array([...ids])}::bigint[])`
    const byId = new Map(found.map((f) => [f.id, f.row]))
    const rows: R[] = []
    for (const id of ids) {
      const row = byId.get(id)
      if (row) rows.push(freezeRow(row))
    }
    return rows
  }

  async one(index: string, key: Key): Promise<R | null> {
    return this.oneLoader(this.index(index)).load(encodeKey(key))
  }

  async ids(index: string, key: Key, range: Range): Promise<number[]> {
    const found = await this.sql<{ id: number }[]>`
      SELECT id FROM ${this.keys} WHERE index_name = ${this.index(index)} AND key = ${encodeKey(key)} ${this.window(range)}`
    return found.map((f) => f.id)
  }

  /**
   * The window of each key is read on its own from the B-tree (at most
   * `limit` entries each, however long that key's history), then merged:
   * a timeline of a hundred authors reads a few thousand entries, not every
   * post they ever made.
   */
  async idsAny(index: string, keys: readonly Key[], range: Range): Promise<number[]> {
    if (keys.length === 0) return []
    const sql = this.sql
    const order = range.order === 'asc' ? sql`ORDER BY id ASC` : sql`ORDER BY id DESC`
    const limit = limitOf(range)
    const found = await sql<{ id: number }[]>`
      SELECT DISTINCT top.id FROM unnest(${sql.array([...new Set(keys.map(encodeKey))])}::text[]) AS k(key)
      CROSS JOIN LATERAL (SELECT id FROM ${this.keys} WHERE index_name = ${this.index(index)} AND key = k.key ${this.window(range)}) AS top
      ${order} ${limit === null ? sql`` : sql`LIMIT ${limit}`}`
    return found.map((f) => f.id)
  }

  async count(index: string, key: Key): Promise<number> {
    return this.countLoader(this.index(index)).load(encodeKey(key))
  }

  async scan(range: Range, match?: (row: R) => boolean): Promise<number[]> {
    if (!match) {
      const found = await this.sql<{ id: number }[]>`SELECT id FROM ${this.rows} WHERE true ${this.window(range)}`
      return found.map((f) => f.id)
    }
    // The filter is the caller's code: rows are read a batch at a time, in window order, until enough match.
    const want = range.limit
    const ids: number[] = []
    let window: Range = { ...range, limit: Math.min(SCAN_BATCH, Math.max(50, 2 * want)) }
    while (ids.length < want) {
      const found = await this.sql<{ id: number; row: R }[]>`SELECT id, row FROM ${this.rows} WHERE true ${this.window(window)}`
      for (const { id, row } of found) {
        if (ids.length < want && match(freezeRow(row))) ids.push(id)
      }
      if (found.length < window.limit) break
      const last = found[found.length - 1].id
      const next = Math.min(SCAN_BATCH, 2 * window.limit)
      window = range.order === 'asc' ? { ...window, since: last, limit: next } : { ...window, before: last, limit: next }
    }
    return ids
  }

  async size(): Promise<number> {
    const [found] = await this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM ${this.rows}`
    return found.n
  }
}
