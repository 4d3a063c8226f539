/**
 * Applies one transaction's buffered ops inside its PostgreSQL transaction:
 * front trims first, then for each table the index entries that changed
 * (computed against the rows as they were), the rows, and the id counters.
 * A unique clash surfaces as the port's `conflict`; PostgreSQL rolls the
 * whole transaction back.
 */
import type { TransactionSql } from 'postgres'
import { DomainError } from '../../errors.js'
import type { Row } from '../port.js'
import type { Op } from '../ops.js'
import { schema, type TableDef } from '../schema.js'
import { keysOf, keysTable, rowsTable } from './pg-names.js'
import { keyInsert, type KeyEntries } from './pg-bulk.js'

/** A table's net change: the final row of each id it touched (null: removed), and the bound of a front trim. */
interface TableChange {
  rows: Map<number, Row | null>
  removeBelow: number
}

/** Folds the ops in order: a later put of an id replaces an earlier one; a trim drops what it covers. */
function changesOf(ops: readonly Op[]): Map<string, TableChange> {
  const changes = new Map<string, TableChange>()
  for (const op of ops) {
    let change = changes.get(op[1])
    if (!change) changes.set(op[1], (change = { rows: new Map(), removeBelow: 0 }))
    if (op[0] === 'p') change.rows.set(op[2].id, op[2])
    else if (op[0] === 'd') change.rows.set(op[2], null)
    else {
      change.removeBelow = Math.max(change.removeBelow, op[2])
      for (const id of change.rows.keys()) if (id < op[2]) change.rows.delete(id)
    }
  }
  return changes
}

/** Entries of `row` under every index of `defs`, as `index \u0000 key` strings. */
function entriesOf(defs: [string, TableDef<Row>[string]][], row: Row | null | undefined): Set<string> {
  const entries = new Set<string>()
  if (!row) return entries
  for (const [name, def] of defs) for (const key of keysOf(def.key(row))) entries.add(`${name}\u0000${key}`)
  return entries
}

const emptyEntries = (): KeyEntries => ({ index: [], key: [], id: [], unique: [] })

/** Adds to `into` the entries of row `id` that are in `these` but not in `those`. */
function addMissing(into: KeyEntries, these: Set<string>, those: Set<string>, id: number, unique: Map<string, boolean>): void {
  for (const entry of these) {
    if (those.has(entry)) continue
    const [index, key] = entry.split('\u0000')
    into.index.push(index)
    into.key.push(key)
    into.id.push(id)
    into.unique.push(unique.get(index) === true)
  }
}

/**
 * Writes the ops; answers by how much each table's row count changed. The
 * rows as they were are read for every table at once; then every write is
 * sent without waiting for the one before (PostgreSQL runs them in the order
 * sent, on the transaction's one connection), so a commit costs two round
 * trips, not one per statement, while it holds the write lock.
 */
export async function commitOps(sql: TransactionSql, ops: readonly Op[], lastIds: Map<string, number>): Promise<Map<string, number>> {
  const changes = [...changesOf(ops)]
  const befores = await Promise.all(
    changes.map(async ([table, change]) => {
      const ids = [...change.rows.keys()]
      const before = new Map<number, Row>()
      if (ids.length === 0) return before
      const found = await sql<{ id: number; row: Row }[]>`SELECT id, row FROM ${sql(rowsTable(table))} WHERE id = ANY(${sql.array(ids)}::bigint[])`
      for (const { id, row } of found) before.set(id, row)
      return before
    }),
  )
  const sent: Promise<unknown>[] = []
  /** Sends `query` now, after everything sent before it. */
  const send = <T>(query: { execute(): T }): T => {
    const running = query.execute()
    sent.push(running as Promise<unknown>)
    return running
  }
  const counted = new Map<string, number>()
  const trimmed: [string, Promise<{ count: number }>][] = []
  for (const [i, [table, change]] of changes.entries()) {
    const before = befores[i]
    const defs = Object.entries(schema[table as keyof typeof schema] as TableDef<Row>)
    const unique = new Map(defs.map(([name, def]) => [name, def.unique === true]))
    const rows = sql(rowsTable(table))
    const keys = sql(keysTable(table))
    let delta = 0
    if (change.removeBelow > 0) {
      send(sql`DELETE FROM ${keys} WHERE id < ${change.removeBelow}`)
      trimmed.push([table, send(sql`DELETE FROM ${rows} WHERE id < ${change.removeBelow}`)])
      // Trimmed ids stay spent.
      lastIds.set(table, Math.max(lastIds.get(table) ?? 0, change.removeBelow - 1))
    }
    const gone = emptyEntries()
    const added = emptyEntries()
    const removed: number[] = []
    const putIds: number[] = []
    const putRows: string[] = []
    for (const [id, row] of change.rows) {
      const old = entriesOf(defs, before.get(id))
      const now = entriesOf(defs, row)
      addMissing(gone, old, now, id, unique)
      addMissing(added, now, old, id, unique)
      if (row === null) {
        if (before.has(id)) delta--
        removed.push(id)
      } else {
        if (!before.has(id)) delta++
        putIds.push(id)
        putRows.push(JSON.stringify(row))
      }
      // A removed id, even one never inserted here, is spent.
      if (id > (lastIds.get(table) ?? 0)) lastIds.set(table, id)
    }
    if (gone.id.length > 0) {
      send(sql`DELETE FROM ${keys} k USING unnest(${sql.array(gone.index)}::text[], ${sql.array(gone.key)}::text[], ${sql.array(gone.id)}::bigint[]) AS g(index_name, key, id)
               WHERE k.index_name = g.index_name AND k.key = g.key AND k.id = g.id`)
    }
    if (removed.length > 0) send(sql`DELETE FROM ${rows} WHERE id = ANY(${sql.array(removed)}::bigint[])`)
    if (putIds.length > 0) {
      send(sql`INSERT INTO ${rows} (id, row) SELECT u.id, u.row::json FROM unnest(${sql.array(putIds)}::bigint[], ${sql.array(putRows)}::text[]) AS u(id, row)
               ON CONFLICT (id) DO UPDATE SET row = EXCLUDED.row`)
    }
    if (added.id.length > 0) {
      const inserted = send(keyInsert(sql, table, added))
      // Replaced, not added: `sent` holds the original, and the conflict is what the caller must see.
      sent[sent.length - 1] = (inserted as Promise<unknown>).catch((err: unknown) => {
        throw clashOf(table, err)
      })
    }
    counted.set(table, delta)
  }
  const names = [...lastIds.keys()]
  send(sql`UPDATE svc_counters c SET last_id = u.last_id FROM unnest(${sql.array(names)}::text[], ${sql.array(names.map((n) => lastIds.get(n) as number))}::bigint[]) AS u(name, last_id)
           WHERE c.name = u.name AND c.last_id < u.last_id`)
  // The first failure is the one to report: a statement after it fails only because the transaction was aborted.
  const settled = await Promise.allSettled(sent)
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected')
  if (failed) throw failed.reason
  for (const [table, deleted] of trimmed) counted.set(table, (counted.get(table) ?? 0) - (await deleted).count)
  return counted
}

/** A unique violation on index entries is the port's conflict, named like the file store's. */
function clashOf(table: string, err: unknown): unknown {
  const pg = err as { code?: string; detail?: string }
  if (pg.code !== '23505') return err
  const index = /\(index_name, key\)=\(([^,]+),/.exec(pg.detail ?? '')?.[1] ?? 'key'
  return new DomainError('conflict', `${table}: duplicate ${index}`)
}
