/**
 * What Fedify keeps through svc's store, on the embedded store and on
 * PostgreSQL: a queued message outlives the process that took it in and is
 * handled once it is back; a message whose handler died comes back when its
 * lease ends; a delayed one waits; cached entries survive a reopen, expire
 * and are swept.
 */
import { rmSync } from 'node:fs'
import { Temporal } from '@js-temporal/polyfill'
import t, { type Test } from 'tap'
import { StoreKvStore } from '../../../data/federation/kv-store.js'
import { StoreMessageQueue } from '../../../data/federation/message-queue.js'
import type { Store } from '../../../data/index.js'
import { openStore } from '../../fixtures/open-store.js'
import { pgUnavailable, readyPgStore } from '../../fixtures/postgres.js'
import { waitUntil } from '../../fixtures/wait.js'
import { scratchDir } from '../../fixtures/scratch.js'

const skipPg = await pgUnavailable()

/** Opens the same store again and again (a restart); each closed at the test's end. */
async function reopener(t: Test, kind: 'embedded' | 'postgres'): Promise<() => Promise<Store>> {
  const dir = scratchDir('svc-fed-queue-')
  const url = kind === 'postgres' ? await readyPgStore(t) : undefined
  const open: Store[] = []
  t.teardown(async () => {
    for (const store of open) await store.close().catch(() => undefined)
    rmSync(dir, { recursive: true, force: true })
  })
  return async () => {
    const store = await openStore(dir, url)
    open.push(store)
    return store
  }
}

/** Listens on `queue` until the test ends (a listener that hangs in its handler is left behind); answers what it handled, in order. */
function listening(t: Test, queue: StoreMessageQueue, handle: (message: unknown) => Promise<void> | void = () => {}, hangs = false): unknown[] {
  const handled: unknown[] = []
  const stop = new AbortController()
  const done = queue.listen(
    async (message) => {
      await handle(message)
      handled.push(message)
    },
    { signal: stop.signal },
  )
  t.teardown(() => {
    stop.abort()
    return hangs ? undefined : done
  })
  return handled
}

for (const kind of ['embedded', 'postgres'] as const) {
  t.test(`on the ${kind} store`, { skip: kind === 'postgres' && skipPg }, async (t) => {
    t.test('a message enqueued before a restart is handled after it, then gone', async (t) => {
      const open = await reopener(t, kind)
      const first = await open()
      await new StoreMessageQueue(first).enqueueMany([{ n: 1 }, { n: 2 }])
      await first.close()
      const again = await open()
      const queue = new StoreMessageQueue(again, { pollMs: 20 })
      t.equal(await queue.size(), 2, 'both kept')
      const handled = listening(t, queue)
      await waitUntil(() => handled.length === 2, 'both handled')
      t.same(handled, [{ n: 1 }, { n: 2 }], 'in the order they came')
      await waitUntil(async () => (await queue.size()) === 0, 'the queue emptied')
    })

    t.test('a message whose listener died while handling it comes back to another listener when its lease ends', async (t) => {
      const store = await (await reopener(t, kind))()
      // A lease long against the 100 ms looked at below, which a loaded machine stretches (a 300 ms lease once ran out within it).
      const dying = new StoreMessageQueue(store, { pollMs: 20, leaseMs: 1500 })
      let taken = false
      const death = new AbortController()
      // A handler that never finishes, then a stop: what a kill -9 leaves, a claim nobody renews.
      void dying.listen(
        () => {
          taken = true
          return new Promise<void>(() => {})
        },
        { signal: death.signal },
      )
      t.teardown(() => death.abort())
      await dying.enqueue({ n: 1 })
      await waitUntil(() => taken, 'the first listener took it')
      death.abort()
      const other = listening(t, new StoreMessageQueue(store, { pollMs: 20 }))
      await new Promise((resolve) => setTimeout(resolve, 100))
      t.same(other, [], 'not while the lease holds')
      await waitUntil(() => other.length === 1, 'taken again once the lease ended')
      t.same(other, [{ n: 1 }])
    })

    t.test('a handler that runs longer than the lease keeps its message: the lease is renewed while it runs', async (t) => {
      const store = await (await reopener(t, kind))()
      // A lease long enough that a renewal delayed by a loaded machine (its commit waits on fsync) still comes in time.
      const busy = new StoreMessageQueue(store, { pollMs: 20, leaseMs: 600 })
      let release = () => {}
      const slow = new Promise<void>((resolve) => (release = resolve))
      const first = listening(t, busy, () => slow)
      await busy.enqueue({ n: 1 })
      await waitUntil(async () => (await store.read.federation_queue.scan({ limit: 1 }, (row) => row.claimed_until !== undefined)).length === 1, 'taken')
      const other = listening(t, new StoreMessageQueue(store, { pollMs: 20 }))
      await new Promise((resolve) => setTimeout(resolve, 1800))
      t.same(other, [], "three leases later, still the first listener's")
      release()
      await waitUntil(() => first.length === 1, 'handled by the first')
      await waitUntil(async () => (await busy.size()) === 0, 'then gone')
      t.same(other, [], 'never handled twice')
    })

    t.test('with several workers, a message whose handler hangs does not hold up the next, and stays until handled', async (t) => {
      const store = await (await reopener(t, kind))()
      const queue = new StoreMessageQueue(store, { pollMs: 20, workers: 2 })
      let release = () => {}
      const slow = new Promise<void>((resolve) => (release = resolve))
      const handled = listening(t, queue, (message) => ((message as { n: number }).n === 1 ? slow : undefined))
      await queue.enqueueMany([{ n: 1 }, { n: 2 }])
      await waitUntil(() => handled.length === 1, 'the second handled while the first waits')
      t.same(handled, [{ n: 2 }])
      await waitUntil(async () => (await queue.size()) === 1, 'the second removed')
      t.equal(await queue.size(), 1, 'the first stays in the queue while its handler runs')
      release()
      await waitUntil(() => handled.length === 2, 'the first handled once released')
      await waitUntil(async () => (await queue.size()) === 0, 'the queue emptied')
    })

    t.test('listening stopped while it looks for a message ends at once, not at its next poll', async (t) => {
      const store = await (await reopener(t, kind))()
      // A poll far away, as a timer that does not keep the process alive: a stop missed here leaves the listener hanging.
      const queue = new StoreMessageQueue(store, { pollMs: 60_000 })
      const stop = new AbortController()
      const listening = queue.listen(() => {}, { signal: stop.signal })
      stop.abort()
      const ended = await Promise.race([listening.then(() => 'ended'), new Promise((resolve) => setTimeout(resolve, 2000, 'still listening'))])
      t.equal(ended, 'ended')
    })

    t.test('a delayed message waits for its time', async (t) => {
      const store = await (await reopener(t, kind))()
      const queue = new StoreMessageQueue(store, { pollMs: 20 })
      const handled = listening(t, queue)
      const at = Date.now()
      await queue.enqueue({ n: 'later' }, { delay: Temporal.Duration.from({ milliseconds: 300 }) })
      await queue.enqueue({ n: 'now' })
      await waitUntil(() => handled.length === 2, 'both handled')
      t.same(handled, [{ n: 'now' }, { n: 'later' }])
      t.ok(Date.now() - at >= 300, 'not before its delay')
    })

    t.test('cached entries survive a restart, read as absent once expired, and are swept', async (t) => {
      const open = await reopener(t, kind)
      const first = await open()
      const kv = new StoreKvStore(first)
      const long = ['_fedify', 'remoteDocument', `https://remote.example/${'x'.repeat(3000)}`] as const
      const longer = ['_fedify', 'remoteDocument', `https://remote.example/${'x'.repeat(3001)}`] as const
      await kv.set(['_fedify', 'publicKey', 'https://remote.example/bob#main-key'], { pem: 'kept' })
      await kv.set(long, { n: 1 })
      await kv.set(longer, { n: 2 })
      await kv.set(['short-lived'], 'soon gone', { ttl: Temporal.Duration.from({ milliseconds: 50 }) })
      await kv.set(['replaced'], 1)
      await kv.set(['replaced'], 2)
      await kv.set(['deleted'], 1)
      await kv.delete(['deleted'])
      await first.close()

      const again = new StoreKvStore(await open())
      t.same(await again.get(['_fedify', 'publicKey', 'https://remote.example/bob#main-key']), { pem: 'kept' })
      t.same([await again.get(long), await again.get(longer)], [{ n: 1 }, { n: 2 }], 'long keys stay apart')
      t.equal(await again.get(['replaced']), 2)
      t.equal(await again.get(['deleted']), undefined)
      await new Promise((resolve) => setTimeout(resolve, 60))
      t.equal(await again.get(['short-lived']), undefined, 'expired')
      t.equal(await again.sweep(), 1, 'swept')
      t.equal(await again.sweep(), 0)
    })
  })
}
