/**
 * One table: all ids in order and the secondary indexes declared in the
 * schema in memory, the rows themselves on disk. A row is JSON in the
 * snapshot or journal line that last wrote it; the table knows where
 * (a RowDirectory) and reads it back when asked, keeping the most recently
 * used rows parsed in a bounded cache. So the heap holds what queries walk
 * (ids and index keys) and the hot rows, not the whole store.
 *
 * A row is *resident* (held in memory) until its bytes are on disk: from its
 * commit until its journal line is written (`settle`), and for good when
 * the table has no files or the line's layout cannot be found again (the
 * next snapshot writes it out). Rows are frozen and replaced, never changed
 * in place, so a snapshot that walks the table copies whole versions of rows.
 *
 * Memory matters at a million rows, so two shapes are kept small: an index
 * key with a single id holds the bare number (most threads, replies and
 * unique keys), and empty arrays inside a row share one frozen instance.
 */
import { LRUCache } from 'lru-cache'
import { IndexMap, sortKeys, type Bucket } from './index-map.js'
import type { Key, Range, Row } from '../port.js'
import { RowDirectory, type Location } from './row-directory.js'
import type { RowFiles } from './row-files.js'
import type { IndexDef, TableDef } from '../schema.js'
import { bounds, insertId, lowerBound, mergeRange, removeId, windowIds } from '../sorted-ids.js'

const NONE: readonly number[] = Object.freeze([])
const EMPTY: readonly unknown[] = Object.freeze([])

type Derived = Key | readonly Key[] | null | undefined

/** Calls `each` with every key of a derived value (none, one or several). */
const forKeys = (k: Derived, each: (key: Key) => void): void => {
  if (k === undefined || k === null) return
  if (Array.isArray(k)) for (const key of k as readonly Key[]) each(key)
  else each(k as Key)
}

const sameKeys = (a: Derived, b: Derived): boolean => {
  if (a === b || ((a === undefined || a === null) && (b === undefined || b === null))) return true
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
  return a.every((key, i) => key === b[i])
}

const idsIn = (bucket: Bucket | undefined): ArrayLike<number> => (bucket === undefined ? NONE : typeof bucket === 'number' ? [bucket] : bucket)

/** A bucket to change in place: an array of its own (a view of an index file's arrays is copied first). */
const own = (map: IndexMap, key: Key, bucket: number[] | Float64Array): number[] => {
  if (Array.isArray(bucket)) return bucket
  const copy = Array.from(bucket)
  map.set(key, copy)
  return copy
}

const addTo = (map: IndexMap, key: Key, id: number): void => {
  const bucket = map.get(key)
  if (bucket === undefined) map.set(key, id)
  else if (typeof bucket !== 'number') insertId(own(map, key, bucket), id)
  else if (bucket !== id) map.set(key, bucket < id ? [bucket, id] : [id, bucket])
}

const removeFrom = (map: IndexMap, key: Key, id: number): void => {
  const bucket = map.get(key)
  if (bucket === undefined) return
  if (typeof bucket === 'number') {
    if (bucket === id) map.delete(key)
    return
  }
  const ids = own(map, key, bucket)
  removeId(ids, id)
  if (ids.length === 1) map.set(key, ids[0])
}

function exportIndex(map: IndexMap): IndexState {
  const unsorted: Key[] = []
  let total = 0
  for (const [key, bucket] of map) {
    unsorted.push(key)
    total += typeof bucket === 'number' ? 1 : bucket.length
  }
  const keys = sortKeys(unsorted) ?? unsorted
  const starts = new Uint32Array(keys.length + 1)
  const ids = new Float64Array(total)
  let at = 0
  for (let k = 0; k < keys.length; k++) {
    starts[k] = at
    const bucket = map.get(keys[k]) as Bucket
    if (typeof bucket === 'number') ids[at++] = bucket
    else {
      ids.set(bucket, at)
      at += bucket.length
    }
  }
  starts[keys.length] = at
  return { keys, starts, ids }
}

/** The index of a state: its arrays as they are when its keys are sorted, else (a mix of numbers and strings) entries. */
function importIndex(index: IndexState): IndexMap {
  const { keys, starts, ids } = index
  if (keys instanceof Float64Array || keys.every((k) => typeof k === 'string')) return new IndexMap({ keys: keys as Float64Array | string[], starts, ids })
  const map = new IndexMap()
  for (let k = 0; k < keys.length; k++) {
    const count = starts[k + 1] - starts[k]
    map.set(keys[k], count === 1 ? ids[starts[k]] : Array.from(ids.subarray(starts[k], starts[k + 1])))
  }
  return map
}

/** Shares one frozen empty array for every empty array of a row and of the objects in it. */
const shareEmpty = (value: Record<string, unknown>, depth: number): void => {
  for (const name in value) {
    const v = value[name]
    if (Array.isArray(v)) {
      if (v.length === 0) value[name] = EMPTY
    } else if (depth > 0 && typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
      shareEmpty(v as Record<string, unknown>, depth - 1)
    }
  }
}

/** Where a row was at one moment: resident (`row`), on disk (`file` > 0), or absent. */
export interface Entry<R> {
  id: number
  row: R | undefined
  file: number
  offset: number
  length: number
}

/** One index as arrays: each key (sorted when all are numbers or all strings), where its ids start, and all the ids, key after key. */
export interface IndexState {
  keys: Float64Array | Key[]
  starts: Uint32Array
  ids: Float64Array
}

/** Everything a table knows but its rows: for an index file, so an open need not read every row. */
export interface TableState {
  seq: number
  /** All ids in order, and where each one's row is. */
  ids: Float64Array
  files: Uint32Array
  offsets: Float64Array
  lengths: Uint32Array
  indexes: Record<string, IndexState>
}

/**
 * Bytes of row JSON whose parsed rows a table keeps, most recently used
 * first (a parsed row takes two to three times its JSON on the heap).
 */
export const CACHE_BYTES = 8 << 20

const freezeRow = <R>(row: R): R => {
  if (!Object.isFrozen(row)) {
    shareEmpty(row as unknown as Record<string, unknown>, 2)
    Object.freeze(row)
  }
  return row
}

export class MemoryTable<R extends Row> {
  private readonly resident = new Map<number, R>()
  private readonly cache: LRUCache<number, R>
  private readonly directory = new RowDirectory()
  private order: number[] = []
  private readonly indexes = new Map<string, { def: IndexDef<R>; map: IndexMap }>()
  /** The same indexes as a list: walked for every row applied, so no iterator per call. */
  private readonly indexList: { def: IndexDef<R>; map: IndexMap }[] = []
  seq = 0

  constructor(
    readonly name: string,
    defs: TableDef<R>,
    private readonly files: RowFiles | null = null,
    cacheBytes = CACHE_BYTES,
  ) {
    // Bounded by size, not count: a count bound makes lru-cache allocate its arrays up front, for every table.
    this.cache = new LRUCache<number, R>({ maxSize: cacheBytes })
    for (const [indexName, def] of Object.entries(defs)) {
      const index = { def, map: new IndexMap() }
      this.indexes.set(indexName, index)
      this.indexList.push(index)
    }
  }

  get(id: number): R | null {
    const row = this.resident.get(id) ?? this.cache.get(id)
    if (row !== undefined) return row
    const file = this.directory.file(id)
    if (file === 0) return null
    const read = freezeRow(JSON.parse(this.readText(id, file)) as R)
    this.cache.set(id, read, { size: this.directory.length(id) })
    return read
  }

  has(id: number): boolean {
    return this.resident.has(id) || this.directory.file(id) !== 0
  }

  private at(id: number, file = this.directory.file(id)): Location {
    return { file, offset: this.directory.offset(id), length: this.directory.length(id) }
  }

  private readText(id: number, file: number): string {
    if (!this.files) throw new Error(`table ${this.name} has no files to read row ${id} from`)
    return this.files.text(this.at(id, file))
  }

  /**
   * Stores a row (insert or replace), keeping every index in step. With
   * `at`, its bytes are already there on disk; without, it stays resident
   * until `settle` says where they were written. The row is frozen.
   */
  apply(row: R, at?: Location): void {
    const id = row.id
    const exists = this.has(id)
    const old = exists && this.indexList.length > 0 ? this.get(id) : null
    if (!exists) insertId(this.order, id)
    freezeRow(row)
    if (at) {
      this.resident.delete(id)
      this.directory.set(id, at)
      this.cache.delete(id)
    } else this.resident.set(id, row)
    if (id > this.seq) this.seq = id
    // Plain loops, no callback: this runs for every row of a snapshot being loaded.
    for (const { def, map } of this.indexList) {
      const k = def.key(row)
      if (old) {
        // Most replacements keep most keys (and a journal replayed over a
        // snapshot repeats rows it already holds): leave those buckets alone,
        // since moving an id inside a big bucket costs a splice.
        const was = def.key(old)
        if (sameKeys(was, k)) continue
        forKeys(was, (key) => removeFrom(map, key, id))
      }
      if (k === undefined || k === null) continue
      if (Array.isArray(k)) for (const key of k as readonly Key[]) addTo(map, key, id)
      else addTo(map, k as Key, id)
    }
  }

  /** A resident row's bytes reached disk at `at`: it leaves memory for the cache, unless replaced meanwhile. */
  settle(row: R, at: Location): void {
    if (this.resident.get(row.id) !== row) return
    this.resident.delete(row.id)
    this.directory.set(row.id, at)
    this.cache.set(row.id, row, { size: at.length })
  }

  /** Where `id` is now, to compare with later (`relocate`) or to put back (`restore`). */
  entry(id: number): Entry<R> {
    const file = this.directory.file(id)
    return { id, row: this.resident.get(id), file, offset: file === 0 ? 0 : this.directory.offset(id), length: file === 0 ? 0 : this.directory.length(id) }
  }

  /** The row's JSON bytes (read from disk, or written out of memory) and where it was taken from; null when absent. */
  copyOut(id: number): { bytes: Buffer; from: Entry<R> } | null {
    const from = this.entry(id)
    if (from.row !== undefined) return { bytes: Buffer.from(JSON.stringify(from.row)), from }
    if (from.file === 0 || !this.files) return null
    return { bytes: this.files.bytes(from), from }
  }

  /** The row copied from `from` now also lives at `to`: it is read from there, unless it changed since. */
  relocate(from: Entry<R>, to: Location): void {
    const id = from.id
    if (from.row !== undefined) {
      if (this.resident.get(id) !== from.row) return
      this.resident.delete(id)
      this.cache.set(id, from.row, { size: to.length })
    } else if (this.resident.has(id) || this.directory.file(id) !== from.file || this.directory.offset(id) !== from.offset) return
    this.directory.set(id, to)
  }

  /** Puts a row back where `was` says it was (undoing a failed commit). */
  restore(was: Entry<R>): void {
    if (this.has(was.id)) this.remove(was.id)
    if (was.row !== undefined) this.apply(was.row)
    else if (was.file !== 0) this.apply(freezeRow(JSON.parse(this.readText(was.id, was.file)) as R), was)
  }

  remove(id: number): void {
    const old = this.get(id)
    if (!old) return
    this.unindex(old)
    this.forget(id)
    removeId(this.order, id)
  }

  private forget(id: number): void {
    this.resident.delete(id)
    this.cache.delete(id)
    this.directory.clear(id)
  }

  /**
   * Removes every row whose id is below `id`; answers where they were
   * (oldest first). The ids leave the ordered list in one splice, not one
   * per row, so trimming the front of a long log costs what the removed rows cost.
   */
  removeBelow(id: number): Entry<R>[] {
    const gone = this.order.splice(0, lowerBound(this.order, id))
    const entries: Entry<R>[] = []
    for (const goneId of gone) {
      entries.push(this.entry(goneId))
      if (this.indexList.length > 0) this.unindex(this.get(goneId) as R)
      this.resident.delete(goneId)
      this.cache.delete(goneId)
    }
    this.directory.clearBelow(id)
    return entries
  }

  private unindex(row: R): void {
    for (const { def, map } of this.indexList) forKeys(def.key(row), (key) => removeFrom(map, key, row.id))
  }

  private index(name: string): IndexMap {
    const index = this.indexes.get(name)
    if (!index) throw new Error(`table ${this.name} has no index ${name}`)
    return index.map
  }

  /** The row a unique index maps `key` to. */
  one(indexName: string, key: Key): R | null {
    const ids = idsIn(this.index(indexName).get(key))
    return ids.length > 0 ? this.get(ids[0]) : null
  }

  /** Would `row` collide with another row on a unique index? Answers the index name. */
  uniqueClash(row: R): string | null {
    for (const [name, { def, map }] of this.indexes) {
      if (!def.unique) continue
      let clash = false
      forKeys(def.key(row), (key) => {
        const ids = idsIn(map.get(key))
        for (let i = 0; i < ids.length; i++) clash ||= ids[i] !== row.id
      })
      if (clash) return name
    }
    return null
  }

  ids(indexName: string, key: Key, range: Range): number[] {
    return windowIds(idsIn(this.index(indexName).get(key)), range)
  }

  idsAny(indexName: string, keys: readonly Key[], range: Range): number[] {
    const index = this.index(indexName)
    return mergeRange(
      keys.map((k) => idsIn(index.get(k))),
      range,
    )
  }

  count(indexName: string, key: Key): number {
    const bucket = this.index(indexName).get(key)
    return bucket === undefined ? 0 : typeof bucket === 'number' ? 1 : bucket.length
  }

  scan(range: Range, match?: (row: R) => boolean): number[] {
    if (!match) return windowIds(this.order, range)
    // Walk the window in the asked direction, testing rows until the limit is met.
    const ids = this.order
    const [start, end] = bounds(ids, range)
    const out: number[] = []
    const take = (i: number): void => {
      const row = this.get(ids[i])
      if (row && match(row)) out.push(ids[i])
    }
    if (range.order === 'asc') for (let i = start; i < end && out.length < range.limit; i++) take(i)
    else for (let i = end - 1; i >= start && out.length < range.limit; i--) take(i)
    return out
  }

  get size(): number {
    return this.order.length
  }

  /** The table's ids, places and indexes; null while a row is only in memory (its place is not known). */
  exportState(): TableState | null {
    if (this.resident.size > 0) return null
    const n = this.order.length
    const state: TableState = {
      seq: this.seq,
      ids: Float64Array.from(this.order),
      files: new Uint32Array(n),
      offsets: new Float64Array(n),
      lengths: new Uint32Array(n),
      indexes: {},
    }
    for (let i = 0; i < n; i++) {
      const id = this.order[i]
      state.files[i] = this.directory.file(id)
      state.offsets[i] = this.directory.offset(id)
      state.lengths[i] = this.directory.length(id)
    }
    for (const [name, { map }] of this.indexes) state.indexes[name] = exportIndex(map)
    return state
  }

  /** Takes over a state `exportState` answered (into an empty table). */
  importState(state: TableState): void {
    this.seq = Math.max(this.seq, state.seq)
    // A loop into a sized array: Array.from goes through the iterator, ten times slower at a million ids.
    const order = new Array<number>(state.ids.length)
    for (let i = 0; i < order.length; i++) order[i] = state.ids[i]
    this.order = order
    this.directory.load(state.ids, state.files, state.offsets, state.lengths)
    for (const [name, index] of this.indexes) {
      const loaded = state.indexes[name]
      if (loaded) index.map = importIndex(loaded)
    }
  }
}
