/**
 * One secondary index: keys to sorted buckets of ids. Loaded from an index
 * file, it starts as that file's arrays (`base`: keys sorted, where each
 * key's ids start, the ids), looked up by binary search and never turned
 * into a million Map entries at open; every key changed since goes into a
 * Map (`changed`) that is asked first. A bucket that reads from the base is
 * a view into it, copied only when it changes.
 */
import type { Key } from '../port.js'
import { lowerBound } from '../sorted-ids.js'

/** The ids under one key: a lone id, a sorted array of two or more, or a view of a base bucket. */
export type Bucket = number | number[] | Float64Array

/** Marks a key whose base bucket is gone. */
const GONE: unique symbol = Symbol('gone')

export interface IndexBase {
  /** Ascending: numbers, or strings in code-unit order (see `sortKeys`). */
  keys: Float64Array | string[]
  /** `starts[k]` is where key k's ids begin in `ids`; one more entry ends the last. */
  starts: Uint32Array
  ids: Float64Array
}

function find(keys: Float64Array | string[], key: Key): number {
  if (keys instanceof Float64Array ? typeof key !== 'number' : typeof key !== 'string') return -1
  const at = lowerBound<Key>(keys, key)
  return at < keys.length && keys[at] === key ? at : -1
}

export class IndexMap {
  private readonly changed = new Map<Key, Bucket | typeof GONE>()
  /** Base keys the changes have removed, to keep `size` exact. */
  private gone = 0
  private added = 0

  constructor(private readonly base: IndexBase | null = null) {}

  private fromBase(key: Key): Bucket | undefined {
    if (!this.base) return undefined
    const k = find(this.base.keys, key)
    if (k === -1) return undefined
    const start = this.base.starts[k]
    const end = this.base.starts[k + 1]
    return end - start === 1 ? this.base.ids[start] : this.base.ids.subarray(start, end)
  }

  get(key: Key): Bucket | undefined {
    const bucket = this.changed.get(key)
    if (bucket === GONE) return undefined
    return bucket ?? this.fromBase(key)
  }

  /** `bucket` must not be a view of the base: buckets that change are arrays of their own. */
  set(key: Key, bucket: number | number[]): void {
    // Without a base (a table read from JSON, or new) this is a plain Map: no bookkeeping on the hot path.
    if (!this.base) {
      this.changed.set(key, bucket)
      return
    }
    const was = this.changed.get(key)
    if (was === undefined) {
      if (this.fromBase(key) === undefined) this.added++
    } else if (was === GONE) this.gone--
    this.changed.set(key, bucket)
  }

  delete(key: Key): void {
    if (!this.base) {
      this.changed.delete(key)
      return
    }
    const was = this.changed.get(key)
    if (this.fromBase(key) !== undefined) {
      if (was !== GONE) this.gone++
      this.changed.set(key, GONE)
    } else if (was !== undefined) {
      this.added--
      this.changed.delete(key)
    }
  }

  get size(): number {
    return this.base ? this.base.keys.length - this.gone + this.added : this.changed.size
  }

  /** Every key and its bucket: the base's, then the keys only changes hold. */
  *[Symbol.iterator](): IterableIterator<[Key, Bucket]> {
    if (this.base) {
      const { keys } = this.base
      for (let k = 0; k < keys.length; k++) {
        const bucket = this.get(keys[k])
        if (bucket !== undefined) yield [keys[k], bucket]
      }
    }
    for (const [key, bucket] of this.changed) {
      if (bucket !== GONE && (this.base === null || find(this.base.keys, key) === -1)) yield [key, bucket]
    }
  }
}

/** Keys in the order a base needs, if they are all numbers or all strings; null for a mix (kept as a plain Map). */
export function sortKeys(keys: Key[]): Float64Array | string[] | null {
  if (keys.every((k) => typeof k === 'number')) return Float64Array.from(keys as number[]).sort()
  if (keys.every((k) => typeof k === 'string')) return (keys as string[]).sort()
  return null
}
