/**
 * What every post list shares: the user it is about named by id, me or
 * @name, pages of 20 with their meta, the stream marker it names, and the
 * post general parameters' defaults.
 */
import t from 'tap'
import type { Paginated, User } from '../../../server/api/index.js'
import { makeInstance } from '../../fixtures/instance.js'
import { post, texts, type Post } from '../../fixtures/posts.js'

t.test('user lists take an id, me or @name', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const made = await post(svc, alice, { text: 'hi @bob' })
  await svc.call('POST', `/posts/${made.id}/star`, { token: bob.token })
  for (const ref of [String(bob.user.id), 'me', '@bob', '@BOB']) {
    t.same(texts(await svc.call('GET', `/users/${ref}/stars`, { token: bob.token })), ['hi @bob'], `stars of ${ref}`)
    t.same(texts(await svc.call('GET', `/users/${ref}/mentions`, { token: bob.token })), ['hi @bob'], `mentions of ${ref}`)
  }
  t.same(texts(await svc.call('GET', '/users/me/posts', { token: alice.token })), ['hi @bob'])
})

t.test('paginated post lists: 20 by default, meta more/min_id/max_id as strings, pagination_id on each item, nothing on an empty page', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made: Post[] = []
  for (let i = 0; i < 21; i++) made.push(await post(svc, alice, { text: `#n p${i}` }))
  for (const url of ['/users/@alice/posts', '/posts/stream/global', '/posts/tag/n']) {
    const res = await svc.call('GET', url)
    t.equal(res.body.data.length, 20, url)
    t.same(res.body.meta, { code: 200, more: true, min_id: made[1].id, max_id: made[20].id, marker: res.body.meta.marker }, url)
    t.same(
      res.body.data.map((p: Paginated<Post>) => p.pagination_id),
      made
        .slice(1)
        .reverse()
        .map((p) => p.id),
      url,
    )
  }
  const empty = await svc.call('GET', `/users/@alice/posts?since_id=${made[20].id}`)
  t.same(empty.body, { data: [], meta: { code: 200, more: false, marker: { name: `posts:${alice.user.id}` } } })
  const single = (await svc.call('GET', `/posts/${made[0].id}`)).body.data
  t.notOk('pagination_id' in single, 'only list items carry pagination_id')
})

t.test('each post list names its stream marker', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await post(svc, alice, { text: 'hi' })
  const marker = async (url: string) => (await svc.call('GET', url, { token: alice.token })).body.meta.marker
  t.same(await marker('/users/@alice/posts'), { name: `posts:${alice.user.id}` })
  t.same(await marker('/users/me/mentions'), { name: `mentions:${alice.user.id}` })
  t.same(await marker('/posts/stream'), { name: 'my_stream' })
  t.same(await marker('/posts/stream/unified'), { name: 'unified' })
  t.same(await marker('/posts/stream/global'), { name: 'global' })
  t.same(await marker('/posts/tag/%23Music'), { name: 'tag:music' })
  t.equal(await marker(`/posts/${made.id}/replies`), undefined)
  t.equal(await marker('/users/me/stars'), undefined)
})

t.test('post general parameters: machine-only, starred_by and reposters samples are off by default', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const made = await post(svc, alice, { text: 'popular #p' })
  await post(svc, alice, { machine_only: true, annotations: [{ type: 'com.example.sync', value: {} }] })
  await svc.call('POST', `/posts/${made.id}/star`, { token: bob.token })
  await svc.call('POST', `/posts/${made.id}/repost`, { token: bob.token })
  const plain = (await svc.call('GET', `/posts/${made.id}`)).body.data
  t.notOk('starred_by' in plain)
  t.notOk('reposters' in plain)
  const asked = (await svc.call('GET', `/posts/${made.id}?include_starred_by=1&include_reposters=1`)).body.data
  t.same([asked.starred_by.map((u: User) => u.username), asked.reposters.map((u: User) => u.username)], [['bob'], ['bob']])
  for (const url of ['/users/@alice/posts', '/posts/stream', '/posts/stream/unified', '/posts/stream/global']) {
    const count = async (q: string) => (await svc.call('GET', `${url}${q}`, { token: alice.token })).body.data.filter((p: Post) => p.machine_only).length
    t.same([await count(''), await count('?include_machine=1')], [0, 1], url)
  }
  const listed = (await svc.call('GET', '/posts/tag/p?include_starred_by=1')).body.data[0]
  t.same(
    listed.starred_by.map((u: User) => u.username),
    ['bob'],
    'lists take the samples too',
  )
})

t.test('since_id and before_id are exclusive; a negative count takes the slice nearest since_id, still newest first', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const ids: string[] = []
  for (let n = 1; n <= 10; n++) ids.push((await post(svc, alice, { text: `p${n}` })).id)
  const page = async (q: string) => svc.call('GET', `/users/@alice/posts?since_id=${ids[1]}&before_id=${ids[8]}&${q}`)
  const forward = await page('count=2')
  t.same(texts(forward), ['p8', 'p7'])
  t.same(forward.body.meta, { code: 200, more: true, min_id: ids[6], max_id: ids[7], marker: { name: `posts:${alice.user.id}` } })
  const backward = await page('count=-2')
  t.same(texts(backward), ['p4', 'p3'])
  t.same([backward.body.meta.min_id, backward.body.meta.max_id, backward.body.meta.more], [ids[2], ids[3], true])
})
