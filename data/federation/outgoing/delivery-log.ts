/**
 * What became of outgoing deliveries, for the operator (`svc federation
 * queue`): each try of an outbox message (one activity to one inbox) is
 * watched while Fedify runs it, and its outcome lands in that inbox host's
 * `federation_hosts` row: delivered, failed (the error, when, which try) or
 * given up after the last try. One row per host holding counts and the last
 * of each outcome: bounded however much goes out. Outcomes are written a
 * second at a time, all hosts in one transaction.
 *
 * Fedify says a try failed through `onOutboxError` and gives up when the
 * retry policy answers no delay; neither names the inbox. Both run inside
 * the queue's handler, so the message being handled is found in an
 * AsyncLocalStorage set around it (`around`, which the queue calls). Node
 * 20's AsyncLocalStorage runs promise hooks on every promise of the process
 * while it is enabled (about a tenth of every request's time), so it is
 * enabled only while a delivery is under way.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { DeliveryFailure, FederationHostRow, FederationQueueRow } from '../../model/federation.js'
import type { Store } from '../../store/port.js'

/** The fields of Fedify's outbox message this reads. */
interface OutboxMessage {
  type: 'outbox'
  inbox: string
  activityId?: string
  attempt: number
}

/** Fanout messages name their inboxes; an outbox message one. */
interface FanoutMessage {
  type: 'fanout'
  inboxes: Record<string, unknown>
}

interface Attempt {
  error: unknown
  gaveUp: boolean
}

/** Errors are kept this long at most. */
const ERROR_CHARS = 300

export const isOutbox = (message: unknown): message is OutboxMessage =>
  typeof message === 'object' && message !== null && (message as OutboxMessage).type === 'outbox' && typeof (message as OutboxMessage).inbox === 'string'

const isFanout = (message: unknown): message is FanoutMessage =>
  typeof message === 'object' && message !== null && (message as FanoutMessage).type === 'fanout' && typeof (message as FanoutMessage).inboxes === 'object'

export const hostOf = (url: string): string => {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/** A thrown value as one short line, with its cause (fetch's "fetch failed" says why only there). */
export function errorText(error: unknown): string {
  const parts: string[] = []
  let e: unknown = error
  for (let depth = 0; e !== undefined && e !== null && depth < 3; depth++) {
    parts.push(e instanceof Error ? e.message : String(e))
    e = e instanceof Error ? e.cause : undefined
  }
  const text = parts.filter((p) => p !== '').join(': ') || 'unknown error'
  return text.length > ERROR_CHARS ? `${text.slice(0, ERROR_CHARS - 1)}…` : text
}

/** What the outcomes since the last write add to one host's row (counts to add, newer lasts). */
type HostDelta = Omit<FederationHostRow, 'id' | 'host'>

/** How long outcomes gather before they are written, in one transaction for all hosts (ms). */
const FLUSH_MS = 1000

export class DeliveryLog {
  private readonly current = new AsyncLocalStorage<Attempt>()
  /** Deliveries under way: the storage is disabled when none is. */
  private underWay = 0
  /** Outcomes not written yet, by host. */
  private gathered = new Map<string, HostDelta>()
  private timer: NodeJS.Timeout | null = null
  private writing: Promise<void> = Promise.resolve()

  constructor(private readonly store: Store) {}

  /**
   * Runs `handle` (the queue's handler of `message`); a delivery's outcome is
   * noted once it returns, and written within `FLUSH_MS` with the others
   * (a write per delivery would add a third to the queue's commits). A
   * crash loses at most that second of counts: the deliveries themselves
   * are the queue's.
   */
  around = async (message: unknown, handle: () => Promise<void>): Promise<void> => {
    if (!isOutbox(message)) return handle()
    const attempt: Attempt = { error: undefined, gaveUp: false }
    this.underWay++
    try {
      await this.current.run(attempt, handle)
    } finally {
      if (--this.underWay === 0) this.current.disable()
    }
    this.note(message, attempt)
  }

  /** Fedify's `onOutboxError`: the try under way failed. */
  failed = (error: unknown): void => {
    const attempt = this.current.getStore()
    if (attempt) attempt.error = error ?? new Error('unknown error')
  }

  /** The retry policy answered no more tries for the delivery under way. */
  gaveUp = (): void => {
    const attempt = this.current.getStore()
    if (attempt) attempt.gaveUp = true
  }

  /** Writes what was noted and not written yet; resolves once it is (never throws: a failed write is a warning). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const gathered = this.gathered
    this.gathered = new Map()
    this.writing = this.writing.then(() => (gathered.size === 0 ? undefined : this.write(gathered)))
    return this.writing
  }

  private note(message: OutboxMessage, attempt: Attempt): void {
    const host = hostOf(message.inbox)
    const at = new Date().toISOString()
    let delta = this.gathered.get(host)
    if (!delta) this.gathered.set(host, (delta = { delivered: 0, failures: 0, given_up: 0 }))
    if (attempt.error === undefined) {
      delta.delivered += 1
      delta.last_delivered_at = at
    } else {
      const failure: DeliveryFailure = {
        error: errorText(attempt.error),
        at,
        attempt: message.attempt + 1,
        ...(message.activityId ? { activity_id: message.activityId } : {}),
      }
      delta.failures += 1
      delta.last_failure = failure
      if (attempt.gaveUp) {
        delta.given_up += 1
        delta.last_given_up = failure
      }
    }
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS)
      this.timer.unref()
    }
  }

  private async write(gathered: Map<string, HostDelta>): Promise<void> {
    try {
      await this.store.transact(async (tx) => {
        for (const [host, delta] of gathered) {
          const row = await tx.federation_hosts.one('host', host)
          const next = {
            host,
            delivered: (row?.delivered ?? 0) + delta.delivered,
            failures: (row?.failures ?? 0) + delta.failures,
            given_up: (row?.given_up ?? 0) + delta.given_up,
            ...pick(row?.last_delivered_at, delta.last_delivered_at, 'last_delivered_at'),
            ...pick(row?.last_failure, delta.last_failure, 'last_failure'),
            ...pick(row?.last_given_up, delta.last_given_up, 'last_given_up'),
          }
          if (row) tx.federation_hosts.put({ ...next, id: row.id })
          else tx.federation_hosts.insert(next)
        }
      })
    } catch (err) {
      process.emitWarning(`svc: recording the outcomes of federation deliveries failed: ${(err as Error).message}`)
    }
  }
}

/** `{[key]: newer ?? older}`, or nothing when both are absent (rows leave absent fields out). */
function pick<K extends string, V>(older: V | undefined, newer: V | undefined, key: K): { [P in K]?: V } {
  const value = newer ?? older
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
}

/** Outgoing deliveries to one remote host, as `svc federation queue` shows them. */
export interface HostDeliveries {
  host: string
  /** Deliveries waiting in the queue (first tries and retries). */
  pending: number
  /** Of those, retries of a try that failed. */
  failing: number
  delivered: number
  last_delivered_at: string | null
  /** Deliveries given up after their last try. */
  given_up: number
  last_given_up_at: string | null
  /** The last failed try's error, when (ISO), which try of its delivery (1: the first), and the activity; null when none failed. */
  last_error: string | null
  last_error_at: string | null
  last_error_attempt: number | null
  last_error_activity: string | null
}

/**
 * The deliveries per remote host: what the queue holds for each (read
 * whole: it holds what is waiting, which stays short) and what each host's
 * row recorded; the hosts with something pending or failing first, then by name.
 */
export async function deliveriesByHost(store: Store): Promise<HostDeliveries[]> {
  const r = store.read
  const byHost = new Map<string, HostDeliveries>()
  const entry = (host: string): HostDeliveries => {
    let found = byHost.get(host)
    if (!found) {
      found = {
        host,
        pending: 0,
        failing: 0,
        delivered: 0,
        last_delivered_at: null,
        given_up: 0,
        last_given_up_at: null,
        last_error: null,
        last_error_at: null,
        last_error_attempt: null,
        last_error_activity: null,
      }
      byHost.set(host, found)
    }
    return found
  }
  for (const row of await r.federation_hosts.getMany(await r.federation_hosts.scan({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' }))) {
    const failure = row.last_failure
    Object.assign(entry(row.host), {
      delivered: row.delivered,
      last_delivered_at: row.last_delivered_at ?? null,
      given_up: row.given_up,
      last_given_up_at: row.last_given_up?.at ?? null,
      last_error: failure?.error ?? null,
      last_error_at: failure?.at ?? null,
      last_error_attempt: failure?.attempt ?? null,
      last_error_activity: failure?.activity_id ?? null,
    })
  }
  for (const row of await r.federation_queue.getMany(await r.federation_queue.scan({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' }))) {
    if (isOutbox(row.message)) {
      const host = entry(hostOf(row.message.inbox))
      host.pending += 1
      if (row.message.attempt > 0) host.failing += 1
    } else if (isFanout(row.message)) {
      // Not yet split into one delivery per inbox: each inbox counts as pending.
      for (const inbox of Object.keys(row.message.inboxes)) entry(hostOf(inbox)).pending += 1
    }
  }
  const busy = (h: HostDeliveries) => (h.pending > 0 || h.failing > 0 ? 0 : 1)
  return [...byHost.values()].sort((a, b) => busy(a) - busy(b) || a.host.localeCompare(b.host))
}

/**
 * The deliveries to `host` waiting in the queue, not being tried this
 * moment: `retry` makes them due now (a server that is back need not wait
 * out its backoff), `drop` removes them (never sent). Answers how many.
 */
export async function actOnDeliveries(store: Store, host: string, action: 'retry' | 'drop'): Promise<number> {
  const now = Date.now()
  return store.transact(async (tx) => {
    const waiting = (row: FederationQueueRow) =>
      isOutbox(row.message) && hostOf(row.message.inbox) === host && (row.claimed_until === undefined || row.claimed_until <= now)
    const ids = await tx.federation_queue.scan({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' }, waiting)
    for (const id of ids) {
      const row = await tx.federation_queue.get(id)
      if (!row) continue
      if (action === 'drop') tx.federation_queue.remove(id)
      else tx.federation_queue.put({ ...row, due_at: Math.min(row.due_at, now) })
    }
    return ids.length
  })
}
