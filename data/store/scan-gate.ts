/**
 * How many long scans (the searches that read a table row by row) run at
 * once. Each scan yields to the event loop between chunks, so every scan
 * running adds a chunk's work to what another request waits for; a bound on
 * how many run bounds that wait. A scan past the bound is refused at once
 * with `rate_limited` (a 429 with `Retry-After`), not queued: a queue would
 * hold requests, and their sockets, for as long as the scans ahead of them.
 */
import { DomainError } from '../errors.js'

/** Seconds a refused search is told to wait: scans bounded as they are end within about that. */
const RETRY_AFTER_S = 1

export class ScanGate {
  private running = 0

  constructor(
    /** Scans allowed at once. */
    readonly limit: number,
  ) {}

  /** Scans now running. */
  get active(): number {
    return this.running
  }

  /**
   * Runs `scan` when fewer than `limit` scans are running; answers what it
   * answers. Errors: `rate_limited` when the bound is reached.
   */
  async run<T>(scan: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      throw new DomainError(
        'rate_limited',
        `Too Many Requests: the server is running as many searches as it takes at once; retry in ${RETRY_AFTER_S} second.`,
        {
          slug: 'search-busy',
          retryAfter: RETRY_AFTER_S,
        },
      )
    }
    this.running++
    try {
      return await scan()
    } finally {
      this.running--
    }
  }
}
