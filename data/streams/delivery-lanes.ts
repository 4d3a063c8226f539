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
 */
import { performance } from 'node:perf_hooks'

/** Steps that may be in flight at once (they overlap when the store's reads wait on the network). */
const LANES = 16
/** How long deliveries may run before the loop gets to poll for I/O. */
const SLICE_MS = 8

export class DeliveryLanes<T> {
  private readonly ready: T[] = []
  private running = 0
  private sliceStart = -Infinity
  private parked: (() => void)[] = []
  private nextScheduled = false

  /** `step` does one step of one item; it handles its own errors. */
  constructor(private readonly step: (item: T) => Promise<void>) {}

  /** Queues one step of `item` (its owner makes sure each item is queued at most once at a time). */
  add(item: T): void {
    this.ready.push(item)
    if (this.running < LANES) {
      this.running++
      void this.lane()
    }
  }

  /** Items waiting for a lane. */
  get waiting(): number {
    return this.ready.length
  }

  private async lane(): Promise<void> {
    try {
      for (;;) {
        if (performance.now() - this.sliceStart >= SLICE_MS) await this.nextSlice()
        const item = this.ready.shift()
        if (item === undefined) return
        await this.step(item)
      }
    } finally {
      this.running--
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
