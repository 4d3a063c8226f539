/** What the import's readers share: their shape, and how they report a file they cannot read. */
import { basename } from 'node:path'
import { DomainError, invalid } from '../../errors.js'
import type { Place } from '../../model/place.js'

/**
 * Streams the places of the file at `path` a batch at a time (a yield per
 * place would cost more than mapping it), telling `onProgress` how many of
 * its bytes were read. Each object that looked like a place but cannot be
 * one (no name, no position) comes as `null`, so the import can count it.
 * Throws `invalid` when the file is not of its format.
 */
export type PlaceReader = (path: string, onProgress?: (bytesRead: number) => void) => AsyncGenerator<(Place | null)[]>

/** The part of a file name that names its source: `bremen.geojson` → `bremen`, `berlin.osm.pbf` → `berlin`. */
export const sourceBaseName = (path: string): string => basename(path).replace(/(\.osm)?\.(pbf|geojson|json)$/i, '')

/** The error for file `path` that failed to read as `what`: `not_found` when it is not there, else `invalid`. */
export function formatError(path: string, what: string, err: unknown): DomainError {
  if (err instanceof DomainError) return err
  const code = (err as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return new DomainError('not_found', `no file ${path}`)
  if (code === 'EISDIR') return invalid(`${path} is a directory`)
  if (code === 'EACCES') return new DomainError('forbidden', `cannot read ${path} (permission denied)`)
  return invalid(`${path} is not ${what}: ${err instanceof Error ? err.message : String(err)}`)
}
