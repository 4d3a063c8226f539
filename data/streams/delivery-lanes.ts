/**
 * Turns of the main thread for stream deliveries, so that fan-out never
 * starves the requests that made its events.
 *
 * Streams with work wait in one queue, first come first served; a few
 * lanes take one step of one stream at a time (a delivery, a batch of a
 * catch-up). Steps run in slices of a few milliseconds: when a slice is
 * used up, every lane waits for the next turn of the event loop, after the
 * loop has polled for I/O. Store reads resolve at once on the embedded
 * store, so without slices ten thousand streams' deliveries would run as
 * one chain of microtasks and hold off every request for seconds; with
 * them a request waits at most about one slice per step of its own. On a
 * store whose reads are real I/O, the lanes overlap their waits.
 *
 * When more work comes than the process can do, the queue grows and every
 * stream's wait with it. Rather than let all of them drift late together,
 * the lanes tell their owner they are behind (at most every half second,
 * so what it did about it shows before it is asked again); the owner
 * disconnects as many streams as the excess (stream-overload.ts), and
 * those that stay keep receiving with a bounded wait.
 */
import { performance } from 'node:perf_hooks'

/** Steps that may be in flight at once (they overlap when the store's reads wait on the network). */
const LANES = 16
/** How long deliveries may run before the loop gets to poll for I/O. */
const SLICE_MS = 8
/** The longest a stream should wait for its turn; past it the lanes are behind. */
const TURN_TARGET_MS = 500
/** How often at most the owner hears that the lanes are behind. */
const BEHIND_EVERY_MS = 500

interface Queued<T> {
  item: T
  at: number
}

export class DeliveryLanes<T> {
  private ready: Queued<T>[] = []
  private head = 0
  private running = 0
  private sliceStart = -Infinity
  private parked: (() => void)[] = []
  private nextScheduled = false
  /** When the owner last heard that the lanes are behind. */
  private toldAt = -Infinity
  /** Time the lanes have had work, in all, and since when they have it now. */
  private busyTotal = 0
  private busySince: number | null = null

  /**
   * `step` does one step of one item and handles its own errors; `behind`
   * hears how long the item at the head waited, when that is past the
   * target (an item its owner no longer wants should then step at no cost).
   */
  constructor(
    private readonly step: (item: T) => Promise<void>,
    private readonly behind: (waitedMs: number) => void = () => {},
  ) {}

  /** Queues one step of `item` (its owner makes sure each item is queued at most once at a time). */
  add(item: T): void {
    this.ready.push({ item, at: performance.now() })
    if (this.running < LANES) {
      if (this.running === 0) this.busySince = performance.now()
      this.running++
      void this.lane()
    }
  }

  /** Milliseconds the lanes have had work so far (their own steps and the requests served between their slices). */
  busyMs(now: number = performance.now()): number {
    return this.busyTotal + (this.busySince === null ? 0 : now - this.busySince)
  }

  /** Items waiting for a lane. */
  get waiting(): number {
    return this.ready.length - this.head
  }

  private take(): T | undefined {
    if (this.head >= this.ready.length) return undefined
    const now = performance.now()
    const { at } = this.ready[this.head]
    const waited = now - at
    if (waited > TURN_TARGET_MS && now - this.toldAt >= BEHIND_EVERY_MS) {
      this.toldAt = now
      this.behind(waited)
    }
    const next = this.ready[this.head++]
    // Compact now and then, so the array does not grow with every step ever queued.
    if (this.head > 1024 && this.head * 2 > this.ready.length) {
      this.ready = this.ready.slice(this.head)
      this.head = 0
    }
    return next.item
  }

  private async lane(): Promise<void> {
    try {
      for (;;) {
        if (performance.now() - this.sliceStart >= SLICE_MS) await this.nextSlice()
        const item = this.take()
        if (item === undefined) return
        await this.step(item)
      }
    } finally {
      this.running--
      if (this.running === 0 && this.busySince !== null) {
        this.busyTotal += performance.now() - this.busySince
        this.busySince = null
      }
    }
  }

  private nextSlice(): Promise<void> {
    return new Promise((resolve) => {
      this.parked.push(resolve)
      if (this.nextScheduled) return
      this.nextScheduled = true
      setImmediate(() => {
        this.nextScheduled = false
        this.sliceStart = performance.now()
        const parked = this.parked
        this.parked = []
        for (const go of parked) go()
      })
    })
  }
}
