/**
 * One table held in memory: rows by id, all ids in order, and the secondary
 * indexes declared in the schema. Rows are frozen and replaced, never changed
 * in place, so a snapshot that walks the table sees whole versions of rows.
 *
 * Memory matters at a million rows, so two shapes are kept small: an index
 * key with a single id holds the bare number (most threads, replies and
 * unique keys), and empty arrays inside a row share one frozen instance.
 */
import type { Key, Range, Row } from './port.js'
import type { IndexDef, TableDef } from './schema.js'
import { bounds, insertId, lowerBound, mergeRange, removeId, windowIds } from './sorted-ids.js'

/** The ids under one index key: a lone id, or a sorted array of two or more. */
type Bucket = number | number[]

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

const idsIn = (bucket: Bucket | undefined): readonly number[] => (bucket === undefined ? NONE : typeof bucket === 'number' ? [bucket] : bucket)

const addTo = (map: Map<Key, Bucket>, key: Key, id: number): void => {
  const bucket = map.get(key)
  if (bucket === undefined) map.set(key, id)
  else if (typeof bucket !== 'number') insertId(bucket, id)
  else if (bucket !== id) map.set(key, bucket < id ? [bucket, id] : [id, bucket])
}

const removeFrom = (map: Map<Key, Bucket>, key: Key, id: number): void => {
  const bucket = map.get(key)
  if (bucket === undefined) return
  if (typeof bucket === 'number') {
    if (bucket === id) map.delete(key)
    return
  }
  removeId(bucket, id)
  if (bucket.length === 1) map.set(key, bucket[0])
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

export class MemoryTable<R extends Row> {
  readonly rows = new Map<number, R>()
  private readonly order: number[] = []
  private readonly indexes = new Map<string, { def: IndexDef<R>; map: Map<Key, Bucket> }>()
  /** The same indexes as a list: walked for every row applied, so no iterator per call. */
  private readonly indexList: { def: IndexDef<R>; map: Map<Key, Bucket> }[] = []
  seq = 0

  constructor(
    readonly name: string,
    defs: TableDef<R>,
  ) {
    for (const [indexName, def] of Object.entries(defs)) {
      const index = { def, map: new Map<Key, Bucket>() }
      this.indexes.set(indexName, index)
      this.indexList.push(index)
    }
  }

  get(id: number): R | null {
    return this.rows.get(id) ?? null
  }

  /** Stores a row (insert or replace), keeping every index in step. The row is frozen. */
  apply(row: R): void {
    const id = row.id
    const old = this.rows.get(id)
    if (!old) insertId(this.order, id)
    if (!Object.isFrozen(row)) {
      shareEmpty(row as unknown as Record<string, unknown>, 2)
      Object.freeze(row)
    }
    this.rows.set(id, row)
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

  remove(id: number): void {
    const old = this.rows.get(id)
    if (!old) return
    this.unindex(old)
    this.rows.delete(id)
    removeId(this.order, id)
  }

  /**
   * Removes every row whose id is below `id`; answers them (oldest first).
   * The ids leave the ordered list in one splice, not one per row, so
   * trimming the front of a long log costs what the removed rows cost.
   */
  removeBelow(id: number): R[] {
    const gone = this.order.splice(0, lowerBound(this.order, id))
    const rows: R[] = []
    for (const goneId of gone) {
      const row = this.rows.get(goneId) as R
      if (this.indexList.length > 0) this.unindex(row)
      this.rows.delete(goneId)
      rows.push(row)
    }
    return rows
  }

  private unindex(row: R): void {
    for (const { def, map } of this.indexList) forKeys(def.key(row), (key) => removeFrom(map, key, row.id))
  }

  private index(name: string): Map<Key, Bucket> {
    const index = this.indexes.get(name)
    if (!index) throw new Error(`table ${this.name} has no index ${name}`)
    return index.map
  }

  /** The row a unique index maps `key` to. */
  one(indexName: string, key: Key): R | null {
    const ids = idsIn(this.index(indexName).get(key))
    return ids.length > 0 ? (this.rows.get(ids[0]) ?? null) : null
  }

  /** Would `row` collide with another row on a unique index? Answers the index name. */
  uniqueClash(row: R): string | null {
    for (const [name, { def, map }] of this.indexes) {
      if (!def.unique) continue
      let clash = false
      forKeys(def.key(row), (key) => {
        clash ||= idsIn(map.get(key)).some((id) => id !== row.id)
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
      const row = this.rows.get(ids[i])
      if (row && match(row)) out.push(ids[i])
    }
    if (range.order === 'asc') for (let i = start; i < end && out.length < range.limit; i++) take(i)
    else for (let i = end - 1; i >= start && out.length < range.limit; i--) take(i)
    return out
  }

  get size(): number {
    return this.rows.size
  }
}
