/**
 * `svc places import FILE`: reads an OpenStreetMap extract or a GeoJSON
 * file into `places/<source id>.ndjson` and lists it in `sources.json`. The
 * source id comes from the file's name, so importing the same file again
 * replaces that source (and keeps its places' ids). Nothing is replaced
 * until the whole file has been read: a file that fails midway leaves the
 * previous import as it was.
 */
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { DomainError, invalid } from '../../errors.js'
import type { PlaceSource } from '../../model/place.js'
import { acquireLock } from '../../store/lock.js'
import { PRIVATE_DIR, PRIVATE_FILE } from '../../disk/file-modes.js'
import { formatError, sourceBaseName, type PlaceReader } from './place-reader.js'
import { placesDirOf } from '../place-files.js'
import { readImportedSources, syncDir, writeSources } from './sources-file.js'

export interface ImportProgress {
  bytesRead: number
  totalBytes: number
  /** Places read so far. */
  count: number
}

export interface ImportResult {
  source: PlaceSource
  count: number
  /** Objects that looked like places but could not be one (no name, no position) or came twice. */
  skipped: number
}

// Each reader's parser loads with the first import of its format, not with every start of svc.
const FORMATS: { pattern: RegExp; format: PlaceSource['format']; reader: () => Promise<PlaceReader> }[] = [
  { pattern: /\.pbf$/i, format: 'osm-pbf', reader: async () => (await import('./read-osm-pbf.js')).readOsmPbf },
  { pattern: /\.(geo)?json$/i, format: 'geojson', reader: async () => (await import('./read-geojson.js')).readGeoJson },
]

/** The source id of file `path`: its base name, lower case, in characters safe in a file name. */
export const sourceIdOf = (path: string): string =>
  sourceBaseName(path)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '') || 'source'

const WRITE_CHUNK = 1 << 20

/**
 * Imports the places of `file` into `dataDir`; answers the source and what
 * was read. Errors: `not_found` (no such file), `invalid` (an extension
 * other than .osm.pbf/.pbf/.geojson/.json, or a file not of its format),
 * `conflict` (another import is running on this data dir).
 */
export async function importPlaces(dataDir: string, file: string, onProgress?: (progress: ImportProgress) => void): Promise<ImportResult> {
  const kind = FORMATS.find((f) => f.pattern.test(file))
  if (kind === undefined) throw invalid(`cannot tell the format of ${file}: expected .osm.pbf, .pbf, .geojson or .json`)
  const info = await stat(file).catch((err: unknown) => {
    throw formatError(file, 'a file', err)
  })
  if (!info.isFile()) throw invalid(`${file} is not a file`)

  const dir = placesDirOf(dataDir)
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR })
  let release: () => void
  try {
    release = acquireLock(dir)
  } catch (err) {
    if (err instanceof DomainError && err.code === 'conflict') throw new DomainError('conflict', `another places import is running on ${dataDir}`)
    throw err
  }
  const id = sourceIdOf(file)
  const final = join(dir, `${id}.ndjson`)
  const temp = join(dir, `.${id}.ndjson.${process.pid}.tmp`)
  try {
    const counts = { count: 0, skipped: 0 }
    const read = await kind.reader()
    await writePlaces(
      temp,
      read(file, (bytesRead) => onProgress?.({ bytesRead, totalBytes: info.size, count: counts.count })),
      counts,
    )
    const { count, skipped } = counts
    await rename(temp, final)
    await syncDir(dir)
    const source: PlaceSource = { id, name: file, format: kind.format, file: `${id}.ndjson`, count, imported_at: new Date().toISOString() }
    const others = (await readImportedSources(dataDir)).filter((s) => s.id !== id)
    await writeSources(dataDir, [...others, source])
    return { source, count, skipped }
  } catch (err) {
    await unlink(temp).catch(() => undefined)
    throw err
  } finally {
    release()
  }
}

/** Writes the places `places` yields to `path`, one JSON line each, a megabyte or so a write, fsynced; counts them (as they come) in `counts`. */
async function writePlaces(path: string, places: ReturnType<PlaceReader>, counts: { count: number; skipped: number }): Promise<void> {
  const handle = await open(path, 'w', PRIVATE_FILE)
  const ids = new Set<string>()
  let buffered: string[] = []
  let bufferedLength = 0
  try {
    for await (const batch of places) {
      for (const place of batch) {
        // Two features of one file with the same id are one place: the first is kept.
        if (place === null || ids.has(place.id)) {
          counts.skipped++
          continue
        }
        ids.add(place.id)
        counts.count++
        const line = JSON.stringify(place) + '\n'
        buffered.push(line)
        bufferedLength += line.length
      }
      if (bufferedLength >= WRITE_CHUNK) {
        await handle.write(buffered.join(''))
        buffered = []
        bufferedLength = 0
      }
    }
    await handle.write(buffered.join(''))
    await handle.sync()
  } finally {
    await handle.close()
  }
}
