/**
 * `svc backup`: a consistent backup of an instance on the embedded store,
 * taken while it serves, and its verification and restore.
 *
 * Creating: at one commit (the store's checkpoint, while writes wait a
 * moment) every file the data dir holds is hard-linked into a staging
 * folder inside it, and the store's files are taken with the bytes that
 * belong to that commit; then, with writes going on, the newest journal is
 * cut at that commit and the staged copy is written to the archive. Hard
 * links keep each file as it was at the commit, whatever is deleted or
 * compacted meanwhile: an upload's bytes never change once written.
 */
import { randomBytes } from 'node:crypto'
import { constants, createWriteStream } from 'node:fs'
import { chmod, link, mkdir, mkdtemp, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path'
import { tmpdir } from 'node:os'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import * as tar from 'tar'
import { DomainError, invalid } from '../errors.js'
import { PRIVATE_DIR, PRIVATE_FILE } from '../disk/file-modes.js'
import { fsyncPath } from '../disk/fsync.js'
import { packageVersion } from '../package-version.js'
import type { Store, StoreCheckpoint } from '../store/port.js'
import { FileStore } from '../store/embedded/file-store.js'
import { BACKUP_FORMAT, DATA, MANIFEST, checkExtracted, entriesOf, type BackupCheck, type BackupManifest, type BackupResult } from './backup-archive.js'

/** Entries of a data dir that a backup leaves out: what only a running process means, and what is half-made (the store's files are the checkpoint's to name). */
const LEFT_OUT = new Set(['svc.lock', 'admin.sock', 'backups', '.uploads'])
const STAGING = '.backup-'
const isLeftOut = (path: string): boolean => path.split('/').some((part) => LEFT_OUT.has(part) || part.startsWith(STAGING) || part.endsWith('.tmp'))

const ON_POSTGRES =
  'this instance keeps its data in PostgreSQL: back the database up with its own tools (pg_dump -Fc, restored with pg_restore into an empty database) and copy config.json, files/, images/ and places/ of the data dir beside it'

export class BackupService {
  constructor(
    private readonly dataDir: string,
    private readonly store: Store,
  ) {}

  /**
   * Writes a backup of the instance to `to` (an absolute path, not there
   * yet), telling `progress` the bytes read of twice the data's (each file
   * is read to hash it, then to archive it). Errors: `invalid` (the path,
   * or PostgreSQL), `conflict` (the file exists).
   */
  async create(to: string, progress?: (done: number, total: number) => void): Promise<BackupResult> {
    if (typeof to !== 'string' || !isAbsolute(to)) throw invalid('the backup file must be an absolute path')
    if (!this.store.checkpoint) throw invalid(ON_POSTGRES)
    if (await exists(to)) throw new DomainError('conflict', `${to} exists already: choose another file`)
    await stat(dirname(to)).catch(() => {
      throw invalid(`${dirname(to)} is not a folder svc can write the backup in`)
    })
    const stage = await mkdtemp(join(this.dataDir, STAGING))
    try {
      const data = join(stage, DATA)
      const store = join(data, 'store')
      await mkdir(store, { recursive: true, mode: PRIVATE_DIR })
      const point = await this.store.checkpoint(async (at) => {
        await linkDataDir(this.dataDir, data)
        for (const { name } of at.files) await link(join(at.dir, name), join(store, name))
        return at
      })
      await cutJournals(store, point)
      const manifest: BackupManifest = {
        format: BACKUP_FORMAT,
        svc_version: packageVersion(),
        created_at: new Date().toISOString(),
        events_position: point.lastIds.event_log ?? 0,
        entries: await entriesOf(data, (done, total) => progress?.(done, 2 * total)),
      }
      const bytes = manifest.entries.reduce((sum, e) => sum + e.bytes, 0)
      await writeFile(join(stage, MANIFEST), JSON.stringify(manifest, null, 2) + '\n', { mode: PRIVATE_FILE })
      const partial = `${to}.${randomBytes(4).toString('hex')}.tmp`
      try {
        let archived = 0
        // Counted before gzip: the tar stream is the files' bytes with their headers, so the count tracks what was read.
        const counted = new Transform({
          transform(chunk: Buffer, _encoding, next) {
            archived += chunk.length
            progress?.(bytes + Math.min(archived, bytes), 2 * bytes)
            next(null, chunk)
          },
        })
        await pipeline(tar.c({ cwd: stage, portable: true }, [MANIFEST, DATA]), counted, createGzip(), createWriteStream(partial, { mode: PRIVATE_FILE }))
        progress?.(2 * bytes, 2 * bytes)
        await chmod(partial, PRIVATE_FILE)
        await fsyncPath(partial)
        // A link, not a rename: a file that appeared at `to` meanwhile is refused, never replaced.
        await link(partial, to).catch((err: NodeJS.ErrnoException) => {
          throw err.code === 'EEXIST' ? new DomainError('conflict', `${to} exists already: choose another file`) : err
        })
        await fsyncPath(dirname(to))
      } finally {
        await rm(partial, { force: true })
      }
      return { file: to, events_position: manifest.events_position, bytes: (await stat(to)).size }
    } finally {
      await rm(stage, { recursive: true, force: true })
    }
  }
}

/** Checks that `file` is a complete backup whose store opens; answers what it holds. Errors: `invalid`. */
export async function verifyBackup(file: string): Promise<BackupCheck> {
  const root = await mkdtemp(join(tmpdir(), 'svc-backup-verify-'))
  try {
    const manifest = await extract(file, root)
    await opensAt(file, join(root, DATA), manifest.events_position)
    return checkOf(file, manifest)
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}

/**
 * Restores backup `file` into data dir `dir`, which must be missing or
 * empty; the archive is checked whole before anything lands there. Errors:
 * `invalid` (not a complete backup), `conflict` (`dir` holds something).
 */
export async function restoreBackup(file: string, dir: string): Promise<BackupCheck> {
  const entries = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null
    throw err
  })
  if (entries && entries.length > 0) throw new DomainError('conflict', `${dir} is not empty: restore into an empty or new data dir`)
  // Unpacked beside the target, so the move into place is a rename on one file system.
  await mkdir(dirname(dir), { recursive: true })
  const root = await mkdtemp(join(dirname(dir), `.${basename(dir)}-restore-`))
  try {
    const manifest = await extract(file, root)
    await opensAt(file, join(root, DATA), manifest.events_position)
    if (entries) await rm(dir, { recursive: true })
    await rename(join(root, DATA), dir)
    await chmod(dir, PRIVATE_DIR)
    await fsyncPath(dirname(dir))
    return checkOf(file, manifest)
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}

const checkOf = (file: string, manifest: BackupManifest): BackupCheck => ({
  file,
  events_position: manifest.events_position,
  created_at: manifest.created_at,
  files: manifest.entries.length,
  data_bytes: manifest.entries.reduce((sum, e) => sum + e.bytes, 0),
})

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  )

/** Unpacks `file` into `root` and checks it against its manifest. */
async function extract(file: string, root: string): Promise<BackupManifest> {
  if (!(await exists(file))) throw invalid(`${file} does not exist`)
  try {
    await tar.x({ file, cwd: root, strict: true, preserveOwner: false })
  } catch (err) {
    throw new DomainError('invalid', `${file} is not a complete svc backup: ${(err as Error).message}`)
  }
  return checkExtracted(file, root)
}

/** Opens the store of the data dir copy at `dir` and checks it holds the events up to `position`. */
async function opensAt(file: string, dir: string, position: number): Promise<void> {
  let store: FileStore
  try {
    store = await FileStore.open(dir)
  } catch (err) {
    throw new DomainError('invalid', `${file} is not a complete svc backup: its store does not open (${(err as Error).message})`)
  }
  try {
    const newest = store.lastIds().event_log ?? 0
    if (newest !== position) throw new DomainError('invalid', `${file} is not a complete svc backup: its store ends at event ${newest}, not ${position}`)
  } finally {
    await store.close()
  }
}

/** Hard-links every file of the data dir at `from` that a backup holds into `to`, but the store's (the checkpoint names those); its folders come along, empty ones too. */
async function linkDataDir(from: string, to: string): Promise<void> {
  for (const entry of await readdir(from, { recursive: true, withFileTypes: true })) {
    const path = relative(from, join(entry.parentPath, entry.name)).split(sep).join('/')
    if (path === 'store' || path.startsWith('store/') || isLeftOut(path)) continue
    if (entry.isDirectory()) await mkdir(join(to, path), { recursive: true, mode: PRIVATE_DIR })
    else if (entry.isFile()) {
      await mkdir(dirname(join(to, path)), { recursive: true, mode: PRIVATE_DIR })
      await link(join(from, path), join(to, path))
    }
  }
}

/**
 * Replaces the staged link of the journal commits go on into (the last of
 * the checkpoint's files) by a copy of the bytes the checkpoint gave it: the
 * link shares the live file, which grows. The other files never change.
 */
async function cutJournals(store: string, point: StoreCheckpoint): Promise<void> {
  for (const { name, bytes } of point.files.slice(-1)) {
    const path = join(store, name)
    const part = `${path}.part`
    const source = await open(path, constants.O_RDONLY)
    const target = await open(part, 'w', PRIVATE_FILE)
    try {
      const buffer = Buffer.alloc(Math.min(bytes, 1 << 20))
      for (let done = 0; done < bytes;) {
        const { bytesRead } = await source.read(buffer, 0, Math.min(buffer.length, bytes - done), done)
        if (bytesRead === 0) throw new Error(`${name} is shorter than the checkpoint said`)
        await target.write(buffer, 0, bytesRead)
        done += bytesRead
      }
    } finally {
      await source.close()
      await target.close()
    }
    await rm(path)
    await rename(part, path)
  }
}
