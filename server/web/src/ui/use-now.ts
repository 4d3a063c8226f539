/**
 * One clock for every relative time on the page ("5m" becoming "6m"):
 * a single interval, running while at least one time is shown, moves a
 * shared "now" that each `TimeAgo` reads. A page of 200 posts keeps one
 * timer, not 200, and they all change in the same render.
 */
import { useSyncExternalStore } from 'react'

/** Short enough that a minute's count is at most this late, long enough to cost nothing. */
const TICK_MS = 15_000

let now = Date.now()
let timer: ReturnType<typeof setInterval> | undefined
const readers = new Set<() => void>()

const tick = () => {
  now = Date.now()
  for (const reader of readers) reader()
}

function subscribe(reader: () => void): () => void {
  readers.add(reader)
  if (timer === undefined) {
    // The clock stood still while nothing was shown: the first time shown again must not read a stale now.
    now = Date.now()
    timer = setInterval(tick, TICK_MS)
  }
  return () => {
    readers.delete(reader)
    if (readers.size > 0 || timer === undefined) return
    clearInterval(timer)
    timer = undefined
  }
}

const snapshot = () => now

/** The page's shared now, in milliseconds, updated every few seconds while someone reads it. */
export const useNow = (): number => useSyncExternalStore(subscribe, snapshot)
