/**
 * How many long scans (the searches that read a table row by row) run at
 * once. Each scan yields to the event loop between chunks, so every scan
 * running adds a chunk's work to what another request waits for; a bound on
 * how many run bounds that wait. A scan past the bound waits its turn in a
 * short queue (a client typing into a search box sends a few at once); past
 * the queue it is refused at once with `rate_limited` (a 429 with
 * `Retry-After`), so no more requests, and their sockets, are held than the
 * queue's few.
 */
import { DomainError } from '../errors.js'

/** Seconds a refused search is told to wait: scans bounded as they are end within about that. */
const RETRY_AFTER_S = 1
/** Scans that may wait for a place, per place. */
const WAITING_PER_SCAN = 4

export class ScanGate {
  private running = 0
  private readonly waiting: (() => void)[] = []

  constructor(
    /** Scans allowed at once. */
    readonly limit: number,
    /** Scans that may wait for a place. */
    readonly queue = limit * WAITING_PER_SCAN,
  ) {}

  /** Scans now running. */
  get active(): number {
    return this.running
  }

  /** Scans now waiting for a place. */
  get queued(): number {
    return this.waiting.length
  }

  /**
   * Runs `scan` once fewer than `limit` scans are running (waiting in the
   * queue for a place); answers what it answers. Errors: `rate_limited` when
   * the queue is full too.
   */
  async run<T>(scan: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running++
    else if (this.waiting.length < this.queue) await new Promise<void>((resolve) => this.waiting.push(resolve))
    else {
      throw new DomainError(
        'rate_limited',
        `Too Many Requests: the server is running as many searches as it takes at once; retry in ${RETRY_AFTER_S} second.`,
        { slug: 'search-busy', retryAfter: RETRY_AFTER_S },
      )
    }
    try {
      return await scan()
    } finally {
      // The place goes straight to the first in line, if any.
      const next = this.waiting.shift()
      if (next) next()
      else this.running--
    }
  }
}
