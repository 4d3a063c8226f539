/**
 * The data dir's lifecycle: its on-disk format is recorded in `meta.json`;
 * `initDataDir` creates a new dir at the current format, `migrateDataDir`
 * brings an older one up to it (backup first), and `requireCurrentFormat`
 * is what `openDomain` checks before it opens the store.
 */
import { cp, mkdir, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { readMeta, writeMeta } from '../config.js'
import { DomainError } from '../errors.js'
import { FileStore } from './file-store.js'
import { acquireLock } from './lock.js'
import { migrations } from './migrations/index.js'

/** The format this svc reads and writes: the last migration's version. */
export const CURRENT_FORMAT: number = migrations.length === 0 ? 0 : migrations[migrations.length - 1].version

/** Entries of a data dir that are never copied into a backup. */
const NOT_BACKED_UP = new Set(['backups', 'svc.lock', 'admin.sock'])

const entriesOf = async (dir: string): Promise<string[] | null> => {
  try {
    return await readdir(dir)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
}

/**
 * The format of the data dir at `dir`: `null` when there is no data dir yet
 * (missing or empty), 0 for data from before formats were recorded.
 */
export async function dataDirFormat(dir: string): Promise<number | null> {
  const meta = await readMeta(dir)
  if (meta) return meta.format
  const entries = await entriesOf(dir)
  const holdsData = (entries ?? []).some((e) => e === 'store' || e === 'config.json' || /^(journal|snapshot)-\d+\.jsonl$/.test(e))
  return holdsData ? 0 : null
}

/**
 * Creates a data dir at `dir` with an empty store, a default config and the
 * current format. Answers `{created: false}` and changes nothing when a data
 * dir is already there (whatever its format). Throws `conflict` if another
 * process holds the dir while it is being created.
 */
export async function initDataDir(dir: string): Promise<{ created: boolean }> {
  if ((await dataDirFormat(dir)) !== null) return { created: false }
  await mkdir(join(dir, 'images'), { recursive: true })
  const store = await FileStore.open(dir)
  await store.close()
  await writeMeta(dir, { format: CURRENT_FORMAT, created_at: new Date().toISOString() })
  return { created: true }
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
 * backup), a missing one is created. Answers the formats before and after and
 * the backup's path. Throws `conflict` while a server (or any process) holds
 * the dir, `unavailable` for a dir newer than this svc.
 */
export async function migrateDataDir(dir: string): Promise<{ from: number; to: number; backup?: string }> {
  const found = await dataDirFormat(dir)
  if (found === null) {
    await initDataDir(dir)
    return { from: CURRENT_FORMAT, to: CURRENT_FORMAT }
  }
  const release = acquireLock(dir)
  try {
    // Read again under the lock: a process that held it may have changed it.
    const from = (await dataDirFormat(dir)) ?? found
    if (from > CURRENT_FORMAT) await requireCurrentFormat(dir)
    if (from === CURRENT_FORMAT) return { from, to: from }
    const backups = join(dir, 'backups')
    const backup = await backupName(backups)
    await mkdir(backup, { recursive: true })
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
