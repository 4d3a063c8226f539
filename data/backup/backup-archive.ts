/**
 * A backup archive: a gzipped tar (node-tar) holding `backup.json`, its
 * manifest, and `data/`, the data dir as of one commit: the store's snapshot
 * and journals cut at that commit, `config.json`, `meta.json`, uploads,
 * images and imported places. The manifest names every file with its size
 * and SHA-256, so a copy that lost or changed a byte is refused.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { DomainError } from '../errors.js'

/** The archive's layout version: a later svc reads it, or says it cannot. */
export const BACKUP_FORMAT = 1
export const MANIFEST = 'backup.json'
/** The folder in the archive holding the data dir. */
export const DATA = 'data'

export interface ManifestEntry {
  /** Under `data/`, with `/` between folders. */
  path: string
  bytes: number
  sha256: string
}

export interface BackupManifest {
  format: number
  svc_version: string
  created_at: string
  /** The newest event the backup holds: everything acknowledged up to it is in it. */
  events_position: number
  entries: ManifestEntry[]
}

/** What `svc backup create` answers (the operator contract's `{file, events_position, bytes}`). */
export interface BackupResult {
  file: string
  events_position: number
  bytes: number
}

/** What `svc backup verify` and `restore` answer. */
export interface BackupCheck {
  file: string
  events_position: number
  created_at: string
  /** Files in the backup's data dir. */
  files: number
  /** Their bytes, all together. */
  data_bytes: number
}

const sha256Of = (path: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const hash = createHash('sha256')
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')))
  })

/** Every file under `root`, as paths relative to it with `/` between folders, in a stable order. */
export async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort()
}

/** The manifest entries of the data dir copy at `dataRoot`; `hashed` hears the bytes read so far of all there are. */
export async function entriesOf(dataRoot: string, hashed?: (done: number, total: number) => void): Promise<ManifestEntry[]> {
  const sized = await Promise.all((await filesUnder(dataRoot)).map(async (path) => ({ path, bytes: (await stat(join(dataRoot, path))).size })))
  const total = sized.reduce((sum, e) => sum + e.bytes, 0)
  const entries: ManifestEntry[] = []
  let done = 0
  for (const { path, bytes } of sized) {
    entries.push({ path, bytes, sha256: await sha256Of(join(dataRoot, path)) })
    done += bytes
    hashed?.(done, total)
  }
  return entries
}

const broken = (file: string, why: string) => new DomainError('invalid', `${file} is not a complete svc backup: ${why}`)

/** The manifest of an extracted archive at `root`, checked against its files: every one there, whole, and nothing else. */
export async function checkExtracted(file: string, root: string): Promise<BackupManifest> {
  let manifest: BackupManifest
  try {
    manifest = JSON.parse(await readFile(join(root, MANIFEST), 'utf8')) as BackupManifest
  } catch {
    throw broken(file, `no readable ${MANIFEST}`)
  }
  if (manifest.format !== BACKUP_FORMAT) throw broken(file, `its format is ${String(manifest.format)}, this svc reads ${BACKUP_FORMAT}`)
  if (!Array.isArray(manifest.entries) || !Number.isInteger(manifest.events_position)) throw broken(file, `${MANIFEST} is not a manifest`)
  const found = new Map((await entriesOf(join(root, DATA)).catch(() => [])).map((e) => [e.path, e]))
  for (const entry of manifest.entries) {
    const there = found.get(entry.path)
    if (!there) throw broken(file, `${entry.path} is missing`)
    if (there.bytes !== entry.bytes || there.sha256 !== entry.sha256) throw broken(file, `${entry.path} is not the file that was backed up`)
    found.delete(entry.path)
  }
  if (found.size > 0) throw broken(file, `it holds files its manifest does not name (${[...found.keys()].slice(0, 3).join(', ')})`)
  return manifest
}
