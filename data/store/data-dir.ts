/**
 * The data dir's lifecycle: its on-disk format is recorded in `meta.json`;
 * `initDataDir` creates a new dir at the current format, `migrateDataDir`
 * brings an older one up to it (backup first), and `requireCurrentFormat`
 * is what `openDomain` checks before it opens the store.
 */
import { chmod, cp, mkdir, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { loadConfig, readMeta, writeMeta, type InstanceConfig } from '../config.js'
import { DomainError } from '../errors.js'
import { FileStore } from './embedded/file-store.js'
import { PRIVATE_DIR } from '../disk/file-modes.js'
import { acquireLock } from './lock.js'
import { migrations } from './migrations/index.js'
import { redactUrl } from '../redact-url.js'

/** The format this svc reads and writes: the last migration's version. */
export const CURRENT_FORMAT: number = migrations.length === 0 ? 0 : migrations[migrations.length - 1].version

/** Entries of a data dir that are never copied into a backup. */
const NOT_BACKED_UP = new Set(['backups', 'svc.lock', 'admin.sock'])

const entriesOf = async (dir: string): Promise<string[] | null> => {
  try {
    return await readdir(dir)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    if (code === 'ENOTDIR') throw new DomainError('invalid', `data dir ${dir} is a file, not a directory: give --data-dir (or SVC_DATA_DIR) a directory`)
    throw err
  }
}

/**
 * The format of the data dir at `dir`: `null` when there is no data dir yet
 * (missing or empty), 0 for data from before formats were recorded.
 */
export async function dataDirFormat(dir: string): Promise<number | null> {
  const entries = await entriesOf(dir)
  if (entries === null) return null
  const meta = await readMeta(dir)
  if (meta) return meta.format
  const holdsData = entries.some((e) => e === 'store' || e === 'config.json' || /^(journal|snapshot)-\d+\.jsonl$/.test(e))
  return holdsData ? 0 : null
}

/**
 * Creates a data dir at `dir` with an empty store, a config (the defaults
 * with `config` over them) and the current format, readable by its owner
 * only (an empty dir already there is made so too). Answers `{created: false}` and changes nothing when a
 * data dir is already there (whatever its format). Throws `conflict` if
 * another process holds the dir while it is being created, `invalid` when
 * `dir` is a file.
 */
export async function initDataDir(dir: string, config: Partial<InstanceConfig> = {}): Promise<{ created: boolean }> {
  if ((await dataDirFormat(dir)) !== null) return { created: false }
  const before = await entriesOf(dir)
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR })
  // An empty dir made ready for svc is svc's; a dir that holds other things is left as the operator set it.
  if (before === null || before.length === 0) await chmod(dir, PRIVATE_DIR)
  await mkdir(join(dir, 'images'), { mode: PRIVATE_DIR }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err
  })
  const store = await FileStore.open(dir)
  await store.close()
  await loadConfig(dir, config)
  // Last: meta.json is what marks the dir as made.
  await writeMeta(dir, { format: CURRENT_FORMAT, created_at: new Date().toISOString() })
  return { created: true }
}

/** Throws `not_found` when there is no data dir at `dir` (for every command but init and serve, which create one). */
export async function requireDataDir(dir: string): Promise<void> {
  if ((await dataDirFormat(dir)) === null) throw new DomainError('not_found', `no svc data dir at ${dir}: run svc init`)
}

/**
 * Refuses a data dir that this svc cannot open as it is: `unavailable` for an
 * older format (run `svc migrate`) or a newer one (upgrade svc).
 */
export async function requireCurrentFormat(dir: string): Promise<void> {
  const format = (await dataDirFormat(dir)) ?? CURRENT_FORMAT
  if (format < CURRENT_FORMAT) {
    throw new DomainError('unavailable', `data dir ${dir} has format ${format}, this svc needs format ${CURRENT_FORMAT}: run \`svc migrate\``)
  }
  if (format > CURRENT_FORMAT) {
    throw new DomainError('unavailable', `data dir ${dir} has format ${format}, newer than this svc understands (${CURRENT_FORMAT}): upgrade svc`)
  }
}

const backupName = async (backups: string): Promise<string> => {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  for (let n = 0; ; n++) {
    const name = n === 0 ? stamp : `${stamp}-${n}`
    try {
      await stat(join(backups, name))
    } catch {
      return join(backups, name)
    }
  }
}

/**
 * Brings the data dir at `dir` to the current format: copies it to
 * `<dir>/backups/<timestamp>/`, then runs each missing numbered migration and
 * records the format after each. Idempotent: a current dir is left alone (no
 * backup). Answers the formats before and after and the backup's path.
 * Throws `not_found` when there is no data dir (`svc init` makes one),
 * `conflict` while a server (or any process) holds the dir, `unavailable`
 * for a dir newer than this svc.
 */
export async function migrateDataDir(dir: string): Promise<{ from: number; to: number; backup?: string }> {
  await requireDataDir(dir)
  const found = (await dataDirFormat(dir)) as number
  const release = acquireLock(dir)
  try {
    // Read again under the lock: a process that held it may have changed it.
    const from = (await dataDirFormat(dir)) ?? found
    if (from > CURRENT_FORMAT) await requireCurrentFormat(dir)
    if (from === CURRENT_FORMAT) return { from, to: from }
    const backups = join(dir, 'backups')
    const backup = await backupName(backups)
    await mkdir(backup, { recursive: true, mode: PRIVATE_DIR })
    for (const entry of (await entriesOf(dir)) ?? []) {
      if (!NOT_BACKED_UP.has(entry)) await cp(join(dir, entry), join(backup, entry), { recursive: true, errorOnExist: true })
    }
    const created_at = (await readMeta(dir))?.created_at ?? new Date().toISOString()
    for (const migration of migrations.filter((m) => m.version > from && m.version <= CURRENT_FORMAT)) {
      await migration.up(dir)
      await writeMeta(dir, { format: migration.version, created_at })
    }
    return { from, to: CURRENT_FORMAT, backup }
  } finally {
    release()
  }
}

/**
 * Creates svc's schema in the PostgreSQL database at `url`, or brings it to
 * the current format and index definitions. Idempotent.
 */
export async function migrateStore(
  url: string,
  progress?: (line: string) => void,
): Promise<{ from: number | null; to: number; applied: string[]; reindexed: boolean }> {
  const { connect } = await import('./postgres/postgres-store.js')
  const { migratePostgres } = await import('./postgres/pg-schema.js')
  const sql = connect(url, { max: 1 })
  try {
    return await migratePostgres(sql, progress)
  } catch (err) {
    if (err instanceof DomainError) throw err
    throw new DomainError('unavailable', `the PostgreSQL store at ${redactUrl(url)} cannot be migrated: ${(err as Error).message}`, { cause: err })
  } finally {
    await sql.end({ timeout: 5 })
  }
}

/**
 * Copies the embedded store of the data dir at `dir` into the empty
 * PostgreSQL store at `url` (see `copy-to-postgres.ts`); the dir must be at
 * the current format and not held by a server.
 */
export async function copyStore(
  dir: string,
  url: string,
  progress?: (p: import('./postgres/copy-to-postgres.js').CopyProgress) => void,
): Promise<import('./postgres/copy-to-postgres.js').CopyReport> {
  await requireDataDir(dir)
  await requireCurrentFormat(dir)
  const { copyToPostgres } = await import('./postgres/copy-to-postgres.js')
  return copyToPostgres(dir, url, progress)
}
