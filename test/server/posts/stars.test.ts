import t from 'tap'
import type { User } from '../../../server/api/index.js'
import { makeInstance, type Person } from '../../fixtures/instance.js'
import { post } from '../../fixtures/posts.js'
import { keys, usernames } from '../../fixtures/shapes.js'

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

t.test('star and repost need a user token with write_post (or its alias post)', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const reader = await svc.person('reader', { scopes: ['basic', 'stream'] })
  const poster = await svc.person('poster', { scopes: ['basic', 'post'] })
  const made = await post(svc, alice, { text: 'target' })
  for (const [method, path] of [
    ['POST', 'star'],
    ['DELETE', 'star'],
    ['POST', 'repost'],
    ['DELETE', 'repost'],
  ]) {
    const url = `/stream/0/posts/${made.id}/${path}`
    t.equal((await svc.call(method, url)).status, 401, `${method} ${path} without a token`)
    t.equal((await svc.call(method, url, { token: svc.appToken })).status, 403, `${method} ${path} with an app token`)
    t.equal((await svc.call(method, url, { token: reader.token })).status, 403, `${method} ${path} without write_post`)
    t.equal((await svc.call(method, url, { token: poster.token })).status, 200, `${method} ${path} with post`)
  }
})

t.test('stars: POST answers you_starred true and num_stars up, DELETE you_starred false and num_stars down', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  const made = await post(svc, alice, { text: 'starry' })
  await svc.call('POST', `/posts/${made.id}/star`, { token: carol.token })
  const starred = (await svc.call('POST', `/posts/${made.id}/star`, { token: bob.token })).body.data
  t.same([starred.id, starred.you_starred, starred.num_stars], [made.id, true, 2])
  const unstarred = (await svc.call('DELETE', `/posts/${made.id}/star`, { token: bob.token })).body.data
  t.same([unstarred.id, unstarred.you_starred, unstarred.num_stars], [made.id, false, 1])
  const never = await svc.call('DELETE', `/posts/${made.id}/star`, { token: alice.token })
  t.same([never.status, never.body.data.you_starred, never.body.data.num_stars], [200, false, 1], 'unstarring a post one never starred changes nothing')
})

t.test('a repost cannot be starred: star the parent', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const made = await post(svc, alice, { text: 'original' })
  const repost = (await svc.call('POST', `/posts/${made.id}/repost`, { token: bob.token })).body.data
  const res = await svc.call('POST', `/posts/${repost.id}/star`, { token: alice.token })
  t.equal(res.status, 400)
  t.match(res.body.meta.error_message, /^Bad Request: .*repost/)
  t.equal((await svc.call('GET', `/posts/${repost.id}`)).body.data.num_stars, 0)
})

t.test('the starred_by sample puts people the viewer follows first', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await post(svc, alice, { text: 'popular' })
  const fans: Person[] = []
  for (let i = 0; i < 12; i++) fans.push(await svc.person(`fan${i}`))
  for (const fan of fans) await svc.call('POST', `/posts/${made.id}/star`, { token: fan.token })
  await svc.call('POST', '/users/@fan0/follow', { token: alice.token })
  const sample = (await svc.call('GET', `/posts/${made.id}?include_starred_by=1`, { token: alice.token })).body.data.starred_by
  t.equal(sample[0].username, 'fan0')
  t.ok(sample.length < 12, 'a sample, not the whole list')
  t.equal((await svc.call('GET', `/posts/${made.id}/stars?count=200`, { token: alice.token })).body.data.length, 12, 'the full list is /posts/{id}/stars')
})

t.test('stars and reposters of a post are paginated lists of users that take the user general parameters', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  const made = await post(svc, alice, { text: 'liked' })
  for (const who of [bob, carol]) {
    await svc.call('POST', `/posts/${made.id}/star`, { token: who.token })
    await svc.call('POST', `/posts/${made.id}/repost`, { token: who.token })
  }
  for (const path of ['stars', 'reposters']) {
    const first = await svc.call('GET', `/posts/${made.id}/${path}?count=1&include_html=0`, { token: alice.token })
    t.same(
      first.body.data.map((u: User) => u.username),
      ['carol'],
      path,
    )
    t.notOk('html' in first.body.data[0].description, `${path}: include_html=0`)
    t.same(keys(first.body.meta), ['code', 'max_id', 'min_id', 'more'])
    t.equal(first.body.meta.more, true)
    t.equal(first.body.data[0].pagination_id, first.body.meta.min_id)
    const next = await svc.call('GET', `/posts/${made.id}/${path}?before_id=${first.body.meta.min_id}&include_user_annotations=1`, { token: alice.token })
    t.same(
      next.body.data.map((u: User) => [u.username, u.annotations]),
      [['bob', []]],
      path,
    )
  }
})

t.test('reposters and starrers are users paged by repost and star, with the user general parameters', async (t) => {
  const svc = await makeInstance(t)
  // carol comes first so that no user id equals a repost or star id.
  await svc.person('carol')
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const original = await post(svc, alice, { text: 'share me' })
  const repost = (await svc.call('POST', `/posts/${original.id}/repost`, { token: bob.token })).body.data
  await svc.call('POST', `/posts/${original.id}/star`, { token: bob.token })
  const star = await svc.store.read.stars.one('pair', `${bob.user.id}:${original.id}`)
  for (const [list, paginationId] of [
    ['reposters', repost.id],
    ['stars', String(star?.id)],
  ]) {
    t.equal((await svc.call('GET', `/posts/${original.id}/${list}`)).status, 401, `${list}: a token is needed`)
    const res = await svc.call('GET', `/posts/${original.id}/${list}?include_html=0`, { token: svc.appToken })
    t.same(usernames(res), ['bob'], list)
    t.not(paginationId, String(bob.user.id))
    t.equal(res.body.data[0].pagination_id, paginationId, `${list}: pagination id`)
    t.same(res.body.meta, { code: 200, more: false, max_id: paginationId, min_id: paginationId })
    t.notOk('html' in res.body.data[0].description, `${list}: include_html=0`)
  }
})

t.test("starring and reposting answer the post with its annotations when asked, as the web client asks (a photo post's photo stays)", async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const annotations = [{ type: 'com.example.photo', value: { caption: 'the sea' } }]
  const post = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'look', annotations } })).body.data
  const asked = '?include_post_annotations=1'
  t.same((await svc.call('POST', `/posts/${post.id}/star${asked}`, { token: bob.token })).body.data.annotations, annotations, 'star')
  t.same((await svc.call('DELETE', `/posts/${post.id}/star${asked}`, { token: bob.token })).body.data.annotations, annotations, 'unstar')
  const repost = (await svc.call('POST', `/posts/${post.id}/repost${asked}`, { token: bob.token })).body.data
  t.same(repost.repost_of.annotations, annotations, 'repost: the original within')
  t.same((await svc.call('DELETE', `/posts/${post.id}/repost${asked}`, { token: bob.token })).body.data.annotations, annotations, 'unrepost')
  t.equal((await svc.call('POST', `/posts/${post.id}/star`, { token: bob.token })).body.data.annotations, undefined, 'not asked: none')
})
