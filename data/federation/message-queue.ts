/**
 * Fedify's message queue over svc's store: an activity Fedify acknowledged
 * to its sender (202) or asked to deliver is a `federation_queue` row, durable
 * before `enqueue` resolves, so a kill -9 loses none. A message leaves the
 * queue only once its handler finished; Fedify retries failures itself, by
 * enqueuing again with a delay.
 *
 * Taking a message is a transaction that marks it claimed for a while (the
 * lease): nodes sharing a PostgreSQL store commit one at a time, so each
 * message goes to one of them. The worker handling a message renews its
 * lease every third of it, however long the handling takes; one that dies
 * (a kill -9) stops renewing, and within a lease (15 s) another node, or
 * itself restarted, takes the message again: delivery is at least once.
 *
 * A listener runs `workers` loops, each taking and handling one message at a
 * time, so one slow peer (a delivery waiting out its timeout, a remote key
 * being fetched) does not hold up the rest. Each message leaves the queue
 * only when its own handler finished, whatever the others do.
 */
import type { MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from '@fedify/fedify'
import type { FederationQueueRow } from '../model/federation.js'
import type { Store } from '../store/port.js'

export interface QueueOptions {
  /** How often a listener looks for messages enqueued elsewhere (another node, a delay that ended), ms. */
  pollMs?: number
  /** How long a taken message stays another listener's to leave alone without a renewal, ms. */
  leaseMs?: number
  /** Messages a listener handles at once. */
  workers?: number
  /** Runs each message's handling (`handle`), to watch what becomes of it (the delivery log). */
  around?: (message: unknown, handle: () => Promise<void>) => Promise<void>
}

export class StoreMessageQueue implements MessageQueue {
  private readonly pollMs: number
  private readonly leaseMs: number
  private readonly workers: number
  private readonly around: NonNullable<QueueOptions['around']>
  /** Wakes the listeners of this process when a message is enqueued here. */
  private readonly wakers = new Set<() => void>()

  constructor(
    private readonly store: Store,
    { pollMs = 1000, leaseMs = 15_000, workers = 1, around = (_message, handle) => handle() }: QueueOptions = {},
  ) {
    this.pollMs = pollMs
    this.leaseMs = leaseMs
    this.workers = Math.max(1, workers)
    this.around = around
  }

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueMany([message], options)
  }

  async enqueueMany(messages: unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    const due = Date.now() + Math.max(0, options?.delay?.total({ unit: 'millisecond' }) ?? 0)
    await this.store.transact((tx) => {
      for (const message of messages) tx.federation_queue.insert({ message: JSON.parse(JSON.stringify(message)) as unknown, due_at: due })
    })
    for (const wake of this.wakers) wake()
  }

  /** Messages waiting, taken or not. */
  size(): Promise<number> {
    return this.store.read.federation_queue.size()
  }

  async listen(handler: (message: unknown) => Promise<void> | void, options: MessageQueueListenOptions = {}): Promise<void> {
    await Promise.all(Array.from({ length: this.workers }, () => this.work(handler, options.signal)))
  }

  /** One worker: takes a message, handles it, removes it; again until `signal` aborts. */
  private async work(handler: (message: unknown) => Promise<void> | void, signal: AbortSignal | undefined): Promise<void> {
    /** The message handled last, to remove in the transaction that takes the next. */
    let done: number | null = null
    while (!signal?.aborted) {
      let row: FederationQueueRow | null
      try {
        row = await this.claim(done)
        done = null
      } catch (err) {
        // A store that closed under the listener (shutdown) ends it; anything else is worth a word, then another try.
        if (signal?.aborted) return
        process.emitWarning(`svc: taking a federation message failed: ${(err as Error).message}`)
        row = null
      }
      if (!row) {
        await this.pause(signal)
        continue
      }
      const release = this.holdClaim(row.id, signal)
      try {
        const message = row.message
        await this.around(message, async () => {
          await handler(message)
        })
      } catch (err) {
        // Fedify handles its own failures; one that escapes leaves the message claimed, to come back when the lease ends.
        process.emitWarning(`svc: a federation message failed: ${(err as Error).message}`)
        continue
      } finally {
        release()
      }
      done = row.id
    }
    // Stopped with a message handled and not yet removed: removed now (one that is not comes back when its lease ends, to be skipped as processed).
    if (done !== null) {
      const handled = done
      await this.store.transact((tx) => tx.federation_queue.remove(handled)).catch(() => {})
    }
  }

  /**
   * Removes message `done` (handled; none when null) and takes the oldest
   * message due and not claimed, marking it claimed, in one transaction: a
   * commit less per message. Null when none is due.
   */
  private claim(done: number | null, now: number = Date.now()): Promise<FederationQueueRow | null> {
    return this.store.transact(async (tx) => {
      if (done !== null) tx.federation_queue.remove(done)
      const free = (row: FederationQueueRow) => row.id !== done && row.due_at <= now && (row.claimed_until === undefined || row.claimed_until <= now)
      const [id] = await tx.federation_queue.scan({ limit: 1, order: 'asc' }, free)
      if (id === undefined) return null
      const row = await tx.federation_queue.get(id)
      if (!row || !free(row)) return null
      return tx.federation_queue.put({ ...row, claimed_until: now + this.leaseMs })
    })
  }

  /** Renews the lease of message `id` every third of a lease until the answered function is called or listening stops. */
  private holdClaim(id: number, signal: AbortSignal | undefined): () => void {
    const timer = setInterval(
      () => {
        if (signal?.aborted) return clearInterval(timer)
        this.store
          .transact(async (tx) => {
            const row = await tx.federation_queue.get(id)
            if (row?.claimed_until !== undefined) await tx.federation_queue.put({ ...row, claimed_until: Date.now() + this.leaseMs })
          })
          .catch((err: unknown) => {
            if (!signal?.aborted) process.emitWarning(`svc: renewing a federation message's lease failed: ${(err as Error).message}`)
          })
      },
      Math.max(10, Math.floor(this.leaseMs / 3)),
    ).unref()
    return () => clearInterval(timer)
  }

  /** Waits for the next poll, an enqueue here, or the end of listening. */
  private pause(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.wakers.delete(done)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      // Listening never keeps the process alive by itself: the server does, and stopping it aborts this.
      const timer = setTimeout(done, this.pollMs).unref()
      this.wakers.add(done)
      // Stopped while the last look for a message was under way: the abort event has fired already and will not again.
      if (signal?.aborted) done()
      else signal?.addEventListener('abort', done)
    })
  }
}
