/**
 * The share of the server's time that federation work (the inbox POSTs, the
 * handling of the activities they queued) may take, so that a burst from
 * other servers slows the burst, not the instance's own users. Work passes
 * through a gate: a few pieces at once, each admitted only while there is
 * credit, which builds up at `share` of the wall clock, or at what the rest
 * of the server leaves spare when that is more (`allowance`), to at most
 * `burstMs`, and is spent by federation's CPU time while pieces run. A piece
 * that cannot start waits in line; the queue's workers (`first`) go before
 * new inbox POSTs, so the server takes in no more than it gets done. A POST
 * that finds the line full, or is not admitted within its wait, is refused:
 * the sender is told when to try again (`retryAfterS`), as servers do.
 *
 * Federation's CPU time is this thread's time on a CPU while pieces run
 * (Linux's /proc/thread-self/schedstat) less what the rest of the server
 * took meanwhile, at the rate it takes when no piece runs, while the thread
 * had time to spare; on a thread busy all along, all of it (`restCounted`).
 * Wall time would count the disk's waits, other processes' turns on a
 * shared machine and the local requests served between a piece's steps, and
 * throttle federation to a crawl whenever the server is busy at all.
 * Without schedstat, wall time it is. A piece is charged a quarter of its
 * thread's time at least.
 */
import { openSync, readSync } from 'node:fs'

export interface WorkShareOptions {
  /** The part of the wall clock federation work may take, over 0 and at most 1. */
  share: number
  /** Inbox POSTs (pieces not `first`) at once. The queue's pieces are bounded by its workers, and take no such place: one waiting on a remote server must not shut the inbox. */
  concurrency: number
  /** The most credit that builds up while federation is idle, ms. */
  burstMs: number
  /** Pieces that may wait in line (besides the `first`, bounded by their callers). */
  waiting: number
  /** The wall clock and this thread's CPU time (null: not to be had), ms; default the real ones. */
  clock?: () => { wall: number; cpu: number | null }
}

interface Waiter {
  admit: () => void
}

/** Which line a piece is in: the queue's (`first`), or the inbox POSTs'. */
type Line = { first: boolean }

/** Ends a piece of work. */
export type Release = () => void

/** Seconds a refused sender is told to wait, at least and at most. */
const RETRY_AFTER_MIN_S = 1
const RETRY_AFTER_MAX_S = 300

/** This thread's schedstat (thread-self is the thread that opened it: each worker has its own copy of this module), open for as long as the process runs and read again from its start each time, not opened anew: an open and a close per turn of the gate cost more than the read. */
let schedstat: number | null | undefined
const schedstatBuffer = Buffer.alloc(128)

/** This thread's time on a CPU, ms; null where Linux's schedstat is not to be had (not Linux, or /proc not mounted: wall time only). */
function threadCpuMs(): number | null {
  if (schedstat === undefined) {
    try {
      schedstat = openSync('/proc/thread-self/schedstat', 'r')
    } catch {
      schedstat = null
    }
  }
  if (schedstat === null) return null
  try {
    const read = readSync(schedstat, schedstatBuffer, 0, schedstatBuffer.length, 0)
    return Number(schedstatBuffer.toString('latin1', 0, read).split(' ')[0]) / 1e6
  } catch {
    return null
  }
}

/** The wall clock, and this thread's time on a CPU (null where Linux's schedstat is not to be had), ms. */
function realClock(): { wall: number; cpu: number | null } {
  return { wall: performance.now(), cpu: threadCpuMs() }
}

/** The most of a running piece's thread time that is put down to the rest of the server. */
const MOST_OF_THE_REST = 0.75
/**
 * How busy the thread may be while pieces run for the rest's rate to be put
 * down to the rest in full, and from how busy none of it is. With time to
 * spare, the local requests got what they asked; on a thread busy all along
 * they may have waited behind federation's pieces, and what they did not
 * get is no measure of what they would have taken: then federation is
 * charged all the thread's time, so a burst cannot take the time the
 * instance's own users are waiting for (it had taken two thirds of it).
 */
const SPARE_BELOW = 0.8
const SATURATED_FROM = 0.95

/** The part of the rest's rate put down to the rest, for a thread this busy while pieces ran. */
function restCounted(busy: number): number {
  return Math.min(1, Math.max(0, (SATURATED_FROM - busy) / (SATURATED_FROM - SPARE_BELOW)))
}

/**
 * What federation leaves the rest of the server beyond what it was seen to
 * take, and so the most it takes of a thread nobody else needs: a local
 * request that comes finds the thread free most of the time, and one that
 * does not waits for a piece at most.
 */
const HEADROOM = 0.2

/** How long the rest of the server's rate remembers what it took (the decay's time constant), ms. */
const RATE_MEMORY_MS = 2000

export class WorkShare {
  private credit: number
  private running = 0
  /** Of those, the inbox POSTs. */
  private runningOthers = 0
  private readonly firsts: Waiter[] = []
  private readonly others: Waiter[] = []
  private timer: NodeJS.Timeout | null = null
  private readonly clock: NonNullable<WorkShareOptions['clock']>
  /** When the credit was last brought up to date: the wall clock and this thread's CPU time, ms. */
  private at: number
  private cpuAt: number | null
  /** This thread's CPU time per wall time while no piece runs: the rest of the server's rate, decaying sums. */
  private idleCpu = 0
  private idleWall = 0
  /** Federation's CPU time spent so far, ms. */
  private spent = 0
  /** The mean CPU time of a piece, ms (an average over the last few). */
  private meanMs = 10

  constructor(readonly options: WorkShareOptions) {
    this.credit = options.burstMs
    this.clock = options.clock ?? realClock
    const { wall, cpu } = this.clock()
    this.at = wall
    this.cpuAt = cpu
  }

  /** Federation's CPU time so far, as charged, ms. */
  get spentMs(): number {
    return this.spent
  }

  /** Pieces of work running now. */
  get active(): number {
    return this.running
  }

  /**
   * The part of the thread federation may take now: its share, or what the
   * rest of the server leaves spare (its rate while no piece ran, and
   * `HEADROOM`) when that is more. Its share only until the rest's rate is
   * known, and where this thread's CPU time is not to be had. Federation
   * slows local users by its share at most, and is not held to it on a
   * server with time to spare.
   */
  get allowance(): number {
    const rest = this.restRate
    return rest === null ? this.options.share : Math.max(this.options.share, 1 - HEADROOM - rest)
  }

  /** The rest of the server's CPU time per wall time while no piece ran; null until seen (or without this thread's CPU time). */
  private get restRate(): number | null {
    return this.idleWall > 0 ? this.idleCpu / this.idleWall : null
  }

  /** Pieces waiting in line now. */
  get queued(): number {
    return this.firsts.length + this.others.length
  }

  /**
   * Waits for a turn: the release to call when the piece is done, or null
   * when the line is full or no turn came within `waitMs` (default: waits as
   * long as it takes). `first` goes before the others (the queue's workers).
   */
  enter({ waitMs, first = false }: { waitMs?: number; first?: boolean } = {}): Promise<Release | null> {
    const ahead = first ? this.firsts.length : this.queued
    if (ahead === 0 && this.startable({ first })) return Promise.resolve(this.start({ first }))
    if (!first && this.others.length >= this.options.waiting) return Promise.resolve(null)
    return new Promise((resolve) => {
      const line = first ? this.firsts : this.others
      let timeout: NodeJS.Timeout | undefined
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(timeout)
          resolve(this.start({ first }))
        },
      }
      if (waitMs !== undefined) {
        timeout = setTimeout(() => {
          line.splice(line.indexOf(waiter), 1)
          resolve(null)
        }, waitMs)
      }
      line.push(waiter)
      this.schedule()
    })
  }

  /** Whole seconds after which a refused piece may well be admitted: the line's wait at the allowance's pace. */
  retryAfterS(): number {
    const ms = ((this.queued + 1) * this.meanMs) / this.allowance
    return Math.min(RETRY_AFTER_MAX_S, Math.max(RETRY_AFTER_MIN_S, Math.ceil(ms / 1000)))
  }

  /** Brings the credit up to date: what the wall clock added, what federation's pieces spent since. */
  private account(): void {
    const { wall: now, cpu } = this.clock()
    const wall = now - this.at
    const used = cpu === null || this.cpuAt === null ? null : cpu - this.cpuAt
    if (this.running === 0) {
      if (used !== null) {
        const keep = Math.exp(-wall / RATE_MEMORY_MS)
        this.idleCpu = this.idleCpu * keep + used
        this.idleWall = this.idleWall * keep + wall
      }
    } else {
      // At most three quarters put down to the rest: on a thread the local requests keep busy, federation is charged still.
      const rest = Math.min(MOST_OF_THE_REST, this.restRate ?? 0)
      const spent = used === null ? wall : Math.max(0, used - rest * wall * restCounted(wall > 0 ? used / wall : 1))
      this.credit -= spent
      this.spent += spent
    }
    this.credit = Math.min(this.options.burstMs, this.credit + wall * this.allowance)
    this.at = now
    this.cpuAt = cpu
  }

  private startable({ first }: Line): boolean {
    this.account()
    return this.credit > 0 && (first || this.runningOthers < this.options.concurrency)
  }

  /** Starts a piece: always right after `startable` brought the credit up to date. */
  private start({ first }: Line): Release {
    this.running++
    if (!first) this.runningOthers++
    const spentBefore = this.spent
    let released = false
    return () => {
      if (released) return
      released = true
      this.account()
      this.running--
      if (!first) this.runningOthers--
      const took = this.spent - spentBefore
      this.meanMs += (took - this.meanMs) / 8
      this.schedule()
    }
  }
  /** Admits those in line while there is room and credit; else wakes when the credit will be there. */
  private schedule(): void {
    while (this.firsts.length > 0 && this.startable({ first: true })) this.firsts.shift()!.admit()
    while (this.firsts.length === 0 && this.others.length > 0 && this.startable({ first: false })) this.others.shift()!.admit()
    // With credit left, what waits, waits for a place, which a release gives.
    if (this.timer || this.queued === 0 || this.credit > 0) return
    const wait = Math.ceil(-this.credit / this.allowance) + 1
    this.timer = setTimeout(() => {
      this.timer = null
      this.schedule()
    }, wait)
  }
}
