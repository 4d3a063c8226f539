/**
 * What an operator's tools ask of a running instance: whether it can serve
 * now (a load balancer's readiness check), and the numbers its metrics show.
 * Read from the services as they stand, without a write and without a scan.
 */
import type { EventLog } from '../events/event-log.js'
import type { StreamHub } from '../streams/stream-hub.js'
import type { AppStreamHub } from '../streams/app-stream-hub.js'
import type { Store } from '../store/port.js'
import { isDomainError } from '../errors.js'

/** How long a readiness check waits for the store before it says the instance cannot serve. */
const READY_WAIT_MS = 2_000

export type Readiness = { ready: true } | { ready: false; reason: string }

export interface InstanceFacts {
  /** The event log's newest seq. */
  eventHead: number
  /** The oldest seq the log still holds. */
  eventOldest: number
  /** Rows per table, and the embedded store's journal. */
  rows: Record<string, number>
  journalBytes: number
  userStreams: {
    connected: number
    /** Events waiting in the connected streams' backlogs, all together. */
    backlog: number
    /** How far the furthest behind connected stream is from the log's head, in events. */
    lag: number
    /** Streams with events waiting for a turn of delivery. */
    waiting: number
    /** Consumers disconnected so far because their events waited too long (the server was behind). */
    shed: number
  }
  appStreams: {
    /** App streams with a consumer connected. */
    connected: number
    /** Events between each app stream's position and the log's head, all together. */
    queued: number
  }
}

export class HealthService {
  private stopping = false

  constructor(
    private readonly store: Store,
    private readonly events: EventLog,
    private readonly hub: StreamHub,
    private readonly appHub: AppStreamHub,
  ) {}

  /** From now on the instance is not ready: it is stopping, and a load balancer should send no one new. */
  markStopping(): void {
    this.stopping = true
  }

  async readiness(): Promise<Readiness> {
    if (this.stopping) return { ready: false, reason: 'the server is stopping' }
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<Readiness>((resolve) => {
      timer = setTimeout(() => resolve({ ready: false, reason: `the store did not answer within ${READY_WAIT_MS} ms` }), READY_WAIT_MS)
    })
    const answered = this.store.ping().then(
      (): Readiness => ({ ready: true }),
      (err: unknown): Readiness => ({ ready: false, reason: isDomainError(err) ? err.message : 'the store cannot be reached' }),
    )
    try {
      return await Promise.race([answered, late])
    } finally {
      clearTimeout(timer)
    }
  }

  facts(): InstanceFacts {
    const stats = this.store.stats()
    const apps = this.appHub.facts()
    return {
      eventHead: this.events.head(),
      eventOldest: this.events.oldest(),
      rows: stats.rows,
      journalBytes: stats.journalBytes,
      userStreams: this.hub.load(),
      appStreams: {
        connected: apps.filter((a) => a.connected).length,
        queued: apps.reduce((sum, a) => sum + a.queueDepth, 0),
      },
    }
  }
}
