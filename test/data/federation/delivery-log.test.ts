/**
 * The delivery log as the queue drives it: each try of an outbox message
 * lands in its inbox host's one row (delivered, failed with the error and
 * which try, given up after the last), written a second at a time;
 * messages that are not deliveries are left alone; a thousand outcomes
 * still make one row per host. What the
 * queue holds counts as pending per host, retries as failing, a fanout's
 * inboxes each as pending.
 */
import { rmSync } from 'node:fs'
import t from 'tap'
import { DeliveryLog, deliveriesByHost, errorText } from '../../../data/federation/outgoing/delivery-log.js'
import { openStore } from '../../fixtures/open-store.js'
import { scratchDir } from '../../fixtures/scratch.js'

const outbox = (inbox: string, attempt = 0) => ({ type: 'outbox', inbox, activityId: `https://svc.example/ap/posts/1/activity`, attempt })

t.test('outcomes per host, bounded, and what the queue holds for each', async (t) => {
  const dir = scratchDir('svc-delivery-log-')
  const store = await openStore(dir)
  t.teardown(async () => {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const log = new DeliveryLog(store)

  // Bob's server takes everything; carol's refuses, and the last try is given up.
  for (let i = 0; i < 1000; i++) await log.around(outbox('https://bob.example/inbox'), async () => {})
  await log.around(outbox('https://carol.example:8443/inbox', 3), async () => {
    await Promise.resolve()
    log.failed(new Error('fetch failed', { cause: new Error('connect ECONNREFUSED') }))
  })
  await log.around(outbox('https://carol.example:8443/inbox', 15), async () => {
    log.failed(new Error('410 Gone'))
    log.gaveUp()
  })
  // An incoming activity is no delivery; a failure reported outside any try is nobody's.
  await log.around({ type: 'inbox', activity: {} }, async () => {})
  log.failed(new Error('stray'))
  t.equal(await store.read.federation_hosts.size(), 0, 'nothing written yet: outcomes gather for a second')
  await log.flush()

  t.equal(await store.read.federation_hosts.size(), 2, 'one row per host, however many outcomes')
  const bob = await store.read.federation_hosts.one('host', 'bob.example')
  t.match(bob, { delivered: 1000, failures: 0, given_up: 0, last_delivered_at: String })
  const carol = await store.read.federation_hosts.one('host', 'carol.example:8443')
  t.match(carol, {
    delivered: 0,
    failures: 2,
    given_up: 1,
    last_failure: { error: '410 Gone', attempt: 16, activity_id: 'https://svc.example/ap/posts/1/activity' },
    last_given_up: { error: '410 Gone', attempt: 16 },
  })
  // Carol's server is back: the next write adds to her row and keeps its last failure.
  await log.around(outbox('https://carol.example:8443/inbox'), async () => {})
  await log.flush()
  t.match(await store.read.federation_hosts.one('host', 'carol.example:8443'), {
    delivered: 1,
    last_delivered_at: String,
    failures: 2,
    given_up: 1,
    last_failure: { error: '410 Gone' },
  })

  await store.transact((tx) => {
    tx.federation_queue.insert({ message: outbox('https://carol.example:8443/inbox', 2), due_at: 0 })
    tx.federation_queue.insert({ message: outbox('https://dave.example/inbox'), due_at: 0 })
    tx.federation_queue.insert({ message: { type: 'fanout', inboxes: { 'https://dave.example/inbox': {}, 'https://erin.example/inbox': {} } }, due_at: 0 })
    tx.federation_queue.insert({ message: { type: 'inbox', activity: {} }, due_at: 0 })
  })
  t.match(await deliveriesByHost(store), [
    { host: 'carol.example:8443', pending: 1, failing: 1, delivered: 1, given_up: 1, last_given_up_at: String, last_error: '410 Gone', last_error_attempt: 16 },
    { host: 'dave.example', pending: 2, failing: 0, last_error: null },
    { host: 'erin.example', pending: 1, failing: 0 },
    { host: 'bob.example', pending: 0, failing: 0, delivered: 1000 },
  ])
})

t.test('an error is one short line with its causes', async (t) => {
  t.equal(errorText(new Error('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') })), 'fetch failed: connect ECONNREFUSED 127.0.0.1:1')
  t.equal(errorText('x'.repeat(1000)).length, 300)
})
