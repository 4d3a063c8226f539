/**
 * The share of the server's time that federation work (the inbox POSTs, the
 * handling of the activities they queued) may take, so that a burst from
 * other servers slows the burst, not the instance's own users. Work passes
 * through a gate: a few pieces at once, each admitted only while there is
 * credit, which builds up at `share` of the wall clock (to at most
 * `burstMs`) and is spent by each piece's wall time when it ends. A piece
 * that cannot start waits in line; the queue's workers (`first`) go before
 * new inbox POSTs, so the server takes in no more than it gets done. A POST
 * finds the line full, or is not admitted within its wait, and is refused:
 * the sender is told when to try again (`retryAfterS`), as servers do.
 *
 * Wall time overstates a piece's own work (it includes the turns of others
 * and the disk's waits), so the share is an upper bound of federation's.
 */

export interface WorkShareOptions {
  /** The part of the wall clock federation work may take, over 0 and at most 1. */
  share: number
  /** Pieces of work at once. */
  concurrency: number
  /** The most credit that builds up while federation is idle, ms. */
  burstMs: number
  /** Pieces that may wait in line (besides the `first`, bounded by their callers). */
  waiting: number
}

interface Waiter {
  admit: () => void
}

/** Ends a piece of work: its wall time is spent from the credit. */
export type Release = () => void

/** Seconds a refused sender is told to wait, at least and at most. */
const RETRY_AFTER_MIN_S = 1
const RETRY_AFTER_MAX_S = 300

export class WorkShare {
  private credit: number
  private refilledAt = performance.now()
  private running = 0
  private readonly firsts: Waiter[] = []
  private readonly others: Waiter[] = []
  private timer: NodeJS.Timeout | null = null
  /** The mean wall time of a piece, ms (an average over the last few). */
  private meanMs = 10

  constructor(readonly options: WorkShareOptions) {
    this.credit = options.burstMs
  }

  /** Pieces of work running now. */
  get active(): number {
    return this.running
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
    if (this.queued === 0 && this.startable()) return Promise.resolve(this.start())
    if (!first && this.others.length >= this.options.waiting) return Promise.resolve(null)
    return new Promise((resolve) => {
      const line = first ? this.firsts : this.others
      let timeout: NodeJS.Timeout | undefined
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(timeout)
          resolve(this.start())
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

  /** Whole seconds after which a refused piece may well be admitted: the line's wait at the share's pace. */
  retryAfterS(): number {
    const ms = ((this.queued + 1) * this.meanMs) / this.options.share / this.options.concurrency
    return Math.min(RETRY_AFTER_MAX_S, Math.max(RETRY_AFTER_MIN_S, Math.ceil(ms / 1000)))
  }

  private refill(): void {
    const now = performance.now()
    this.credit = Math.min(this.options.burstMs, this.credit + (now - this.refilledAt) * this.options.share)
    this.refilledAt = now
  }

  private startable(): boolean {
    this.refill()
    return this.running < this.options.concurrency && this.credit > 0
  }

  private start(): Release {
    this.running++
    const began = performance.now()
    let released = false
    return () => {
      if (released) return
      released = true
      const took = performance.now() - began
      this.running--
      this.meanMs += (took - this.meanMs) / 8
      this.refill()
      this.credit -= took
      this.schedule()
    }
  }

  /** Admits those in line while there is room and credit; else wakes when the credit will be there. */
  private schedule(): void {
    while (this.queued > 0 && this.startable()) (this.firsts.shift() ?? this.others.shift())!.admit()
    if (this.timer || this.queued === 0 || this.running >= this.options.concurrency) return
    const wait = Math.ceil(-this.credit / this.options.share) + 1
    this.timer = setTimeout(() => {
      this.timer = null
      this.schedule()
    }, wait)
  }
}
