import t from 'tap'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { initDataDir, openDomain, EventLog, type Domain, type DomainEvent, type Store } from '../../../data/index.js'
import { FileStore } from '../../../data/store/embedded/file-store.js'
import { makeDomainInstance, makeInstance, type Instance } from '../../fixtures/instance.js'
import { openWithStore } from '../../fixtures/open-store.js'
import { userRow } from '../../fixtures/rows.js'

type Tap = Parameters<Parameters<typeof t.test>[0]>[0]

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Every event the log still holds, oldest first. */
const everything = (domain: Domain): Promise<DomainEvent[]> => domain.events.after(0, Number.MAX_SAFE_INTEGER)

/** Closes the instance's domain and opens its data dir again. */
const reopen = async (t: Tap, svc: Instance, config: Record<string, unknown> = {}): Promise<{ domain: Domain; store: Store }> => {
  await svc.server.stop()
  await svc.domain.close()
  const again = await openWithStore(svc.dir, { config: { rate_limits: { enabled: false } as never, ...config }, storeUrl: svc.storeUrl })
  t.teardown(() => again.domain.close())
  return again
}

t.test('alice and bob follow each other: the events get increasing seqs and after answers them in order', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const seen: DomainEvent[] = []
  svc.domain.events.onAny((e) => seen.push(e))
  const from = svc.domain.events.head()
  await svc.domain.relations.core.follow(await svc.viewerOf(alice), '@bob')
  await svc.domain.relations.core.follow(await svc.viewerOf(bob), '@alice')
  t.same(
    seen.map((e) => [e.seq, e.name, e.payload]),
    [
      [from + 1, 'follow.added', { user: alice.user, target: bob.user }],
      [from + 2, 'follow.added', { user: bob.user, target: alice.user }],
    ],
    'listeners heard them before the calls returned',
  )
  t.equal(svc.domain.events.head(), from + 2)
  t.same(await svc.domain.events.after(from, 10), seen, 'after answers the durable events, oldest first')
  t.same(await svc.domain.events.after(from, 1), [seen[0]], 'at most limit')
  t.same(await svc.domain.events.after(from + 2, 10), [], 'nothing after the head')
  const all = await everything(svc.domain)
  t.ok(
    all.every((e, i) => i === 0 || e.seq > all[i - 1].seq),
    'every seq is above the one before',
  )
  t.equal(all[0].seq, svc.domain.events.oldest())
})

t.test("a failed sign-up (bob's name is taken) emits nothing", async (t) => {
  const svc = await makeDomainInstance(t)
  await svc.people('alice', 'bob')
  const head = svc.domain.events.head()
  const seen: DomainEvent[] = []
  svc.domain.events.onAny((e) => seen.push(e))
  await t.rejects(svc.domain.users.accounts.create({ username: 'bob', password: 'correct horse' }), { code: 'conflict' })
  t.same(seen, [])
  t.equal(svc.domain.events.head(), head)
  t.same(await svc.domain.events.after(head, 10), [])
  const carol = await svc.domain.users.accounts.create({ username: 'carol', password: 'correct horse' })
  t.same(
    seen.map((e) => [e.name, e.payload]),
    [['user.created', { user: carol }]],
    'the next sign-up is heard',
  )
})

t.test("alice's star and its event survive closing and reopening the domain", async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const post = await svc.domain.posts.core.create(await svc.viewerOf(bob), { text: 'first light' })
  await svc.domain.posts.stars.star(await svc.viewerOf(alice), post.id)
  const head = svc.domain.events.head()
  const before = await everything(svc.domain)
  const oldest = svc.domain.events.oldest()
  t.match(before[before.length - 1], { seq: head, name: 'star.added', payload: { post: { id: post.id }, user: { username: 'alice' } } })

  const { domain: again, store } = await reopen(t, svc)
  t.equal(again.events.head(), head, 'the head is read back from the log')
  t.equal(again.events.oldest(), oldest)
  t.same(await everything(again), before, 'every event, as it was')
  t.equal(await store.read.stars.count('post', post.id), 1, 'and so does the star')

  const seen: DomainEvent[] = []
  again.events.onAny((e) => seen.push(e))
  await again.posts.stars.unstar(await again.auth.tokens.authenticate(alice.token), post.id)
  t.same(
    seen.map((e) => [e.seq, e.name]),
    [[head + 1, 'star.removed']],
    'numbering goes on after the last event',
  )
})

t.test('trim keeps at most max_events, the newest ones', async (t) => {
  const svc = await makeInstance(t, { events: { retention_seconds: 900, max_events: 3 } })
  await svc.people('alice', 'bob', 'carol')
  const head = svc.domain.events.head()
  const before = await everything(svc.domain)
  t.ok(before.length > 3, `the log holds ${before.length} events`)
  t.equal(await svc.domain.events.trim(), before.length - 3, 'answers how many went')
  t.same(await everything(svc.domain), before.slice(-3))
  t.equal(svc.domain.events.head(), head, 'the head stays')
  t.equal(svc.domain.events.oldest(), before[before.length - 3].seq)
  t.equal(await svc.domain.events.trim(), 0, 'nothing more to trim')

  const { domain: again } = await reopen(t, svc, { events: { retention_seconds: 900, max_events: 3 } })
  t.equal(again.events.head(), head, 'after a reopen too')
  t.equal(again.events.oldest(), before[before.length - 3].seq)
  t.same(await everything(again), before.slice(-3))
})

t.test('trim removes the events older than the retention, but always keeps the newest', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  await sleep(5)
  const midway = Date.now()
  await sleep(5)
  await svc.domain.relations.core.follow(await svc.viewerOf(alice), '@bob')
  await svc.domain.relations.core.follow(await svc.viewerOf(bob), '@alice')
  const before = await everything(svc.domain)
  const young = before.filter((e) => e.at >= midway)
  t.same(
    young.map((e) => e.name),
    ['follow.added', 'follow.added'],
  )
  t.equal(await svc.domain.events.trim(), 0, 'nothing is 900 s old yet')
  t.equal(await svc.domain.events.trim(midway + 900_000), before.length - 2, 'the events from before midway went')
  t.same(await everything(svc.domain), young)
  t.equal(svc.domain.events.oldest(), young[0].seq)

  const head = svc.domain.events.head()
  t.equal(await svc.domain.events.trim(Date.now() + 3_600_000), 1, 'an hour on, all but the newest go')
  t.same(await everything(svc.domain), [young[1]])
  t.equal(svc.domain.events.head(), head)
  t.equal(svc.domain.events.oldest(), head)

  const { domain: again } = await reopen(t, svc)
  t.equal(again.events.head(), head, 'the kept newest event tells a reopened log where numbering stands')
  t.equal(again.events.oldest(), head)
})

t.test('a log over an empty store has head 0 and oldest 1', async (t) => {
  const store = await FileStore.open(t.testdir())
  t.teardown(() => store.close())
  const log = await EventLog.open(store, { retention_seconds: 900, max_events: 1000 })
  t.equal(log.head(), 0)
  t.equal(log.oldest(), 1)
  t.same(await log.after(0, 10), [])
  t.equal(await log.trim(), 0)
})

t.test('a data dir written before the event log opens as it is, with a log that starts at 1 (svc registering its web client)', async (t) => {
  const dir = t.testdir()
  await initDataDir(dir)
  // alice's sign-up as svc journaled it before event_log existed: her row, no event.
  writeFileSync(join(dir, 'store', 'journal-1.jsonl'), JSON.stringify([['p', 'users', { ...userRow('alice'), id: 1 }]]) + '\n')
  const domain = await openDomain(dir)
  t.teardown(() => domain.close())
  await domain.start()
  t.equal((await domain.users.accounts.get(1))?.username, 'alice')
  t.equal(domain.events.oldest(), 1)
  const web = await domain.auth.apps.webClient()
  const bob = await domain.users.accounts.create({ username: 'bob', password: 'correct horse' })
  t.same(
    (await everything(domain)).map((e) => [e.seq, e.name, e.payload]),
    [
      [1, 'app.created', { app: web }],
      [2, 'user.created', { user: bob }],
    ],
    'nothing of before: the first event is the web client svc registered at this start',
  )
})

t.test('a listener that throws is reported and keeps neither the caller nor the other listeners from their event', async (t) => {
  const svc = await makeDomainInstance(t)
  const warnings: string[] = []
  const onWarning = (w: Error) => warnings.push(w.message)
  process.on('warning', onWarning)
  t.teardown(() => process.off('warning', onWarning))
  svc.domain.events.on('user.created', () => {
    throw new Error('robo tripped')
  })
  const seen: string[] = []
  svc.domain.events.on('user.created', (e) => seen.push(e.payload.user.username))
  const [alice] = await svc.people('alice')
  t.equal(alice.user.username, 'alice')
  t.same(seen, ['alice'])
  await sleep(0)
  t.match(warnings, [/listener for user\.created failed: robo tripped/])
})
