import t from 'tap'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'

const post = async (svc: Instance, who: Person, payload: Record<string, unknown>) => {
  const res = await svc.call('POST', '/stream/0/posts', { token: who.token, payload })
  if (res.status !== 200) throw new Error(`post failed: ${JSON.stringify(res.body)}`)
  return res.body.data as { id: string }
}

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((p) => p.id)

const story = async (t: Parameters<typeof makeInstance>[0]) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const coffee = await post(svc, alice, {
    text: 'Good #coffee in Berlin',
    annotations: [{ type: 'svc.core.geolocation', value: { latitude: 52.5, longitude: 13.4 } }],
  })
  const tea = await post(svc, bob, { text: '@alice tea beats coffee, coffee, coffee' })
  const reply = await post(svc, bob, { text: 'Berlin is lovely', reply_to: coffee.id })
  await post(svc, bob, { machine_only: true, annotations: [{ type: 'com.example.coffee', value: { beans: 'coffee' } }] })
  return { svc, alice, bob, coffee, tea, reply }
}

t.test('a search needs a token and a query or a filter', async (t) => {
  const { svc, alice } = await story(t)
  t.equal((await svc.call('GET', '/stream/0/posts/search?query=coffee')).status, 401)
  const empty = await svc.call('GET', '/stream/0/posts/search', { token: alice.token })
  t.equal(empty.status, 400)
  t.match(empty.body.meta.error_message, /^Bad Request: .*query or at least one filter/)
  const scoreOnly = await svc.call('GET', `/stream/0/posts/search?order=score&creator_id=${alice.user.id}`, { token: alice.token })
  t.equal(scoreOnly.status, 400)
})

t.test('malformed filters are 400s that name the parameter', async (t) => {
  const { svc, alice } = await story(t)
  for (const q of ['is_reply=maybe', 'creator_id=abc', 'order=random', 'index=partial', 'count=many']) {
    const res = await svc.call('GET', `/posts/search?${q}`, { token: alice.token })
    t.equal(res.status, 400, q)
    t.match(res.body.meta.error_message, /^Bad Request: /, q)
  }
})

t.test('an app token searches text, hashtags and mentions; machine-only posts are not indexed', async (t) => {
  const { svc, coffee, tea, reply } = await story(t)
  const app = { token: svc.appToken }
  const text = await svc.call('GET', '/stream/0/posts/search?query=coffee', app)
  t.equal(text.status, 200)
  t.same(ids(text), [tea.id, coffee.id])
  t.equal(text.body.data[0].pagination_id, tea.id)
  t.same(ids(await svc.call('GET', '/posts/search?hashtags=coffee', app)), [coffee.id])
  t.same(ids(await svc.call('GET', '/posts/search?mentions=alice&is_directed=1', app)), [tea.id])
  t.same(ids(await svc.call('GET', `/posts/search?thread_id=${coffee.id}`, app)), [reply.id, coffee.id])
  t.same(ids(await svc.call('GET', '/posts/search?has_location=1', app)), [coffee.id])
  t.same(ids(await svc.call('GET', '/posts/search?annotation_types=com.example.coffee', app)), [], 'machine-only posts are not indexed')
  t.same(ids(await svc.call('GET', `/posts/search?query=${encodeURIComponent('berlin -lovely')}`, app)), [coffee.id])
})

t.test('relevance order pages with the meta ids it answers', async (t) => {
  const { svc, alice, coffee, tea } = await story(t)
  const first = await svc.call('GET', '/posts/search?query=coffee&order=score&count=1', { token: alice.token })
  t.same(ids(first), [tea.id])
  t.equal(first.body.meta.more, true)
  const next = await svc.call('GET', `/posts/search?query=coffee&order=score&count=1&before_id=${first.body.meta.min_id}`, { token: alice.token })
  t.same(ids(next), [coffee.id])
  t.equal(next.body.meta.more, false)
})

t.test('alice does not find posts by people she muted', async (t) => {
  const { svc, alice, bob, coffee } = await story(t)
  await svc.call('POST', `/users/${bob.user.id}/mute`, { token: alice.token })
  t.same(ids(await svc.call('GET', '/posts/search?query=coffee', { token: alice.token })), [coffee.id])
})

t.test('a repeated filter key is one list, as client libraries send a list', async (t) => {
  const { svc, alice, bob } = await story(t)
  const both = await post(svc, alice, { text: 'More #coffee in #Berlin' })
  const app = { token: svc.appToken }
  const repeated = await svc.call('GET', '/posts/search?hashtags=coffee&hashtags=berlin', app)
  t.equal(repeated.status, 200)
  t.same(ids(repeated), [both.id], 'every hashtag listed must be there')
  t.same(ids(await svc.call('GET', '/posts/search?hashtags=coffee,berlin', app)), [both.id], 'as with one comma separated value')
  const mentions = await svc.call('GET', '/posts/search?mentions=alice&mentions=bob', { token: bob.token })
  t.equal(mentions.status, 200)
  const tooMany = Array.from({ length: 21 }, (_, i) => `hashtags=t${i}`).join('&')
  const refused = await svc.call('GET', `/posts/search?${tooMany}`, { token: alice.token })
  t.equal(refused.status, 400)
  t.equal(refused.body.meta.error_message, 'Bad Request: hashtags must list 1 to 20 values')
})
