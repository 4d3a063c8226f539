/**
 * Outgoing deliveries as a durable consumer of the event log. A stored
 * cursor (`log_cursors` row `federation.outbox`) says up to which seq the
 * events were handled: the pump reads the events after it in order
 * (`EventLog.after`), hands each to `deliver` (which puts its deliveries on
 * Fedify's durable queue) and then moves the cursor: at once after an event
 * that queued deliveries, within a few seconds after others (most events
 * need none, and a write each would double the commits). It runs when an
 * event arrives, on `start` (what a crash left behind), and now and then;
 * the log keeps every event the cursor has not passed (`holdFrom`).
 *
 * A kill -9 after a commit and before its deliveries were queued loses
 * nothing: the next start finds the event after the cursor. One after they
 * were queued and before the cursor moved queues them again (at least
 * once): the activities' ids are stable, so the receiving servers drop the
 * second copy. The first start with federation on begins at the head:
 * what was posted before is not sent.
 *
 * Nodes sharing a PostgreSQL store pump one at a time: the one holding the
 * lease (`federation_leases` row `federation.outbox`, taken and renewed in
 * transactions, which nodes commit one at a time). It renews it while it
 * runs and gives it back when it stops; should it die, another node takes it
 * once it ends. A process alone on its store (the embedded one, which a lock
 * keeps to one process) needs no lease.
 */
import type { DomainEvent } from '../../model/event.js'
import type { EventLog } from '../../events/event-log.js'
import type { Store, Tx } from '../../store/port.js'
import { isoNow } from '../../time.js'

/** The cursor's row in `log_cursors`, and the lease's in `federation_leases`. */
export const OUTBOX = 'federation.outbox'

export interface OutboxNode {
  /** This process's id among the nodes of the store. */
  id: string
  /** Whether other processes share the store (PostgreSQL): then the lease decides who pumps. */
  shared: boolean
}

export interface OutboxOptions {
  /** How long a lease lasts unless renewed, ms (default 30 s); a node that died is replaced within about this. */
  leaseMs?: number
  /** Events read at a time (default 100). */
  batch?: number
  /** The first wait before trying again an event whose delivery failed, ms (default 1 s, doubling up to 5 minutes). */
  retryMs?: number
}

/** Tries of one event before it is passed over with a warning: a delivery that can never be queued must not stop the others. */
const MAX_TRIES = 8
const MAX_RETRY_MS = 5 * 60_000
/** How soon a node that does not pump looks at the lease after an event (its holder may have given it back). */
const LOOK_MS = 1000
/** How long the cursor may lag behind events that needed no delivery (saved then, or at stop). */
const LAZY_SAVE_MS = 5_000

const warn = (what: string, err: unknown) => process.emitWarning(`svc: ${what}: ${(err as Error).message}`)

export class OutboxPump {
  private readonly leaseMs: number
  private readonly batch: number
  private readonly retryMs: number
  /** Every event up to here was handled (by this node, or by whoever moved the stored cursor there). */
  private position = 0
  /** The cursor as last stored. */
  private saved = 0
  /** The lease is this node's until then (ms); 0: not this node's. */
  private heldUntil = 0
  private running: Promise<void> | null = null
  private again = false
  private stopped = true
  private failures = 0
  /** No pass before then (ms): an event failed and waits for its next try. */
  private retryAt = 0
  /** When the cursor was stored last (ms). */
  private savedAt = Date.now()
  private failedSeq = 0
  private readonly timers: NodeJS.Timeout[] = []
  private retryTimer: NodeJS.Timeout | null = null
  private look: NodeJS.Timeout | null = null
  private readonly releases: (() => void)[] = []

  constructor(
    private readonly store: Store,
    private readonly events: EventLog,
    private readonly node: OutboxNode,
    /** Queues the deliveries `event` asks for; true when it queued any. */
    private readonly deliver: (event: DomainEvent) => Promise<boolean>,
    { leaseMs = 30_000, batch = 100, retryMs = 1000 }: OutboxOptions = {},
  ) {
    this.leaseMs = leaseMs
    this.batch = batch
    this.retryMs = retryMs
  }

  /** Reads the stored cursor (on the first start ever: sets it at the head), then pumps what is after it and follows the log. */
  async start(): Promise<void> {
    if (!this.stopped) return
    this.stopped = false
    const { seq, ahead } = await this.store.transact(async (tx) => {
      const row = await tx.log_cursors.one('name', OUTBOX)
      // The newest event as the store has it (writers commit one at a time: nothing newer is under way).
      const [head = 0] = await tx.event_log.scan({ limit: 1 })
      if (!row) tx.log_cursors.insert({ name: OUTBOX, seq: head, updated_at: isoNow() })
      // A cursor past the newest event (a store whose log went back) would take every event to come for handled.
      else if (row.seq > head) tx.log_cursors.put({ ...row, seq: head, updated_at: isoNow() })
      else return { seq: row.seq, ahead: null }
      return { seq: head, ahead: row && row.seq }
    })
    this.saved = this.position = seq
    if (ahead !== null)
      process.emitWarning(`svc: the federation outbox had read up to event ${ahead}, past the newest the log holds (${seq}); it goes on from ${seq}`)
    if (this.position < this.events.oldest() - 1)
      process.emitWarning(
        `svc: the event log no longer holds events ${this.position + 1} to ${this.events.oldest() - 1}, which federation had not delivered (was federation off?); they are not sent`,
      )
    this.releases.push(
      this.events.holdFrom(() => this.position),
      this.events.onAny(() => this.wake()),
    )
    // Renews the lease while pumping, takes it over when its holder stopped renewing, saves a lagging cursor.
    const tick = setInterval(() => this.wake(true), Math.max(10, Math.floor(this.leaseMs / 3)))
    tick.unref()
    this.timers.push(tick)
    this.wake(true)
  }

  /** Lets the pass under way finish its event, saves the cursor, gives the lease back. */
  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    for (const release of this.releases.splice(0)) release()
    for (const timer of this.timers.splice(0)) clearInterval(timer)
    if (this.retryTimer) clearTimeout(this.retryTimer)
    if (this.look) clearTimeout(this.look)
    await this.running
    if (this.heldUntil > 0 || !this.node.shared) {
      await this.store
        .transact(async (tx) => {
          if (!(await this.holds(tx, Date.now()))) return
          await this.saveIn(tx)
          const lease = await tx.federation_leases.one('name', OUTBOX)
          if (lease && lease.holder === this.node.id) tx.federation_leases.put({ ...lease, until: 0 })
        })
        .catch((err: unknown) => warn('saving the federation outbox cursor failed', err))
      this.heldUntil = 0
    }
  }

  /**
   * Runs a pass, or another one after the pass under way. An event while
   * another node holds the lease (as last seen) is that node's to deliver:
   * this one only looks at the lease again within `LOOK_MS`, in case the
   * holder gave it back. `tick`: a pass whoever holds it.
   */
  private wake(tick = false): void {
    if (this.stopped) return
    if (this.running) {
      this.again = true
      return
    }
    if (!tick && this.node.shared && this.heldUntil === 0) {
      if (!this.look) {
        this.look = setTimeout(() => {
          this.look = null
          this.wake(true)
        }, LOOK_MS)
        this.look.unref()
      }
      return
    }
    this.running = this.pass()
      .catch((err: unknown) => {
        if (!this.stopped) warn('federation outbox', err)
      })
      .finally(() => {
        this.running = null
        if (this.again && !this.stopped) {
          this.again = false
          this.wake(true)
        }
      })
  }

  /** Whether the lease is this node's (always, alone on the store): read in `tx`. */
  private async holds(tx: Tx, now: number): Promise<boolean> {
    if (!this.node.shared) return true
    const lease = await tx.federation_leases.one('name', OUTBOX)
    return lease !== null && lease.holder === this.node.id && lease.until > now
  }

  /**
   * Makes sure the lease is this node's for a while yet: renews it (or takes
   * it, free or ended) in a transaction once half of it has gone. Taking it
   * reads the stored cursor: the last holder moved it.
   */
  private async lead(): Promise<boolean> {
    if (!this.node.shared) return true
    const now = Date.now()
    if (this.heldUntil - now > this.leaseMs / 2) return true
    // Most looks find another node's lease: a read says so without a transaction.
    const seen = await this.store.read.federation_leases.one('name', OUTBOX)
    if (seen && seen.holder !== this.node.id && seen.until > now) {
      this.heldUntil = 0
      // Not this node's to pump: the log must still keep what the holder has not passed.
      this.position = this.saved = (await this.store.read.log_cursors.one('name', OUTBOX))?.seq ?? this.position
      return false
    }
    const until = now + this.leaseMs
    const taken = await this.store.transact(async (tx) => {
      const lease = await tx.federation_leases.one('name', OUTBOX)
      const cursor = await tx.log_cursors.one('name', OUTBOX)
      if (lease && lease.holder !== this.node.id && lease.until > now) return { mine: false, until: lease.until, seq: cursor?.seq ?? 0 }
      if (lease) tx.federation_leases.put({ ...lease, holder: this.node.id, until })
      else tx.federation_leases.insert({ name: OUTBOX, holder: this.node.id, until })
      return { mine: true, until, seq: cursor?.seq ?? 0 }
    })
    if (taken.mine) {
      // A lease this node lost meanwhile (it ended while a pass was slow): the new holder's cursor counts.
      if (this.heldUntil === 0 || taken.seq > this.position) this.position = taken.seq
      this.saved = taken.seq
      this.heldUntil = taken.until
    } else {
      this.heldUntil = 0
      // Not this node's to pump: the log must still keep what the holder has not passed.
      this.position = this.saved = taken.seq
    }
    return taken.mine
  }

  /** Stores the cursor at `position` in `tx`, renewing the lease (the caller checked it is held). */
  private async saveIn(tx: Tx): Promise<void> {
    const row = await tx.log_cursors.one('name', OUTBOX)
    if (row) tx.log_cursors.put({ ...row, seq: this.position, updated_at: isoNow() })
    else tx.log_cursors.insert({ name: OUTBOX, seq: this.position, updated_at: isoNow() })
  }

  /** Moves the stored cursor to `position`, if the lease is still this node's; false when it is not (another took it). */
  private async save(): Promise<boolean> {
    if (this.position === this.saved) return true
    const position = this.position
    const now = Date.now()
    const until = now + this.leaseMs
    const kept = await this.store.transact(async (tx) => {
      if (!(await this.holds(tx, now))) return false
      await this.saveIn(tx)
      if (this.node.shared) {
        const lease = await tx.federation_leases.one('name', OUTBOX)
        if (lease) tx.federation_leases.put({ ...lease, until })
      }
      return true
    })
    if (!kept) {
      this.heldUntil = 0
      return false
    }
    this.saved = position
    this.savedAt = Date.now()
    if (this.node.shared) this.heldUntil = until
    return true
  }

  /** Reads the events after the cursor and queues their deliveries, moving the cursor after those that needed any. */
  private async pass(): Promise<void> {
    if (Date.now() < this.retryAt || !(await this.lead())) return
    for (;;) {
      if (this.stopped) break
      const batch = await this.events.after(this.position, this.batch)
      if (batch.length === 0) break
      let delivered = false
      for (const event of batch) {
        if (this.stopped) break
        let queued = false
        try {
          queued = await this.deliver(event)
        } catch (err) {
          if (!this.retry(event, err)) {
            await this.save()
            return
          }
        }
        this.position = event.seq
        delivered ||= queued
      }
      // Deliveries were queued: the cursor moves now, so that a crash repeats as little as can be. Events that queued none may wait a little.
      if ((delivered || Date.now() - this.savedAt > LAZY_SAVE_MS) && !(await this.save())) return
    }
    if (Date.now() - this.savedAt > LAZY_SAVE_MS) await this.save()
  }

  /** An event whose delivery failed: true to pass over it (tried too often), false to try it again later. */
  private retry(event: DomainEvent, err: unknown): boolean {
    if (this.failedSeq !== event.seq) {
      this.failedSeq = event.seq
      this.failures = 0
    }
    this.failures += 1
    if (this.failures >= MAX_TRIES) {
      warn(`delivering event ${event.seq} (${event.name}) failed ${this.failures} times; it is passed over`, err)
      return true
    }
    warn(`delivering event ${event.seq} (${event.name}) failed; trying again`, err)
    const delay = Math.min(MAX_RETRY_MS, this.retryMs * 2 ** (this.failures - 1))
    this.retryAt = Date.now() + delay
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(() => {
      // A timer may fire a little before the clock says `retryAt`: the wait is over all the same.
      this.retryAt = 0
      this.wake(true)
    }, delay)
    this.retryTimer.unref()
    return false
  }
}
