/**
 * The PostgreSQL store's schema and its numbered migrations, the same idea as
 * the data dir's: migration N takes format N-1 to N inside one transaction,
 * recorded in `svc_migrations`, so a run that stops resumes where it stopped.
 * Index entries are derived from rows by the schema's key functions; when
 * those change (the fingerprint in `svc_meta` differs), `svc migrate`
 * derives them again.
 */
import type { Sql, TransactionSql } from 'postgres'
import { DomainError } from '../../errors.js'
import type { Row } from '../port.js'
import { schema, schemaFingerprint, tableNames } from '../schema.js'
import { insertKeys, keyEntriesOf } from './pg-bulk.js'
import { keysTable, rowsTable } from './pg-names.js'

/** Taken by every writing transaction and every migration: one commit order across all nodes. */
export const WRITE_LOCK = 0x5356_4301

/** The tables of format 1 (a later table comes with a migration of its own). */
const TABLES_V1 = [
  'users',
  'apps',
  'tokens',
  'auth_codes',
  'delegate_tokens',
  'follows',
  'mutes',
  'blocks',
  'posts',
  'stars',
  'explore_streams',
  'channels',
  'subscriptions',
  'broadcast_unsubscriptions',
  'channel_mutes',
  'messages',
  'markers',
  'user_streams',
  'stream_subscriptions',
  'log_cursors',
  'app_streams',
  'filters',
  'files',
  'event_log',
]

async function createTable(sql: TransactionSql, table: string): Promise<void> {
  const rows = sql(rowsTable(table))
  const keys = sql(keysTable(table))
  await sql`CREATE TABLE ${rows} (id bigint PRIMARY KEY, row json NOT NULL)`
  await sql`CREATE TABLE ${keys} (index_name text NOT NULL, key text NOT NULL, id bigint NOT NULL, is_unique boolean NOT NULL, PRIMARY KEY (index_name, key, id))`
  await sql`CREATE UNIQUE INDEX ${sql(`${keysTable(table)}_unique`)} ON ${keys} (index_name, key) WHERE is_unique`
  await sql`CREATE INDEX ${sql(`${keysTable(table)}_id`)} ON ${keys} (id)`
  await sql`INSERT INTO svc_counters (name, last_id) VALUES (${table}, 0)`
}

interface PgMigration {
  version: number
  description: string
  up(sql: TransactionSql): Promise<void>
}

export const pgMigrations: readonly PgMigration[] = [
  {
    version: 1,
    description: 'one rows table and one index-entries table per store table; id counters; meta',
    async up(sql) {
      await sql`CREATE TABLE svc_meta (name text PRIMARY KEY, value text NOT NULL)`
      await sql`CREATE TABLE svc_counters (name text PRIMARY KEY, last_id bigint NOT NULL)`
      for (const table of TABLES_V1) await createTable(sql, table)
    },
  },
  {
    version: 2,
    description: 'federation: actor key pairs, Fedify key-value store and message queue',
    async up(sql) {
      for (const table of ['federation_keys', 'federation_kv', 'federation_queue']) await createTable(sql, table)
    },
  },
  {
    version: 3,
    description: 'federation: follows of remote accounts waiting for their Accept',
    async up(sql) {
      await createTable(sql, 'pending_follows')
    },
  },
  {
    version: 4,
    description: 'federation: leases of the jobs one node runs at a time, outcomes of the deliveries per remote host',
    async up(sql) {
      for (const table of ['federation_leases', 'federation_hosts']) await createTable(sql, table)
    },
  },
  {
    version: 5,
    description: 'federation: the operator’s blocks of other servers',
    async up(sql) {
      await createTable(sql, 'federation_domain_blocks')
    },
  },
  {
    version: 6,
    description: 'users’ reports of posts to the operator',
    async up(sql) {
      await createTable(sql, 'reports')
    },
  },
  {
    version: 7,
    description: 'the operator’s invitations to sign up',
    async up(sql) {
      await createTable(sql, 'invites')
    },
  },
  {
    version: 8,
    description: 'single-use links mailed to accounts (confirm an address, set a new password)',
    async up(sql) {
      await createTable(sql, 'account_links')
    },
  },
  {
    version: 9,
    description: 'two-factor sign-in: accounts’ second factors and their app passwords',
    async up(sql) {
      for (const table of ['two_factor', 'app_passwords']) await createTable(sql, table)
    },
  },
]

export const PG_FORMAT = pgMigrations[pgMigrations.length - 1].version

/** The format recorded in the database; null when svc never made its schema there. */
export async function pgFormat(sql: Sql | TransactionSql): Promise<number | null> {
  const [found] = await sql<{ exists: boolean }[]>`SELECT to_regclass('svc_migrations') IS NOT NULL AS exists`
  if (!found.exists) return null
  const [row] = await sql<{ version: number | null }[]>`SELECT max(version)::int AS version FROM svc_migrations`
  return row.version ?? 0
}

async function fingerprintOf(sql: Sql | TransactionSql): Promise<string | null> {
  const [row] = await sql<{ value: string }[]>`SELECT value FROM svc_meta WHERE name = 'schema_fingerprint'`
  return row ? row.value : null
}

export interface PgMigrationReport {
  from: number | null
  to: number
  applied: string[]
  reindexed: boolean
}

/**
 * Brings the database at `sql` to the current format and index definitions,
 * creating svc's schema in an empty one. Idempotent.
 */
export async function migratePostgres(sql: Sql, progress?: (message: string) => void): Promise<PgMigrationReport> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`
    await tx`CREATE TABLE IF NOT EXISTS svc_migrations (version int PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`
    const from = await pgFormat(tx)
    if (from !== null && from > PG_FORMAT) throw newerFormat(from)
    const applied: string[] = []
    for (const migration of pgMigrations.filter((m) => m.version > (from ?? 0))) {
      progress?.(`migration ${migration.version}: ${migration.description}`)
      await migration.up(tx)
      await tx`INSERT INTO svc_migrations (version, description) VALUES (${migration.version}, ${migration.description})`
      applied.push(migration.description)
    }
    const reindexed = (await fingerprintOf(tx)) !== schemaFingerprint
    if (reindexed) await reindex(tx, progress)
    return { from: from === 0 ? null : from, to: PG_FORMAT, applied, reindexed }
  })
}

const newerFormat = (format: number) =>
  new DomainError('unavailable', `the PostgreSQL store is at format ${format}, newer than this svc reads (${PG_FORMAT}): upgrade svc`)

/** Refuses a database this svc cannot use as it is: no schema yet, an older format or other index definitions (run svc migrate), a newer one. */
export async function requireCurrentPg(sql: Sql): Promise<void> {
  const format = await pgFormat(sql)
  if (format === null || format === 0)
    throw new DomainError('unavailable', 'the PostgreSQL store has no svc schema yet: run svc init (or svc migrate) with --store')
  if (format > PG_FORMAT) throw newerFormat(format)
  if (format < PG_FORMAT || (await fingerprintOf(sql)) !== schemaFingerprint) {
    throw new DomainError('unavailable', `the PostgreSQL store is at an older format (${format}): run svc migrate with --store`)
  }
}

/** Derives every table's index entries again from its rows, in id order and in batches. */
async function reindex(sql: TransactionSql, progress?: (message: string) => void): Promise<void> {
  for (const table of tableNames) {
    await sql`DELETE FROM ${sql(keysTable(table))}`
    if (Object.keys(schema[table]).length === 0) continue
    progress?.(`indexing ${table}`)
    let after = 0
    for (;;) {
      const rows = await sql<{ row: Row }[]>`SELECT row FROM ${sql(rowsTable(table))} WHERE id > ${after} ORDER BY id LIMIT 2000`
      if (rows.length === 0) break
      await insertKeys(
        sql,
        table,
        keyEntriesOf(
          table,
          rows.map((r) => r.row),
        ),
      )
      after = rows[rows.length - 1].row.id
    }
  }
  await sql`INSERT INTO svc_meta (name, value) VALUES ('schema_fingerprint', ${schemaFingerprint})
            ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`
}
