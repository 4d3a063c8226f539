/**
 * `<data dir>/places/`: one NDJSON file of places per imported source, and
 * `sources.json` listing those sources. The import writes them; the places
 * service reads them.
 */
import { open, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import { DomainError } from '../../errors.js'
import type { PlaceSource } from '../../model/place.js'
import { PRIVATE_FILE } from '../../disk/file-modes.js'
import { placesDirOf } from '../place-files.js'

export const sourcesPath = (dataDir: string): string => join(placesDirOf(dataDir), 'sources.json')

/**
 * The imported sources, in import order, as the import rewrites them; none
 * when nothing was imported. Unlike the index's reader (place-files.ts),
 * which skips what it cannot read, this throws `invalid` when sources.json
 * is broken: an import must not replace a list it could not read.
 */
export async function readImportedSources(dataDir: string): Promise<PlaceSource[]> {
  let text: string
  try {
    text = await readFile(sourcesPath(dataDir), 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw err
  }
  try {
    const sources: unknown = JSON.parse(text)
    if (!Array.isArray(sources)) throw new Error('not an array')
    return sources as PlaceSource[]
  } catch (err) {
    throw new DomainError('invalid', `${sourcesPath(dataDir)} is not a list of sources: ${(err as Error).message}`)
  }
}

/** Replaces sources.json at once (write-file-atomic: a temp file, fsynced, renamed). */
export const writeSources = (dataDir: string, sources: PlaceSource[]): Promise<void> =>
  writeFileAtomic(sourcesPath(dataDir), JSON.stringify(sources, null, 2) + '\n', { mode: PRIVATE_FILE, fsync: true })

/** Makes a rename in `dir` durable. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
