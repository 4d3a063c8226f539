import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'
import { post, texts, type Post } from '../../fixtures/posts.js'

t.test('my stream: my posts, the people I follow and their reposts, without strangers', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  await svc.call('POST', '/users/@bob/follow', { token: alice.token })
  const byCarol = await post(svc, carol, { text: 'carol speaks' })
  await post(svc, bob, { text: 'bob speaks' })
  await post(svc, alice, { text: 'alice speaks' })
  await svc.call('POST', `/posts/${byCarol.id}/repost`, { token: bob.token })
  const res = await svc.call('GET', '/posts/stream', { token: alice.token })
  t.same(texts(res), ['>> @carol: carol speaks', 'alice speaks', 'bob speaks'])
  t.same(res.body.meta.marker, { name: 'my_stream' })
  t.equal((await svc.call('GET', '/posts/stream', { token: svc.appToken })).status, 403, 'a user token is needed')
  const noStream = await svc.person('dave', { scopes: ['basic'] })
  t.equal((await svc.call('GET', '/posts/stream', { token: noStream.token })).status, 403, 'and the stream scope')
})

t.test('my stream hides directed posts to people I do not follow unless asked', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await svc.person('carol')
  await svc.call('POST', '/users/@bob/follow', { token: alice.token })
  await post(svc, bob, { text: '@carol psst' })
  await post(svc, bob, { text: '@alice hi' })
  t.same(texts(await svc.call('GET', '/posts/stream', { token: alice.token })), ['@alice hi'])
  t.same(texts(await svc.call('GET', '/posts/stream?include_directed_posts=1', { token: alice.token })), ['@alice hi', '@carol psst'])
  t.same(texts(await svc.call('GET', '/users/@bob/posts', { token: alice.token })), ['@alice hi', '@carol psst'], 'other lists include directed posts')
})

t.test('unified merges my stream with my mentions', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  await svc.call('POST', '/users/@bob/follow', { token: alice.token })
  await post(svc, carol, { text: 'hey @alice' })
  await post(svc, carol, { text: 'unrelated' })
  await post(svc, bob, { text: 'from bob' })
  const res = await svc.call('GET', '/posts/stream/unified', { token: alice.token })
  t.same(texts(res), ['from bob', 'hey @alice'])
  t.equal(res.body.meta.marker!.name, 'unified')
  const paged = await svc.call('GET', '/posts/stream/unified?count=1', { token: alice.token })
  t.same(texts(paged), ['from bob'])
  t.equal(paged.body.meta.more, true)
})

t.test('global has everyone except reposts, bots and machine-only posts', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const robo = await svc.person('robo', { type: 'bot' })
  const feed = await svc.person('news', { type: 'feed' })
  const first = await post(svc, alice, { text: 'alice here' })
  await post(svc, robo, { text: 'beep' })
  await post(svc, feed, { text: 'headline' })
  await post(svc, bob, { machine_only: true, annotations: [{ type: 'com.example.ping', value: {} }] })
  await svc.call('POST', `/posts/${first.id}/repost`, { token: bob.token })
  const res = await svc.call('GET', '/posts/stream/global')
  t.same(texts(res), ['headline', 'alice here'])
  t.same(res.body.meta.marker, { name: 'global' })
  const machine = await svc.call('GET', '/posts/stream/global?include_machine=1')
  t.equal(machine.body.data.length, 3)
  t.same(texts(await svc.call('GET', '/users/@robo/posts')), ['beep'], "a bot's own posts list shows them")
})

t.test('muted people vanish from streams except when asked for by name', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await svc.call('POST', '/users/@bob/follow', { token: alice.token })
  await post(svc, bob, { text: 'loud #noise' })
  await svc.call('POST', '/users/@bob/mute', { token: alice.token })
  t.same(texts(await svc.call('GET', '/posts/stream', { token: alice.token })), [])
  t.same(texts(await svc.call('GET', '/posts/stream/global', { token: alice.token })), [])
  t.same(texts(await svc.call('GET', '/posts/tag/noise', { token: alice.token })), [])
  t.same(texts(await svc.call('GET', '/posts/stream/global?include_muted=1', { token: alice.token })), ['loud #noise'])
  t.same(texts(await svc.call('GET', '/users/@bob/posts', { token: alice.token })), ['loud #noise'])
  t.same(texts(await svc.call('GET', '/users/@bob/posts?include_muted=0', { token: alice.token })), [])
})

t.test('blocks hide posts both ways in every stream, whatever the flags', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await post(svc, alice, { text: 'alice #both' })
  await post(svc, bob, { text: 'bob #both' })
  await svc.call('POST', '/users/@bob/block', { token: alice.token })
  t.same(texts(await svc.call('GET', '/posts/tag/both?include_muted=1', { token: bob.token })), ['bob #both'])
  t.same(texts(await svc.call('GET', '/posts/tag/both', { token: alice.token })), ['alice #both'])
  t.same(texts(await svc.call('GET', '/users/@alice/posts', { token: bob.token })), [])
  t.same(texts(await svc.call('GET', '/posts/tag/both')), ['bob #both', 'alice #both'], 'logged out, both show')
})

t.test('hashtags match any case and leave reposts out', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const p = await post(svc, alice, { text: 'I like #Music' })
  await svc.call('POST', `/posts/${p.id}/repost`, { token: bob.token })
  const res = await svc.call('GET', '/posts/tag/MUSIC')
  t.same(texts(res), ['I like #Music'])
  t.same(res.body.meta.marker, { name: 'tag:music' })
  t.equal((await svc.call('GET', '/posts/tag/no%20tag')).status, 400)
})

t.test('mentions of bob, without reposts, with the mentions marker', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const p = await post(svc, alice, { text: 'hello @bob' })
  await svc.call('POST', `/posts/${p.id}/repost`, { token: carol.token })
  const res = await svc.call('GET', '/users/@bob/mentions', { token: bob.token })
  t.same(texts(res), ['hello @bob'])
  t.same(res.body.meta.marker, { name: `mentions:${bob.user.id}` })
  t.equal((await svc.call('GET', '/users/@bob/mentions')).status, 401)
})

t.test('the replies endpoint answers the whole thread from any of its posts', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const root = await post(svc, alice, { text: 'root' })
  const reply = await post(svc, bob, { text: 'reply', reply_to: root.id })
  const deeper = await post(svc, alice, { text: 'deeper', reply_to: reply.id })
  await post(svc, alice, { text: 'elsewhere' })
  await svc.call('DELETE', `/posts/${reply.id}`, { token: bob.token })
  const res = await svc.call('GET', `/posts/${deeper.id}/replies`, { token: bob.token })
  t.same(texts(res), ['deeper', `deleted ${reply.id}`, 'root'], 'deleted posts keep their place by default')
  t.notOk('marker' in res.body.meta)
  t.same(texts(await svc.call('GET', `/posts/${root.id}/replies?include_deleted=0`, { token: bob.token })), ['deeper', 'root'])
  t.equal((await svc.call('GET', '/posts/999/replies', { token: bob.token })).status, 404)
})

t.test('stream pages walk back with before_id and the marker pages from last_read', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const ids: string[] = []
  for (const n of [1, 2, 3, 4]) ids.push((await post(svc, alice, { text: `p${n}` })).id)
  const first = await svc.call('GET', '/users/@alice/posts?count=2')
  t.same(texts(first), ['p4', 'p3'])
  t.match(first.body.meta, { more: true, min_id: ids[2], max_id: ids[3] })
  t.same(texts(await svc.call('GET', `/users/@alice/posts?count=2&before_id=${first.body.meta.min_id}`)), ['p2', 'p1'])
  t.same(texts(await svc.call('GET', `/users/@alice/posts?count=-1&since_id=${ids[0]}`)), ['p2'], 'a negative count walks forward')
  await svc.domain.channels.markers.set(await svc.domain.auth.tokens.authenticate(alice.token), [{ name: 'global', id: Number(ids[1]) }])
  const fromMarker = await svc.call('GET', '/posts/stream/global?since_id=last_read', { token: alice.token })
  t.same(texts(fromMarker), ['p4', 'p3'])
  t.match(fromMarker.body.meta.marker, { name: 'global', last_read_id: ids[1] })
  t.same(texts(await svc.call('GET', '/posts/stream/global?since_id=last_read_inclusive', { token: alice.token })), ['p4', 'p3', 'p2'])
  t.equal((await svc.call('GET', '/posts/stream/global?since_id=last_read')).status, 400, 'no marker without a user')
})

t.test('the photo facet keeps only posts with an oEmbed photo', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const photo = { type: 'svc.core.oembed', value: { type: 'photo', version: '1.0', width: 10, height: 10, url: 'https://img.example/1.png' } }
  await post(svc, alice, { text: 'with photo', annotations: [photo] })
  await post(svc, alice, { text: 'plain' })
  t.same(texts(await svc.call('GET', '/posts/stream?has_oembed_photo=1', { token: alice.token })), ['with photo'])
  t.same(texts(await svc.call('GET', '/posts/stream/unified?has_oembed_photo=1', { token: alice.token })), ['with photo'])
  t.same(texts(await svc.call('GET', '/posts/stream/global?has_oembed_photo=1')), ['plain', 'with photo'], 'global has no facets: the parameter is ignored')
})

t.test('lists refuse bad pages and unknown users', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  t.equal((await svc.call('GET', '/users/@nobody/posts')).status, 404)
  for (const query of ['count=2.5', 'count=abc', 'before_id=xyz', 'include_muted=maybe']) {
    const res = await svc.call('GET', `/users/@alice/posts?${query}`)
    t.equal(res.status, 400, query)
    t.match(res.body.meta.error_message, /^Bad Request: /)
  }
})

t.test('who can call each post list: None, Any or User (with stream for the personal streams)', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const noStream = await svc.person('nostream', { scopes: ['basic'] })
  const made = await post(svc, alice, { text: 'hello @alice #tag' })
  const table: [string, number, number, number][] = [
    // url, no token, app token, user token without stream
    ['/users/@alice/posts', 200, 200, 200],
    ['/users/@alice/stars', 200, 200, 200],
    ['/posts/stream/global', 200, 200, 200],
    ['/posts/tag/tag', 200, 200, 200],
    ['/users/@alice/mentions', 401, 200, 200],
    [`/posts/${made.id}/replies`, 401, 200, 200],
    [`/posts/${made.id}/stars`, 401, 200, 200],
    [`/posts/${made.id}/reposters`, 401, 200, 200],
    ['/posts/search?query=hello', 401, 200, 200],
    ['/posts/stream', 401, 403, 403],
    ['/posts/stream/unified', 401, 403, 403],
    ['/users/me/interactions', 401, 403, 200],
  ]
  for (const [url, none, app, user] of table) {
    const got = [
      (await svc.call('GET', `/stream/0${url}`)).status,
      (await svc.call('GET', `/stream/0${url}`, { token: svc.appToken })).status,
      (await svc.call('GET', `/stream/0${url}`, { token: noStream.token })).status,
    ]
    t.same(got, [none, app, user], url)
  }
})

t.test('include_muted is 0 in streams but 1 when asking for a muted user or their post', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  const loud = await post(svc, bob, { text: 'loud @alice #m' })
  await svc.call('POST', `/posts/${loud.id}/repost`, { token: carol.token })
  await svc.call('POST', '/users/@carol/follow', { token: alice.token })
  await svc.call('POST', '/users/@bob/mute', { token: alice.token })
  for (const url of ['/posts/stream', '/posts/stream/unified', '/posts/stream/global', '/users/me/mentions', '/posts/tag/m', '/posts/search?query=loud']) {
    t.same(texts(await svc.call('GET', url, { token: alice.token })), [], `${url} hides bob and reposts of him`)
  }
  t.same(texts(await svc.call('GET', '/posts/stream?include_muted=1', { token: alice.token })), ['>> @bob: loud @alice #m'])
  t.same(texts(await svc.call('GET', '/posts/stream/unified?include_muted=1', { token: alice.token })), ['>> @bob: loud @alice #m', 'loud @alice #m'])
  t.equal((await svc.call('GET', `/posts/${loud.id}`, { token: alice.token })).body.data.text, 'loud @alice #m')
  t.same(texts(await svc.call('GET', '/users/@bob/posts', { token: alice.token })), ['loud @alice #m'])
})

t.test('include_directed_posts is 0 on my stream and 1 on the other lists', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob', 'carol')
  await svc.call('POST', '/users/@bob/follow', { token: alice.token })
  await post(svc, bob, { text: '@carol only for you #d' })
  t.same(texts(await svc.call('GET', '/posts/stream', { token: alice.token })), [])
  for (const url of ['/posts/stream/global', '/posts/tag/d', '/users/@bob/posts', '/users/@carol/mentions', '/posts/search?hashtags=d']) {
    t.same(texts(await svc.call('GET', url, { token: alice.token })), ['@carol only for you #d'], url)
  }
})

t.test('the replies endpoint answers the whole thread from any post of it, newest first, paginated', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const root = await post(svc, alice, { text: 'root' })
  const a = await post(svc, bob, { text: 'a', reply_to: root.id })
  const b = await post(svc, alice, { text: 'b', reply_to: root.id })
  await svc.call('POST', `/posts/${root.id}/repost`, { token: bob.token })
  for (const from of [root, a, b])
    t.same(texts(await svc.call('GET', `/posts/${from.id}/replies`, { token: bob.token })), ['b', 'a', 'root'], `from ${from.text}`)
  const page = await svc.call('GET', `/posts/${b.id}/replies?count=2`, { token: bob.token })
  t.same(page.body.meta, { code: 200, more: true, min_id: a.id, max_id: b.id })
})

t.test("global leaves out reposts, hashtag and mention streams too; a user's posts include their reposts", async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const made = await post(svc, alice, { text: '#x hi @bob' })
  await svc.call('POST', `/posts/${made.id}/repost`, { token: bob.token })
  for (const url of ['/posts/stream/global', '/posts/tag/x', '/users/@bob/mentions'])
    t.same(texts(await svc.call('GET', url, { token: bob.token })), ['#x hi @bob'], url)
  t.same(texts(await svc.call('GET', '/users/@bob/posts')), ['>> @alice: #x hi @bob'])
})

t.test('my stream shows a post once a week: the first repost of it shows, later ones and reposts of what I saw do not, on every page', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol, dave] = await svc.people('alice', 'bob', 'carol', 'dave')
  for (const who of ['@bob', '@carol']) await svc.call('POST', `/users/${who}/follow`, { token: alice.token })
  const byDave = await post(svc, dave, { text: 'dave says' })
  const byBob = await post(svc, bob, { text: 'bob says' })
  const first = (await svc.call('POST', `/posts/${byDave.id}/repost`, { token: bob.token })).body.data
  await svc.call('POST', `/posts/${byDave.id}/repost`, { token: carol.token })
  await svc.call('POST', `/posts/${byBob.id}/repost`, { token: carol.token })
  const stream = await svc.call('GET', '/posts/stream', { token: alice.token })
  t.same(
    stream.body.data.map((p: Post) => p.id),
    [first.id, byBob.id],
  )
  const paged: string[] = []
  let before = ''
  for (;;) {
    const page = await svc.call('GET', `/posts/stream?count=1${before}`, { token: alice.token })
    paged.push(...page.body.data.map((p: Post) => p.id))
    if (!page.body.meta.more) break
    before = `&before_id=${page.body.meta.min_id}`
  }
  t.same(paged, [first.id, byBob.id], 'page by page alike')
  t.same(
    texts(await svc.call('GET', '/users/@carol/posts', { token: alice.token })),
    ['>> @bob: bob says', '>> @dave: dave says'],
    "the rule is my stream's only",
  )
})

t.test('unified is my stream merged with my mentions, each part with its own defaults', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await svc.person('carol')
  const dave = await svc.person('dave')
  await svc.call('POST', '/users/@dave/follow', { token: alice.token })
  await post(svc, bob, { text: '@carol look, @alice too' })
  await post(svc, dave, { text: '@carol just for carol' })
  await post(svc, dave, { text: 'for everyone' })
  t.same(texts(await svc.call('GET', '/users/me/mentions', { token: alice.token })), ['@carol look, @alice too'])
  t.same(texts(await svc.call('GET', '/posts/stream', { token: alice.token })), ['for everyone'])
  t.same(texts(await svc.call('GET', '/posts/stream/unified', { token: alice.token })), ['for everyone', '@carol look, @alice too'])
  t.same(texts(await svc.call('GET', '/posts/stream/unified?include_directed_posts=1', { token: alice.token })), [
    'for everyone',
    '@carol just for carol',
    '@carol look, @alice too',
  ])
  t.same(texts(await svc.call('GET', '/posts/stream/unified?include_directed_posts=0', { token: alice.token })), ['for everyone'])
  t.same(texts(await svc.call('GET', '/posts/stream/unified?has_oembed_photo=1', { token: alice.token })), [], 'the photo facet narrows both parts')
})
