/**
 * `svc store copy`: moves an instance's data from the embedded store of a
 * data dir into an empty PostgreSQL store, in one PostgreSQL transaction (a
 * copy that fails leaves the database as it was). Ids, id counters (removed
 * ids stay spent) and the event log come along; index entries are derived
 * from the rows. Before the commit, each table's row count in PostgreSQL is
 * checked against the file store's.
 */
import { DomainError } from '../../errors.js'
import { FileStore } from '../embedded/file-store.js'
import type { Row, TableReader } from '../port.js'
import { tableNames } from '../schema.js'
import { insertRows } from './pg-bulk.js'
import { keysTable, rowsTable } from './pg-names.js'
import { migratePostgres, WRITE_LOCK } from './pg-schema.js'
import { redactUrl } from '../../redact-url.js'
import { connect } from './postgres-store.js'

/** Rows read from the file store and written to PostgreSQL per statement. */
const BATCH = 2000

export interface CopyProgress {
  /** Rows copied so far, of `total`, over every table. */
  copied: number
  total: number
  table: string
}

export interface CopyReport {
  /** Rows per table, the same on both sides (checked). */
  tables: Record<string, number>
  total: number
}

export async function copyToPostgres(dataDir: string, url: string, progress?: (p: CopyProgress) => void): Promise<CopyReport> {
  // Holding the data dir's lock: no server writes to it during the copy.
  const source = await FileStore.open(dataDir)
  const sql = connect(url, { max: 2 })
  try {
    await migratePostgres(sql).catch((err: unknown) => {
      if (err instanceof DomainError) throw err
      throw new DomainError('unavailable', `the PostgreSQL store at ${redactUrl(url)} cannot be used: ${(err as Error).message}`, { cause: err })
    })
    const sizes: Record<string, number> = {}
    for (const name of tableNames) sizes[name] = await source.read[name].size()
    const total = Object.values(sizes).reduce((a, b) => a + b, 0)
    const lastIds = source.lastIds()
    await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`
      for (const name of tableNames) {
        const [held] = await tx<{ any: boolean }[]>`SELECT EXISTS (SELECT 1 FROM ${tx(rowsTable(name))}) AS any`
        if (held.any) throw new DomainError('conflict', `the PostgreSQL store at ${redactUrl(url)} already holds ${name}: copy into an empty database`)
      }
      let copied = 0
      for (const name of tableNames) {
        const table = source.read[name] as unknown as TableReader<Row>
        let after = 0
        for (;;) {
          const ids = await table.scan({ since: after, limit: BATCH, order: 'asc' })
          if (ids.length === 0) break
          await insertRows(tx, name, await table.getMany(ids))
          after = ids[ids.length - 1]
          copied += ids.length
          progress?.({ copied, total, table: name })
        }
        const [counted] = await tx<{ n: number }[]>`SELECT count(*)::int AS n FROM ${tx(rowsTable(name))}`
        if (counted.n !== sizes[name])
          throw new DomainError('unavailable', `copying ${name}: ${sizes[name]} rows in the data dir but ${counted.n} in PostgreSQL; nothing was kept`)
        await tx`UPDATE svc_counters SET last_id = ${lastIds[name] ?? 0} WHERE name = ${name}`
      }
    })
    // Without statistics on the new rows the planner guesses, and a timeline read sorts every post of every author instead of walking the index.
    for (const name of tableNames) await sql`ANALYZE ${sql(rowsTable(name))}, ${sql(keysTable(name))}`
    return { tables: sizes, total }
  } finally {
    await sql.end({ timeout: 5 })
    await source.close()
  }
}
