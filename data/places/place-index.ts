/**
 * The places of every source in one spatial index (kdbush; geokdbush's
 * great-circle `around` answers searches). The builder runs in a worker
 * (index-worker.ts) and packs what the index needs into ArrayBuffers the
 * main thread takes over without copying: the kdbush data, each place's
 * NDJSON line (parsed when answered), its normalised name, whether it is
 * open, and its id with the place answering it. Duplicates are settled while
 * building: a place of a source object already indexed (same id, hence same
 * `source_ref`) is left out, and of two places with the same normalised name
 * within `PLACE_DUPLICATE_METRES` the first indexed is kept and the other's
 * id answers it.
 */
import KDBush from 'kdbush'
import { around, distance } from 'geokdbush'
import { PLACE_DUPLICATE_METRES } from '../limits.js'
import type { Place } from '../model/place.js'
import { nameScore, normaliseName } from './place-names.js'
import { buffersOf, packStrings, StringTable, type PackedStrings } from './packed-strings.js'

export interface PlaceHit {
  place: Place
  /** Great-circle distance from the searched point, in metres. */
  distance: number
}

export interface PlaceQuery {
  latitude: number
  longitude: number
  /** Metres. */
  radius: number
  count: number
  /** Normalised; empty for none. */
  q: string
  remove_closed: boolean
}

/** The index as the worker hands it over: typed arrays only. */
export interface PackedPlaceIndex {
  count: number
  /** Bundled places read (for the stats, which would otherwise read the bundled package on the main thread). */
  bundledCount: number
  tree: ArrayBuffer
  lines: PackedStrings
  names: PackedStrings
  flags: Uint8Array
  /** Ids in position order. */
  ids: PackedStrings
  /** Positions sorted by id, for a binary search. */
  idOrder: Uint32Array
  /** The position answering each position's id: itself, or the place kept in a duplicate's stead. */
  answers: Uint32Array
}

/** Every ArrayBuffer of `packed`, for a transfer list. */
export const transferListOf = (packed: PackedPlaceIndex): ArrayBuffer[] => [
  packed.tree,
  ...buffersOf(packed.lines),
  ...buffersOf(packed.names),
  ...buffersOf(packed.ids),
  packed.flags.buffer as ArrayBuffer,
  packed.idOrder.buffer as ArrayBuffer,
  packed.answers.buffer as ArrayBuffer,
]

/** Where the places of an index were and whether they were open, before duplicates were settled: what a later build starts from. */
export interface PlaceColumns {
  lons: Float64Array
  lats: Float64Array
  open: Uint8Array
}

const OPEN = 1
const DROPPED = 2
/** Metres per degree of latitude on geokdbush's sphere (radius 6371 km). */
const METRES_PER_DEGREE = (6371e3 * Math.PI) / 180

export class PlaceIndexBuilder {
  private readonly lines: string[] = []
  private readonly ids: string[] = []
  private readonly names: string[] = []
  private readonly lons: number[] = []
  private readonly lats: number[] = []
  private readonly open: number[] = []
  private readonly seen = new Set<string>()

  /** Adds `place`, kept as its JSON `line`; a place whose id is indexed already is left out. */
  add(place: Place, line: string): void {
    if (this.seen.has(place.id)) return
    this.seen.add(place.id)
    this.lines.push(line)
    this.ids.push(place.id)
    this.names.push(normaliseName(place.name))
    this.lons.push(place.longitude)
    this.lats.push(place.latitude)
    this.open.push(place.is_open === false ? 0 : OPEN)
  }

  /** Adds the places of `packed`, an index finished earlier, from its `columns`: their text is not parsed again. */
  addIndexed(packed: PackedPlaceIndex, columns: PlaceColumns): void {
    const [lines, ids, names] = [new StringTable(packed.lines), new StringTable(packed.ids), new StringTable(packed.names)]
    for (let i = 0; i < packed.count; i++) {
      const id = ids.at(i)
      if (this.seen.has(id)) continue
      this.seen.add(id)
      this.lines.push(lines.at(i))
      this.ids.push(id)
      this.names.push(names.at(i))
      this.lons.push(columns.lons[i])
      this.lats.push(columns.lats[i])
      this.open.push(columns.open[i])
    }
  }

  /** The columns of the places added so far. */
  columns(): PlaceColumns {
    return { lons: Float64Array.from(this.lons), lats: Float64Array.from(this.lats), open: Uint8Array.from(this.open) }
  }

  finish(): PackedPlaceIndex {
    const n = this.lines.length
    const tree = new KDBush(Math.max(n, 1))
    for (let i = 0; i < n; i++) tree.add(this.lons[i], this.lats[i])
    if (n === 0) tree.add(0, 0)
    tree.finish()
    const flags = Uint8Array.from(this.open)
    const answers = new Uint32Array(n)
    for (let i = 0; i < n; i++) answers[i] = i
    this.settleDuplicates(tree, flags, answers)
    const ids = this.ids
    const idOrder = Uint32Array.from(ids.keys()).sort((a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0))
    return {
      count: n,
      bundledCount: 0,
      tree: tree.data as ArrayBuffer,
      lines: packStrings(this.lines),
      names: packStrings(this.names),
      flags,
      ids: packStrings(ids),
      idOrder,
      answers,
    }
  }

  /** Marks the later of two same-named places within the duplicate distance dropped, its id answering the first. */
  private settleDuplicates(tree: KDBush, flags: Uint8Array, answers: Uint32Array): void {
    const dLat = (PLACE_DUPLICATE_METRES / METRES_PER_DEGREE) * 1.01
    const km = PLACE_DUPLICATE_METRES / 1000
    for (let i = 0; i < this.lines.length; i++) {
      if (flags[i] & DROPPED) continue
      const lon = this.lons[i]
      const lat = this.lats[i]
      // A box a little larger than the circle (wider in longitude towards the poles), then the exact distance.
      const dLon = Math.min(180, dLat / Math.max(Math.cos((Math.abs(lat) * Math.PI) / 180), 1e-6))
      for (const j of tree.range(lon - dLon, lat - dLat, lon + dLon, lat + dLat)) {
        if (j === i || flags[j] & DROPPED || this.names[j] !== this.names[i]) continue
        if (distance(lon, lat, this.lons[j], this.lats[j]) > km) continue
        flags[j] |= DROPPED
        answers[j] = i
      }
    }
  }
}

export class PlaceIndex {
  private readonly tree: KDBush
  private readonly lines: StringTable
  private readonly names: StringTable
  private readonly ids: StringTable

  constructor(private readonly packed: PackedPlaceIndex) {
    this.tree = KDBush.from(packed.tree)
    this.lines = new StringTable(packed.lines)
    this.names = new StringTable(packed.names)
    this.ids = new StringTable(packed.ids)
  }

  get bundledCount(): number {
    return this.packed.bundledCount
  }

  /** Places answered (duplicates left out). */
  get size(): number {
    let kept = 0
    for (let i = 0; i < this.packed.count; i++) if (!(this.packed.flags[i] & DROPPED)) kept++
    return kept
  }

  private at(i: number): Place {
    return JSON.parse(this.lines.at(i)) as Place
  }

  /** The place `id` names: itself, or the place kept in its stead; null when unknown. */
  get(id: string): Place | null {
    const order = this.packed.idOrder
    let lo = 0
    let hi = order.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const found = this.ids.at(order[mid])
      if (found === id) return this.at(this.packed.answers[order[mid]])
      if (found < id) lo = mid + 1
      else hi = mid - 1
    }
    return null
  }

  /** Places within `radius` of the point, nearest first; with `q`, the best name matches first, nearest first among equals. */
  search(query: PlaceQuery): PlaceHit[] {
    const { latitude: lat, longitude: lon, q } = query
    const km = query.radius / 1000
    const wanted = query.remove_closed ? OPEN | DROPPED : DROPPED
    const needed = query.remove_closed ? OPEN : 0
    const { count, flags } = this.packed
    const eligible = (i: number): boolean => i < count && (flags[i] & wanted) === needed
    let found: number[]
    if (q === '') found = around(this.tree, lon, lat, query.count, km, eligible)
    else {
      // The name is matched after `around`, not in its predicate: `around` stops at the first point beyond the radius,
      // and a predicate that refuses most points would have it walk the whole tree looking for one.
      const scored: { i: number; score: number }[] = []
      for (const i of around(this.tree, lon, lat, Infinity, km, eligible)) {
        const score = nameScore(this.names.at(i), q)
        if (score > 0) scored.push({ i, score })
      }
      // `around` answers nearest first and the sort is stable: equal scores stay nearest first.
      found = scored
        .sort((a, b) => b.score - a.score)
        .slice(0, query.count)
        .map((s) => s.i)
    }
    return found.map((i) => {
      const place = this.at(i)
      return { place, distance: distance(lon, lat, place.longitude, place.latitude) * 1000 }
    })
  }
}
