import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'

t.test("bob stars alice's post, sees it starred, and unstars it", async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const stars: string[] = []
  svc.domain.events.onAny((e) => stars.push(e.name))
  const post = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'star me' } })).body.data
  const starred = await svc.call('POST', `/posts/${post.id}/star`, { token: bob.token })
  t.match(starred.body.data, { id: post.id, you_starred: true, num_stars: 1 })
  await svc.call('POST', `/posts/${post.id}/star`, { token: bob.token })
  t.equal((await svc.call('GET', `/posts/${post.id}`)).body.data.num_stars, 1, 'starring twice counts once')
  t.equal((await svc.call('GET', '/users/@bob')).body.data.counts.stars, 1)
  const unstarred = await svc.call('DELETE', `/posts/${post.id}/star`, { token: bob.token })
  t.match(unstarred.body.data, { you_starred: false, num_stars: 0 })
  t.same(
    stars.filter((n) => n.startsWith('star.')),
    ['star.added', 'star.removed'],
  )
})

t.test('a repost and a deleted post cannot be starred', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const post = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'original' } })).body.data
  const repost = (await svc.call('POST', `/posts/${post.id}/repost`, { token: bob.token })).body.data
  const onRepost = await svc.call('POST', `/posts/${repost.id}/star`, { token: alice.token })
  t.equal(onRepost.status, 400)
  await svc.call('DELETE', `/posts/${post.id}`, { token: alice.token })
  const onDeleted = await svc.call('POST', `/posts/${post.id}/star`, { token: bob.token })
  t.equal(onDeleted.status, 400)
  t.equal(onDeleted.body.meta.error_message, 'Bad Request: You cannot star a deleted post')
  t.equal((await svc.call('POST', '/posts/999/star', { token: bob.token })).status, 404)
  t.equal((await svc.call('POST', `/posts/${post.id}/star`, { token: svc.appToken })).status, 403)
})

t.test('who starred a post, and what carol starred, most recent star first', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const first = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'first' } })).body.data
  const second = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'second' } })).body.data
  await svc.call('POST', `/posts/${second.id}/star`, { token: carol.token })
  await svc.call('POST', `/posts/${first.id}/star`, { token: carol.token })
  await svc.call('POST', `/posts/${first.id}/star`, { token: bob.token })
  const starrers = await svc.call('GET', `/posts/${first.id}/stars`, { token: alice.token })
  t.same(
    starrers.body.data.map((u: { username: string }) => u.username),
    ['bob', 'carol'],
  )
  t.equal((await svc.call('GET', `/posts/${first.id}/stars`)).status, 401)
  const starred = await svc.call('GET', '/users/@carol/stars')
  t.same(
    starred.body.data.map((p: { text: string }) => p.text),
    ['first', 'second'],
    'the older post starred later comes first',
  )
  t.not(starred.body.data[0].pagination_id, first.id, 'pagination ids are star ids')
  const page = await svc.call('GET', `/users/@carol/stars?count=1&before_id=${starred.body.data[0].pagination_id}`)
  t.same(
    page.body.data.map((p: { text: string }) => p.text),
    ['second'],
  )
  const withSample = await svc.call('GET', `/posts/${first.id}?include_starred_by=1`, { token: carol.token })
  t.same(withSample.body.data.starred_by.map((u: { username: string }) => u.username).sort(), ['bob', 'carol'])
})
