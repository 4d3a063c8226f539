/**
 * Whom to disconnect when the streams ask for more deliveries than the
 * process makes: as few consumers as will bring what is asked back under
 * what is delivered. Those that cost the most go first (the streams that
 * follow the busiest authors, with the longest backlogs): each of them frees
 * the most, so the fewest are disconnected, and everyone else keeps
 * receiving in time. Whoever is disconnected may resume from its position.
 */
import { performance } from 'node:perf_hooks'

/** What one live stream asks of the process. */
export interface StreamLoad {
  /** Events a second pushed to its backlog lately. */
  rate: number
  /** Events in its backlog now. */
  backlog: number
}

/** The share of the measured throughput live streams may ask for: the rest is headroom, so their waits shrink rather than stay. */
export const HEADROOM = 0.8
/** The share of the time the deliveries must have had work for the process to count as overloaded by its streams. */
export const SATURATED = 0.9
/**
 * The most of what the streams ask that one decision sheds: a pace measured
 * as an overload begins is the process's slowest (every stream's first
 * delivery reads its viewer and compiles its tests), so the hub converges
 * over a few looks, measuring afresh after each, rather than cut once for
 * a pace it has already outgrown.
 */
export const MOST_SHED_AT_ONCE = 0.5
/** Seconds in which the backlogs of the streams that stay should drain: well within the longest an event may wait (USER_STREAM_MAX_DELAY_MS). */
export const DRAIN_SECONDS = 1

const cost = (s: StreamLoad): number => s.rate + s.backlog / DRAIN_SECONDS

/**
 * The streams to disconnect (`delivered`: events a second the process
 * delivers when busy, live and catching up; `reserved`: what catching-up
 * streams take of it): the heaviest, until the rest ask for at most
 * `HEADROOM` of it with their backlogs drained in `DRAIN_SECONDS`, and no
 * more than `MOST_SHED_AT_ONCE` of what they ask. None while that holds,
 * or while nothing was delivered lately to tell the pace by (a process
 * stopped for a moment: the next look will know).
 */
export function streamsToShed<T extends StreamLoad>(streams: readonly T[], delivered: number, reserved: number): T[] {
  if (delivered <= 0) return []
  const budget = HEADROOM * delivered - reserved
  const asked = streams.reduce((sum, s) => sum + cost(s), 0)
  let excess = Math.min(asked - budget, MOST_SHED_AT_ONCE * asked)
  if (excess <= 0) return []
  const heaviest = [...streams].sort((a, b) => cost(b) - cost(a))
  const shed: T[] = []
  for (const s of heaviest) {
    if (excess <= 0) break
    shed.push(s)
    excess -= cost(s)
  }
  return shed
}

/**
 * Events a second lately, counted in a few short buckets: cheap enough to
 * keep per stream, and fine enough that a load which began a moment ago
 * shows at its own pace.
 */
export class RecentRate {
  private readonly counts: number[]
  /** The bucket (its number since the epoch) the counts run up to. */
  private bucket = -Infinity

  constructor(
    private readonly bucketMs = 250,
    buckets = 4,
  ) {
    this.counts = new Array<number>(buckets).fill(0)
  }

  add(at: number = performance.now()): void {
    this.roll(at)
    this.counts[this.bucket % this.counts.length]++
  }

  /** The average over the whole buckets kept and the one going on. */
  perSecond(at: number = performance.now()): number {
    this.roll(at)
    const seconds = ((this.counts.length - 1) * this.bucketMs + (at % this.bucketMs)) / 1000
    return this.counts.reduce((sum, n) => sum + n, 0) / seconds
  }

  private roll(at: number): void {
    const bucket = Math.floor(at / this.bucketMs)
    if (bucket === this.bucket) return
    const size = this.counts.length
    if (bucket - this.bucket >= size) this.counts.fill(0)
    else for (let b = this.bucket + 1; b <= bucket; b++) this.counts[b % size] = 0
    this.bucket = bucket
  }
}

/**
 * Events delivered per second of the time the deliveries had work, over the
 * last few seconds: what the process can deliver beside its other work,
 * whether it was saturated then or not (an average over wall time would
 * count the idle part before a load came as slowness).
 */
export class Throughput {
  private events = 0
  /** Totals now and then, the oldest first, a few seconds of them. */
  private readonly marks: { at: number; events: number; busyMs: number }[] = []

  /** One event delivered, `busyMs` being the deliveries' busy time in all so far. */
  add(busyMs: number, at: number = performance.now()): void {
    this.events++
    const last = this.marks.at(-1)
    if (last && at - last.at < MARK_MS) return
    this.marks.push({ at, events: this.events, busyMs })
    while (this.marks.length > 2 && at - this.marks[0].at > WINDOW_MS) this.marks.shift()
  }

  /** Forgets what was measured: what comes next is another regime (streams were just shed). */
  reset(): void {
    this.marks.length = 0
  }

  /** Events per busy second since the oldest mark; 0 when nothing tells. */
  perBusySecond(busyMs: number): number {
    const first = this.marks[0]
    const busy = first ? busyMs - first.busyMs : 0
    return busy > 0 ? (this.events - first.events) / (busy / 1000) : 0
  }

  /**
   * The share of the time since the oldest mark that the deliveries had
   * work: near 1 when they are what holds the process up; lower when an
   * event waited because something else held the loop (a stall that
   * disconnecting streams would not cure).
   */
  busyShare(busyMs: number, at: number = performance.now()): number {
    const first = this.marks[0]
    const wall = first ? at - first.at : 0
    return wall > 0 ? Math.min(1, (busyMs - first.busyMs) / wall) : 0
  }
}

const MARK_MS = 250
const WINDOW_MS = 3000
