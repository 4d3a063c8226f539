/**
 * What `svc places import` leaves in `<data dir>/places/`: `sources.json`
 * (the imported sources) and one NDJSON file of places per source. Only read
 * here; a file being replaced by an import is read whole, old or new (the
 * import writes each file aside and renames it into place).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Place, PlaceSource } from '../model/place.js'
import { readLines } from '../disk/json-lines.js'

export const placesDirOf = (dataDir: string): string => join(dataDir, 'places')

const isMissing = (err: unknown): boolean => (err as NodeJS.ErrnoException).code === 'ENOENT'

/** The imported sources; none when nothing was imported yet. */
export async function readSources(placesDir: string): Promise<PlaceSource[]> {
  let text: string
  try {
    text = await readFile(join(placesDir, 'sources.json'), 'utf8')
  } catch (err) {
    if (isMissing(err)) return []
    throw err
  }
  const sources = JSON.parse(text) as unknown
  return Array.isArray(sources) ? (sources as PlaceSource[]) : []
}

/** A place as stored, and its line (the index keeps the text, smaller than the object, and parses it when asked). */
export interface StoredPlace {
  place: Place
  line: string
}

const isPlace = (v: unknown): v is Place => {
  const p = v as Partial<Place> | null
  return (
    typeof p === 'object' &&
    p !== null &&
    typeof p.id === 'string' &&
    typeof p.name === 'string' &&
    typeof p.latitude === 'number' &&
    typeof p.longitude === 'number' &&
    Math.abs(p.latitude) <= 90 &&
    Math.abs(p.longitude) <= 180
  )
}

/** The places of `source`, a batch at a time; lines that are not places (a torn tail) are skipped, a missing file has none. */
export async function* sourcePlaces(placesDir: string, source: PlaceSource): AsyncGenerator<StoredPlace[]> {
  // sources.json names files in places/ only.
  const path = join(placesDir, source.file.replace(/^.*[\\/]/, ''))
  try {
    for await (const lines of readLines(path)) {
      const batch: StoredPlace[] = []
      for (const { text } of lines) {
        let place: unknown
        try {
          place = JSON.parse(text)
        } catch {
          continue
        }
        if (isPlace(place)) batch.push({ place, line: text })
      }
      yield batch
    }
  } catch (err) {
    if (!isMissing(err)) throw err
  }
}
