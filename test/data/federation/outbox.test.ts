/**
 * The outbox pump over the event log, with a delivery of its own that
 * records what it is handed: it begins at the head on its first start, hands
 * each event on in order, keeps the log from trimming what it has not
 * passed while a delivery hangs, tries a failed delivery again, and, among
 * nodes that share a store, waits while another node's lease lasts and
 * takes over once it ends.
 */
import { rmSync } from 'node:fs'
import t, { type Test } from 'tap'
import { OUTBOX, OutboxPump, type OutboxOptions } from '../../../data/federation/outgoing/outbox.js'
import { EventLog, type DomainEvent, type Store } from '../../../data/index.js'
import { openStore } from '../../fixtures/open-store.js'
import { waitUntil } from '../../fixtures/wait.js'
import { scratchDir } from '../../fixtures/scratch.js'

async function opened(t: Test): Promise<{ store: Store; events: EventLog }> {
  const dir = scratchDir('svc-outbox-pump-')
  const store = await openStore(dir)
  t.teardown(async () => {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return { store, events: await EventLog.open(store, { retention_seconds: 600, max_events: 100_000 }) }
}

/** An event the outbox delivers (its payload is not read here). */
const post = (store: Store, id: number) => store.transact((tx) => tx.emit('post.created', { post: { id } as never }))

/** A pump whose delivery records the post ids it is handed; `hold` makes a delivery wait until it resolves. */
function pump(t: Test, store: Store, events: EventLog, node = { id: 'one', shared: false }, options: OutboxOptions = {}) {
  const handed: number[] = []
  /** When each was handed on (ms). */
  const at: number[] = []
  let gate: Promise<void> | null = null
  let failing = 0
  const outbox = new OutboxPump(
    store,
    events,
    node,
    async (event: DomainEvent) => {
      if (event.name !== 'post.created') return false
      if (failing > 0) {
        failing--
        throw new Error('the store is busy')
      }
      await gate
      handed.push((event as DomainEvent<'post.created'>).payload.post.id)
      at.push(Date.now())
      return true
    },
    options,
  )
  t.teardown(() => outbox.stop())
  return {
    outbox,
    handed,
    at,
    hold(until: Promise<void>) {
      gate = until
    },
    fail(times: number) {
      failing = times
    },
  }
}

const storedCursor = async (store: Store) => (await store.read.log_cursors.one('name', OUTBOX))?.seq

t.test('the first start begins at the head; then every post in order, once, the cursor stored at the stop', async (t) => {
  const { store, events } = await opened(t)
  await post(store, 1)
  const first = pump(t, store, events)
  await first.outbox.start()
  t.equal(await storedCursor(store), events.head(), 'the cursor at the head')
  for (const id of [2, 3, 4]) await post(store, id)
  await waitUntil(() => first.handed.length === 3, 'three posts handed on')
  t.same(first.handed, [2, 3, 4], 'in order; the one from before the first start left out')
  await first.outbox.stop()
  t.equal(await storedCursor(store), events.head(), 'the cursor stored at the stop')

  await post(store, 5)
  const second = pump(t, store, events)
  await second.outbox.start()
  await waitUntil(() => second.handed.length > 0, 'the post made while stopped')
  await post(store, 6)
  await waitUntil(() => second.handed.length === 2, 'and the next')
  t.same(second.handed, [5, 6], 'nothing again')
})

t.test('the log keeps what a hanging delivery has not passed; a failed delivery is tried again', async (t) => {
  const { store, events } = await opened(t)
  const p = pump(t, store, events, undefined, { retryMs: 10 })
  await p.outbox.start()
  let open = () => {}
  p.hold(new Promise<void>((resolve) => (open = resolve)))
  await post(store, 1)
  const waiting = events.head()
  await post(store, 2)
  await events.trim(Date.now() + 10 * 60_000 + 1)
  t.equal(events.oldest(), waiting, 'the trim stopped at the event being delivered')
  open()
  await waitUntil(() => p.handed.length === 2, 'both handed on')

  p.fail(2)
  await post(store, 3)
  await waitUntil(() => p.handed.length === 3, 'handed on at the third try')
  t.same(p.handed, [1, 2, 3])
})

t.test("among nodes sharing a store: none pumps while another's lease lasts; one takes over when it ends", async (t) => {
  const { store, events } = await opened(t)
  const until = Date.now() + 400
  await store.transact((tx) => {
    tx.log_cursors.insert({ name: OUTBOX, seq: 0, updated_at: new Date().toISOString() })
    tx.federation_leases.insert({ name: OUTBOX, holder: 'gone', until })
  })
  const p = pump(t, store, events, { id: 'here', shared: true }, { leaseMs: 300 })
  await p.outbox.start()
  await post(store, 1)
  await waitUntil(() => p.handed.length === 1, 'the post delivered')
  t.ok(p.at[0] >= until, "only once the lease of the node that died had ended (the post was that node's to deliver)")
  const lease = await store.read.federation_leases.one('name', OUTBOX)
  t.equal(lease?.holder, 'here', 'the lease taken over')
  await p.outbox.stop()
  t.equal((await store.read.federation_leases.one('name', OUTBOX))?.until, 0, 'and given back at the stop')
})

t.test('a cursor past the newest event (a log that went back) goes back to it: the posts to come are not taken for handled', async (t) => {
  const { store, events } = await opened(t)
  await post(store, 1)
  await store.transact((tx) => tx.log_cursors.insert({ name: OUTBOX, seq: 1000, updated_at: new Date().toISOString() }))
  const p = pump(t, store, events)
  await p.outbox.start()
  t.equal(await storedCursor(store), events.head(), 'the cursor at the newest event')
  await post(store, 2)
  await waitUntil(() => p.handed.length === 1, 'the next post handed on')
  t.same(p.handed, [2])
})
