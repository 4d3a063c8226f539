/** Rows and index entries written many at a time (one statement per batch): a schema's reindex, and `svc store copy`. */
import type { TransactionSql } from 'postgres'
import type { Row } from '../port.js'
import { schema, type TableDef } from '../schema.js'
import { keysOf, keysTable, rowsTable } from './pg-names.js'

/** Index entries as columns, the shape `unnest` takes. */
export interface KeyEntries {
  index: string[]
  key: string[]
  id: number[]
  unique: boolean[]
}

/** Every index entry of `rows` in `table`. */
export function keyEntriesOf(table: string, rows: readonly Row[]): KeyEntries {
  const defs = Object.entries(schema[table as keyof typeof schema] as TableDef<Row>)
  const entries: KeyEntries = { index: [], key: [], id: [], unique: [] }
  for (const row of rows) {
    for (const [name, def] of defs) {
      for (const key of keysOf(def.key(row))) {
        entries.index.push(name)
        entries.key.push(key)
        entries.id.push(row.id)
        entries.unique.push(def.unique === true)
      }
    }
  }
  return entries
}

/** The statement inserting entries `e` of `table` (not sent until awaited or executed). */
export const keyInsert = (sql: TransactionSql, table: string, e: KeyEntries) =>
  sql`INSERT INTO ${sql(keysTable(table))} (index_name, key, id, is_unique)
      SELECT * FROM unnest(${sql.array(e.index)}::text[], ${sql.array(e.key)}::text[], ${sql.array(e.id)}::bigint[], ${sql.array(e.unique)}::boolean[])`

export async function insertKeys(sql: TransactionSql, table: string, e: KeyEntries): Promise<void> {
  if (e.id.length > 0) await keyInsert(sql, table, e)
}

/** Inserts new rows and their index entries. */
export async function insertRows(sql: TransactionSql, table: string, rows: readonly Row[]): Promise<void> {
  if (rows.length === 0) return
  await sql`INSERT INTO ${sql(rowsTable(table))} (id, row)
            SELECT u.id, u.row::json FROM unnest(${sql.array(rows.map((r) => r.id))}::bigint[], ${sql.array(rows.map((r) => JSON.stringify(r)))}::text[]) AS u(id, row)`
  await insertKeys(sql, table, keyEntriesOf(table, rows))
}
