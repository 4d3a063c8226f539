/** Sorted ascending arrays of ids: insertion, removal and windowing by binary search. */
import type { Range } from './port.js'

/** First index whose id is >= `id` (ids, or any sorted keys). */
export function lowerBound<K extends number | string>(ids: ArrayLike<K>, id: K): number {
  let lo = 0
  let hi = ids.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (ids[mid] < id) lo = mid + 1
    else hi = mid
  }
  return lo
}

export function insertId(ids: number[], id: number): void {
  // Ids are allocated in order, so the common case is an append.
  if (ids.length === 0 || ids[ids.length - 1] < id) {
    ids.push(id)
    return
  }
  const at = lowerBound(ids, id)
  if (ids[at] !== id) ids.splice(at, 0, id)
}

export function removeId(ids: number[], id: number): void {
  const at = lowerBound(ids, id)
  if (ids[at] === id) ids.splice(at, 1)
}

/** The positions `[start, end)` of `ids` strictly after `since` and strictly before `before`. */
export function bounds(ids: ArrayLike<number>, range: Range): [number, number] {
  const start = range.since === undefined ? 0 : lowerBound(ids, range.since + 1)
  const end = range.before === undefined ? ids.length : lowerBound(ids, range.before)
  return [start, end]
}

/** The ids of `ids` inside `range`: newest first for `desc`, oldest first for `asc`. */
export function windowIds(ids: ArrayLike<number>, range: Range): number[] {
  const [start, end] = bounds(ids, range)
  if (end <= start || range.limit <= 0) return []
  const out: number[] = []
  if (range.order === 'asc') {
    for (let i = start; i < end && out.length < range.limit; i++) out.push(ids[i])
    return out
  }
  for (let i = end - 1; i >= start && out.length < range.limit; i--) out.push(ids[i])
  return out
}

/** A position in one sorted array, walking towards `stop` (exclusive). */
interface Cursor {
  ids: ArrayLike<number>
  at: number
  stop: number
}

/**
 * The window `range` over the union of several sorted arrays, each id once.
 * A k-way merge: a heap of cursors, one per array, so a timeline over many
 * followed authors costs `limit × log(authors)` and copies no array.
 */
export function mergeRange(lists: readonly ArrayLike<number>[], range: Range): number[] {
  if (range.limit <= 0) return []
  const asc = range.order === 'asc'
  const heap: Cursor[] = []
  for (const ids of lists) {
    const [start, end] = bounds(ids, range)
    if (end > start) heap.push(asc ? { ids, at: start, stop: end } : { ids, at: end - 1, stop: start - 1 })
  }
  // `first(a, b)`: a's next id comes out before b's.
  const first = (a: Cursor, b: Cursor): boolean => (asc ? a.ids[a.at] < b.ids[b.at] : a.ids[a.at] > b.ids[b.at])
  const siftDown = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let best = i
      if (l < heap.length && first(heap[l], heap[best])) best = l
      if (r < heap.length && first(heap[r], heap[best])) best = r
      if (best === i) return
      ;[heap[i], heap[best]] = [heap[best], heap[i]]
      i = best
    }
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(i)
  const out: number[] = []
  while (heap.length > 0 && out.length < range.limit) {
    const top = heap[0]
    const id = top.ids[top.at]
    if (out[out.length - 1] !== id) out.push(id)
    top.at += asc ? 1 : -1
    if (top.at === top.stop) {
      const last = heap.pop() as Cursor
      if (last === top) continue
      heap[0] = last
    }
    siftDown(0)
  }
  return out
}

/** Merges several `windowIds` answers of the same range (already in its order) into one, each id once. */
export function mergeWindows(windows: readonly number[][], range: Range): number[] {
  const all = windows.flat()
  const asc = range.order === 'asc'
  all.sort((a, b) => (asc ? a - b : b - a))
  const out: number[] = []
  for (const id of all) {
    if (out.length >= range.limit) break
    if (out[out.length - 1] !== id) out.push(id)
  }
  return out
}
