/**
 * Places: the bundled GeoNames cities and what operators imported, searched
 * around a point. The index is built in a worker thread from the files in
 * `<data dir>/places/` (a million places take seconds of CPU the server's
 * requests must not wait behind): at `warm` (the server calls it once it
 * listens) or else at the first search or lookup. Searches before it is ready
 * wait for it; `reload` builds a new one while searches use the old.
 */
import { DomainError, invalid, notFound } from '../errors.js'
import { PLACE_COUNT_DEFAULT, PLACE_COUNT_MAX, PLACE_QUERY_MAX_LENGTH, PLACE_RADIUS_DEFAULT, PLACE_RADIUS_MAX, PLACE_RADIUS_MIN } from '../limits.js'
import type { Place, PlaceSource } from '../model/place.js'
import { BUNDLED_SOURCE, bundledPlaces } from './bundled-places.js'
import { readSources } from './place-files.js'
import type { PlaceIndex, PlaceHit } from './place-index.js'
import { buildInWorker, type IndexBuild } from './index-in-worker.js'
import { normaliseName } from './place-names.js'

export type { PlaceHit } from './place-index.js'

/** A search as the API takes it; absent values take the spec's defaults. */
export interface PlaceSearchInput {
  latitude?: number
  longitude?: number
  q?: string
  radius?: number
  count?: number
  remove_closed?: boolean
}

/** One source of places as `svc places stats` lists it; the bundled one has format `bundled` and no import time. */
export interface PlaceSourceStats {
  id: string
  name: string
  format: PlaceSource['format'] | 'bundled'
  count: number
  imported_at: string | null
}

export interface PlaceStats {
  /** Places of every source together (before duplicates across sources are settled). */
  total: number
  sources: PlaceSourceStats[]
}

export interface PlaceServiceOptions {
  /** Answer the bundled GeoNames cities too (default true). */
  bundled?: boolean
}

const coordinate = (value: unknown, key: 'latitude' | 'longitude', max: number): number => {
  if (value === undefined || value === null) throw invalid(`You must supply a ${key} parameter.`)
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > max) throw invalid(`${key} must be a number from -${max} to ${max}`)
  return value
}

export class PlaceService {
  private current: PlaceIndex | null = null
  private pending: { build: IndexBuild; ready: Promise<PlaceIndex> } | null = null
  private closed = false
  private readonly bundled: boolean

  constructor(
    private readonly placesDir: string,
    options: PlaceServiceOptions = {},
  ) {
    this.bundled = options.bundled ?? true
  }

  /** The place `id` names, or the one kept in its stead when it was a duplicate. Errors: `not_found`. */
  async get(id: string): Promise<Place> {
    const place = await this.find(id)
    if (!place) throw notFound('Place not found')
    return place
  }

  /** Like `get`, null when unknown. */
  async find(id: string): Promise<Place | null> {
    return (await this.built()).get(id)
  }

  /** Places around a point, nearest first (best name match first with `q`). Errors: `invalid` (the parameters, with the original API's messages). */
  async search(input: PlaceSearchInput): Promise<PlaceHit[]> {
    const latitude = coordinate(input.latitude, 'latitude', 90)
    const longitude = coordinate(input.longitude, 'longitude', 180)
    const radius = input.radius ?? PLACE_RADIUS_DEFAULT
    if (!(radius >= PLACE_RADIUS_MIN && radius <= PLACE_RADIUS_MAX)) throw invalid(`radius must be from ${PLACE_RADIUS_MIN} to ${PLACE_RADIUS_MAX} metres`)
    const count = input.count ?? PLACE_COUNT_DEFAULT
    if (!Number.isInteger(count) || count < 1 || count > PLACE_COUNT_MAX) throw invalid(`count must be an integer from 1 to ${PLACE_COUNT_MAX}`)
    const q = input.q ?? ''
    if (q.length > PLACE_QUERY_MAX_LENGTH) throw invalid(`q must be at most ${PLACE_QUERY_MAX_LENGTH} characters`)
    const index = await this.built()
    return index.search({ latitude, longitude, radius, count, q: normaliseName(q), remove_closed: input.remove_closed ?? true })
  }

  /** What is loaded and from where, read from the files (the index is not built for it). */
  async stats(): Promise<PlaceStats> {
    const imported = await readSources(this.placesDir)
    const sources: PlaceSourceStats[] = imported.map(({ id, name, format, count, imported_at }) => ({ id, name, format, count, imported_at }))
    if (this.bundled) sources.unshift({ ...BUNDLED_SOURCE, format: 'bundled', count: this.current?.bundledCount ?? bundledPlaces().length, imported_at: null })
    return { total: sources.reduce((n, s) => n + s.count, 0), sources }
  }

  /** Starts building the index in the background, unless it is built or being built. */
  warm(): void {
    if (this.current || this.pending || this.closed) return
    this.startBuild().catch(() => undefined)
  }

  /**
   * Builds the index again (after an import) and swaps it in once built;
   * searches meanwhile use the old one. Answers the stats. Errors: `invalid`
   * (the files could not be read; the old index stays).
   */
  async reload(): Promise<PlaceStats> {
    try {
      await this.startBuild()
    } catch (err) {
      throw new DomainError('invalid', err instanceof Error ? err.message : String(err))
    }
    return this.stats()
  }

  /** Stops a build under way. */
  async close(): Promise<void> {
    this.closed = true
    this.pending?.build.stop()
  }

  private built(): Promise<PlaceIndex> {
    if (this.current) return Promise.resolve(this.current)
    return this.pending ? this.pending.ready : this.startBuild()
  }

  private startBuild(): Promise<PlaceIndex> {
    if (this.closed) return Promise.reject(new Error('the places service is closed'))
    const build = buildInWorker({ placesDir: this.placesDir, bundled: this.bundled })
    const pending = {
      build,
      ready: build.index.then(
        (index) => {
          // A reload started since supersedes this build: its index is answered to whoever waited on it, not kept.
          if (this.pending === pending) {
            this.current = index
            this.pending = null
          }
          return index
        },
        (err: unknown) => {
          // A failed build (an unreadable file) is tried again by the next request.
          if (this.pending === pending) this.pending = null
          throw err
        },
      ),
    }
    this.pending = pending
    return pending.ready
  }
}
