/**
 * The port's table reader over PostgreSQL: every call is one query, answered
 * from the rows table's primary key or the index entries' B-tree (a window
 * of ids under a key is a range scan of (index_name, key, id)). Rows come
 * back frozen, as the file store's do.
 */
import type { Sql, TransactionSql } from 'postgres'
import type { Key, Range, Row, TableReader } from '../port.js'
import type { TableDef } from '../schema.js'
import { encodeKey, keysTable, rowsTable } from './pg-names.js'

type Conn = Sql | TransactionSql

/** Rows read while scanning with a filter, per query. */
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

export class PgReader<R extends Row> implements TableReader<R> {
  constructor(
    protected readonly sql: Conn,
    readonly name: string,
    protected readonly def: TableDef<R>,
  ) {}

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
    const [found] = await this.sql<{ row: R }[]>`SELECT row FROM ${this.rows} WHERE id = ${id}`
    return found ? freezeRow(found.row) : null
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
    const [found] = await this.sql<{ row: R }[]>`
      SELECT r.row FROM ${this.keys} k JOIN ${this.rows} r ON r.id = k.id
      WHERE k.index_name = ${this.index(index)} AND k.key = ${encodeKey(key)} ORDER BY k.id LIMIT 1`
    return found ? freezeRow(found.row) : null
  }

  async ids(index: string, key: Key, range: Range): Promise<number[]> {
    const found = await this.sql<{ id: number }[]>`
      SELECT id FROM ${this.keys} WHERE index_name = ${this.index(index)} AND key = ${encodeKey(key)} ${this.window(range)}`
    return found.map((f) => f.id)
  }

  async idsAny(index: string, keys: readonly Key[], range: Range): Promise<number[]> {
    if (keys.length === 0) return []
    const found = await this.sql<{ id: number }[]>`
      SELECT DISTINCT id FROM ${this.keys}
      WHERE index_name = ${this.index(index)} AND key = ANY(${this.sql.array(keys.map(encodeKey))}::text[]) ${this.window(range)}`
    return found.map((f) => f.id)
  }

  async count(index: string, key: Key): Promise<number> {
    const [found] = await this.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM ${this.keys} WHERE index_name = ${this.index(index)} AND key = ${encodeKey(key)}`
    return found.n
  }

  async scan(range: Range, match?: (row: R) => boolean): Promise<number[]> {
    if (!match) {
      const found = await this.sql<{ id: number }[]>`SELECT id FROM ${this.rows} WHERE true ${this.window(range)}`
      return found.map((f) => f.id)
    }
    // The filter is the caller's code: rows are read a batch at a time, in window order, until enough match.
    const want = range.limit
    const ids: number[] = []
    let window: Range = { ...range, limit: SCAN_BATCH }
    while (ids.length < want) {
      const found = await this.sql<{ id: number; row: R }[]>`SELECT id, row FROM ${this.rows} WHERE true ${this.window(window)}`
      for (const { id, row } of found) {
        if (ids.length < want && match(freezeRow(row))) ids.push(id)
      }
      if (found.length < SCAN_BATCH) break
      const last = found[found.length - 1].id
      window = range.order === 'asc' ? { ...window, since: last } : { ...window, before: last }
    }
    return ids
  }

  async size(): Promise<number> {
    const [found] = await this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM ${this.rows}`
    return found.n
  }
}
