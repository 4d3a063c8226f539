import t from 'tap'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'

const post = async (svc: Instance, who: Person, text: string) => {
  const res = await svc.call('POST', '/stream/0/posts', { token: who.token, payload: { text } })
  if (res.status !== 200) throw new Error(`post failed: ${JSON.stringify(res.body)}`)
  return res.body.data as { id: string }
}

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((p) => p.id)

/** Holds `n` places of the scan gate until `release` is called, as that many long searches would. */
function holdScans(svc: Instance, n: number) {
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  const running = Array.from({ length: n }, () => svc.domain.scanGate.run(() => held))
  return async () => {
    release()
    await Promise.all(running)
  }
}

t.test('a search past the scans the server runs and queues at once is refused with 429 and Retry-After, then taken again', async (t) => {
  const svc = await makeInstance(t, { search: { window_posts: 100_000, concurrent_scans: 2 } })
  const alice = await svc.person('alice')
  const hello = await post(svc, alice, 'hello #world')
  await svc.call('POST', '/stream/0/channels', { token: alice.token, payload: { type: 'com.example.chat', readers: { public: true } } })
  const queue = svc.domain.scanGate.queue
  const release = await holdScans(svc, 2 + queue)
  t.equal(svc.domain.scanGate.active, 2, 'two long searches run')
  t.equal(svc.domain.scanGate.queued, queue, 'and as many as may wait are waiting')

  for (const url of [
    '/stream/0/posts/search?query=hello',
    '/stream/0/posts/search?hashtags=world',
    '/stream/0/posts/search?query=hello&order=score',
    '/stream/0/users/search?q=alice',
    '/stream/0/channels/search?q=x',
  ]) {
    const busy = await svc.call('GET', url, { token: alice.token })
    t.equal(busy.status, 429, `${url}: a scan past those is refused`)
    t.equal(busy.body.meta.code, 429)
    t.equal(busy.body.meta.error_slug, 'search-busy')
    t.equal(busy.headers['retry-after'], '1', 'and is told when to come back')
  }
  t.equal((await svc.call('GET', `/stream/0/posts/${hello.id}`, { token: alice.token })).status, 200, 'requests that do not scan go on')
  t.equal((await svc.call('GET', '/stream/0/posts/search', { token: alice.token })).status, 400, 'a malformed search is answered as such, not as busy')

  await release()
  t.equal(svc.domain.scanGate.active, 0, 'the queued scans ran, then gave their places back')
  t.equal(svc.domain.scanGate.queued, 0)
  const ok = await svc.call('GET', '/stream/0/posts/search?query=hello', { token: alice.token })
  t.equal(ok.status, 200)
  t.same(ids(ok), [hello.id])
  t.equal((await svc.call('GET', '/stream/0/users/search?q=alice', { token: alice.token })).status, 200)
  t.equal(svc.domain.scanGate.active, 0, 'a finished search gives its place back')
})

t.test('a search while the scans run waits for a place and is answered once one frees up', async (t) => {
  const svc = await makeInstance(t, { search: { window_posts: 100_000, concurrent_scans: 1 } })
  const alice = await svc.person('alice')
  const hello = await post(svc, alice, 'hello')
  const release = await holdScans(svc, 1)
  const waiting = svc.call('GET', '/stream/0/posts/search?query=hello', { token: alice.token })
  while (svc.domain.scanGate.queued === 0) await new Promise((resolve) => setImmediate(resolve))
  t.equal(svc.domain.scanGate.queued, 1, 'the search waits in line')
  await release()
  const answer = await waiting
  t.equal(answer.status, 200)
  t.same(ids(answer), [hello.id])
})

t.test('a search looks at the newest window_posts posts only, in either order and through a filter index', async (t) => {
  const svc = await makeInstance(t, { search: { window_posts: 4, concurrent_scans: 2 } })
  const alice = await svc.person('alice')
  await post(svc, alice, 'an old needle #pin')
  for (let i = 0; i < 3; i++) await post(svc, alice, `hay ${i}`)
  const recent = await post(svc, alice, 'a new needle #pin')
  const app = { token: svc.appToken }
  t.same(ids(await svc.call('GET', '/stream/0/posts/search?query=needle', app)), [recent.id], 'order=id')
  t.same(ids(await svc.call('GET', '/stream/0/posts/search?query=needle&order=score', app)), [recent.id], 'order=score')
  t.same(ids(await svc.call('GET', '/stream/0/posts/search?hashtags=pin', app)), [recent.id], 'through the hashtag index')
  const paged = await svc.call('GET', `/stream/0/posts/search?query=needle&before_id=${recent.id}`, app)
  t.same(ids(paged), [], 'paging on does not reach past the window')
  t.equal(paged.body.meta.more, false)
})
