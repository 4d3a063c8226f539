/** Sorted ascending arrays of ids: insertion, removal and windowing by binary search. */
import type { Range } from './port.js'

/** First index whose id is >= `id`. */
export function lowerBound(ids: readonly number[], id: number): number {
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

/** The ids of `ids` inside `range`: newest first for `desc`, oldest first for `asc`. */
export function windowIds(ids: readonly number[], range: Range): number[] {
  const start = range.since === undefined ? 0 : lowerBound(ids, range.since + 1)
  const end = range.before === undefined ? ids.length : lowerBound(ids, range.before)
  if (end <= start || range.limit <= 0) return []
  if (range.order === 'asc') return ids.slice(start, Math.min(end, start + range.limit))
  const out: number[] = []
  for (let i = end - 1; i >= start && out.length < range.limit; i--) out.push(ids[i])
  return out
}

/** Merges several `windowIds` answers of the same range into one. */
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
