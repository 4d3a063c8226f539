/**
 * One table held in memory: rows by id, all ids in order, and the secondary
 * indexes declared in the schema. Rows are frozen and replaced, never changed
 * in place, so a snapshot that walks the table sees whole versions of rows.
 */
import type { Key, Range, Row } from './port.js'
import type { IndexDef, TableDef } from './schema.js'
import { insertId, lowerBound, mergeWindows, removeId, windowIds } from './sorted-ids.js'

const keysOf = <R>(def: IndexDef<R>, row: R): readonly Key[] => {
  const k = def.key(row)
  if (k === undefined || k === null) return []
  return Array.isArray(k) ? (k as readonly Key[]) : [k as Key]
}

export class MemoryTable<R extends Row> {
  readonly rows = new Map<number, R>()
  private readonly order: number[] = []
  private readonly indexes = new Map<string, { def: IndexDef<R>; map: Map<Key, number[]> }>()
  seq = 0

  constructor(
    readonly name: string,
    defs: TableDef<R>,
  ) {
    for (const [indexName, def] of Object.entries(defs)) this.indexes.set(indexName, { def, map: new Map() })
  }

  get(id: number): R | null {
    return this.rows.get(id) ?? null
  }

  /** Stores a row (insert or replace), keeping every index in step. */
  apply(row: R): void {
    const old = this.rows.get(row.id)
    if (old) this.unindex(old)
    else insertId(this.order, row.id)
    Object.freeze(row)
    this.rows.set(row.id, row)
    if (row.id > this.seq) this.seq = row.id
    for (const { def, map } of this.indexes.values()) {
      for (const key of keysOf(def, row)) {
        let ids = map.get(key)
        if (!ids) map.set(key, (ids = []))
        insertId(ids, row.id)
      }
    }
  }

  remove(id: number): void {
    const old = this.rows.get(id)
    if (!old) return
    this.unindex(old)
    this.rows.delete(id)
    removeId(this.order, id)
  }

  private unindex(row: R): void {
    for (const { def, map } of this.indexes.values()) {
      for (const key of keysOf(def, row)) {
        const ids = map.get(key)
        if (!ids) continue
        removeId(ids, row.id)
        if (ids.length === 0) map.delete(key)
      }
    }
  }

  private index(name: string): Map<Key, number[]> {
    const index = this.indexes.get(name)
    if (!index) throw new Error(`table ${this.name} has no index ${name}`)
    return index.map
  }

  /** The row a unique index maps to, checking the key still derives from it. */
  one(indexName: string, key: Key): R | null {
    const ids = this.index(indexName).get(key)
    return ids && ids.length > 0 ? (this.rows.get(ids[0]) ?? null) : null
  }

  /** Would `row` collide with another row on a unique index? Answers the index name. */
  uniqueClash(row: R): string | null {
    for (const [name, { def, map }] of this.indexes) {
      if (!def.unique) continue
      for (const key of keysOf(def, row)) {
        const ids = map.get(key)
        if (ids && ids.some((id) => id !== row.id)) return name
      }
    }
    return null
  }

  ids(indexName: string, key: Key, range: Range): number[] {
    return windowIds(this.index(indexName).get(key) ?? [], range)
  }

  idsAny(indexName: string, keys: readonly Key[], range: Range): number[] {
    const index = this.index(indexName)
    return mergeWindows(
      keys.map((k) => windowIds(index.get(k) ?? [], range)),
      range,
    )
  }

  count(indexName: string, key: Key): number {
    return this.index(indexName).get(key)?.length ?? 0
  }

  scan(range: Range, match?: (row: R) => boolean): number[] {
    if (!match) return windowIds(this.order, range)
    // Walk the window in the asked direction, testing rows until the limit is met.
    const ids = this.order
    const start = range.since === undefined ? 0 : lowerBound(ids, range.since + 1)
    const end = range.before === undefined ? ids.length : lowerBound(ids, range.before)
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
