/**
 * The Relations section of the spec, statement by statement, as a client
 * sees it: follow, mute and block with their token kinds and scope, the lists
 * they make, the User object's relation booleans and counts, the bot and feed
 * rules, and the explore endpoints.
 */
import t from 'tap'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'
import { writeRelation } from '../../fixtures/post-rows.js'

const RELATION_KEYS = ['follows_you', 'you_blocked', 'you_follow', 'you_muted', 'you_can_subscribe', 'you_can_follow']
const names = (res: { body: { data: { username: string }[] } }) => res.body.data.map((u) => u.username)

const post = async (svc: Instance, who: Person, payload: Record<string, unknown>) => {
  const res = await svc.call('POST', '/stream/0/posts', { token: who.token, payload })
  if (res.status !== 200) throw new Error(`post failed: ${JSON.stringify(res.body)}`)
  return res.body.data as { id: string; entities: { mentions: { name: string }[] } }
}

t.test('the followed user comes back with every relation boolean, ids as strings and integer counts', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const res = await svc.call('POST', `/stream/0/users/${bob.user.id}/follow`, { token: alice.token })
  t.equal(res.status, 200)
  t.equal(res.body.meta.code, 200)
  const bobSeen = res.body.data
  t.equal(bobSeen.id, String(bob.user.id))
  t.same(bobSeen.counts, { following: 0, followers: 1, posts: 0, stars: 0 })
  t.same(Object.fromEntries(RELATION_KEYS.map((k) => [k, bobSeen[k]])), {
    follows_you: false,
    you_blocked: false,
    you_follow: true,
    you_muted: false,
    you_can_subscribe: true,
    you_can_follow: true,
  })
  t.same([bobSeen.is_following, bobSeen.is_follower, bobSeen.is_muted], [true, false, false], 'the deprecated names mirror the new ones')
})

t.test('following twice keeps one follow; unfollowing someone not followed answers them unchanged', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  await svc.person('carol')
  await svc.call('POST', '/users/@bob/follow', { token: alice.token })
  const again = await svc.call('POST', '/users/@BOB/follow', { token: alice.token })
  t.equal(again.status, 200)
  t.match(again.body.data, { username: 'bob', you_follow: true, counts: { followers: 1 } })
  const me = await svc.call('GET', '/users/me', { token: alice.token })
  t.equal(me.body.data.counts.following, 1)
  const never = await svc.call('DELETE', '/users/@carol/follow', { token: alice.token })
  t.equal(never.status, 200)
  t.match(never.body.data, { username: 'carol', you_follow: false, counts: { followers: 0 } })
})

t.test('follow, mute and block answer the user with the user general parameters', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  for (const [method, verb] of [
    ['POST', 'follow'],
    ['DELETE', 'follow'],
    ['POST', 'mute'],
    ['DELETE', 'mute'],
    ['POST', 'block'],
    ['DELETE', 'block'],
  ]) {
    const res = await svc.call(method, `/users/@bob/${verb}?include_html=0&include_user_annotations=1`, { token: alice.token })
    t.equal(res.status, 200, `${method} ${verb}`)
    t.notOk('html' in res.body.data.description, `${method} ${verb}: include_html=0 leaves html out`)
    t.same(res.body.data.annotations, [], `${method} ${verb}: annotations on request`)
  }
})

t.test('every relation change needs a user token with the follow scope, and a known user other than oneself', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const reader = await svc.person('reader', { scopes: ['basic', 'stream', 'write_post'] })
  await svc.person('bob')
  for (const [method, verb] of [
    ['POST', 'follow'],
    ['DELETE', 'follow'],
    ['POST', 'mute'],
    ['DELETE', 'mute'],
    ['POST', 'block'],
    ['DELETE', 'block'],
  ]) {
    const what = `${method} ${verb}`
    t.equal((await svc.call(method, `/users/@bob/${verb}`)).status, 401, `${what} without a token`)
    const byApp = await svc.call(method, `/users/@bob/${verb}`, { token: svc.appToken })
    t.same([byApp.status, byApp.body.meta.error_slug], [403, 'wrong-token-kind'], `${what} with an app token`)
    const noScope = await svc.call(method, `/users/@bob/${verb}`, { token: reader.token })
    t.same([noScope.status, noScope.body.meta.error_slug], [403, 'insufficient-scope'], `${what} without the follow scope`)
    t.equal((await svc.call(method, `/users/@nobody/${verb}`, { token: alice.token })).status, 404, `${what} of an unknown user`)
    const self = await svc.call(method, `/users/${alice.user.id}/${verb}`, { token: alice.token })
    t.equal(self.status, 400, `${what} of oneself`)
    t.match(self.body.meta.error_message, /^Bad Request: /)
  }
})

t.test('following beyond the account limit is a 507 in the envelope', async (t) => {
  const svc = await makeInstance(t, { limits: { following: 1, max_file_size: 10_000_000, storage: 500_000_000 } })
  const alice = await svc.person('alice')
  await svc.person('bob')
  await svc.person('carol')
  t.equal((await svc.call('POST', '/users/@bob/follow', { token: alice.token })).status, 200)
  const over = await svc.call('POST', '/users/@carol/follow', { token: alice.token })
  t.equal(over.status, 507)
  t.equal(over.body.meta.code, 507)
  t.type(over.body.meta.error_message, 'string')
  t.equal((await svc.call('POST', '/users/@bob/follow', { token: alice.token })).status, 200, 'following bob again is no new follow')
})

t.test('follower lists take an id, me or @name, need any token, and page by follow, not by user id', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  // carol follows first, so her follow row id differs from her user id.
  const f1 = await writeRelation(svc, 'follows', carol.user, bob.user)
  const f2 = await writeRelation(svc, 'follows', carol.user, alice.user)
  const f3 = await writeRelation(svc, 'follows', bob.user, alice.user)
  t.not(f3.id, bob.user.id)
  for (const ref of [String(alice.user.id), '@alice', 'me']) {
    const res = await svc.call('GET', `/users/${ref}/followers`, { token: alice.token })
    t.equal(res.status, 200, ref)
    t.same(names(res), ['bob', 'carol'], `${ref}: most recent follow first`)
    t.same(
      res.body.data.map((u: { pagination_id: string }) => u.pagination_id),
      [String(f3.id), String(f2.id)],
      `${ref}: pagination ids are follow ids`,
    )
    t.same(res.body.meta, { code: 200, more: false, max_id: String(f3.id), min_id: String(f2.id) })
  }
  const byApp = await svc.call('GET', `/users/${carol.user.id}/following`, { token: svc.appToken })
  t.same(names(byApp), ['alice', 'bob'])
  t.same(
    byApp.body.data.map((u: { pagination_id: string }) => u.pagination_id),
    [String(f2.id), String(f1.id)],
  )
  const newer = await svc.call('GET', `/users/@carol/following?since_id=${f1.id}`, { token: svc.appToken })
  t.same(names(newer), ['alice'])
  t.equal((await svc.call('GET', '/users/me/followers', { token: svc.appToken })).status, 400, 'an app token has no "me"')
  t.equal((await svc.call('GET', '/users/@nobody/following', { token: alice.token })).status, 404)
  const plain = await svc.call('GET', '/users/@alice/followers?include_html=0', { token: alice.token })
  t.notOk('html' in plain.body.data[0].description, 'user general parameters apply to the list')
})

t.test('a list with nobody in it has no min_id or max_id', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await svc.call('GET', '/users/@alice/following', { token: alice.token })
  t.same(res.body, { meta: { code: 200, more: false }, data: [] })
})

t.test('follower lists hold 20 users by default; the id forms hold every id, unpaginated', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const fans = []
  for (let i = 0; i < 21; i++) {
    const fan = await svc.domain.users.create({ username: `fan${i}` })
    await writeRelation(svc, 'follows', fan, alice.user)
    fans.push(fan)
  }
  const page = await svc.call('GET', '/users/@alice/followers', { token: alice.token })
  t.equal(page.body.data.length, 20)
  t.equal(page.body.meta.more, true)
  const ids = await svc.call('GET', '/users/@alice/followers/ids', { token: svc.appToken })
  t.same(ids.body, { meta: { code: 200 }, data: fans.map((f) => String(f.id)).reverse() })
  const following = await svc.call('GET', `/users/${fans[0].id}/following/ids`, { token: alice.token })
  t.same(following.body.data, [String(alice.user.id)])
  t.equal((await svc.call('GET', '/users/@alice/followers/ids')).status, 401, 'a token is needed')
})

t.test('a mute hides nothing of the follow: alice still follows bob and sees him as muted', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  await svc.call('POST', '/users/@bob/follow', { token: alice.token })
  const muted = await svc.call('POST', '/users/@bob/mute', { token: alice.token })
  t.match(muted.body.data, { you_muted: true, you_follow: true, counts: { followers: 1 } })
  const again = await svc.call('POST', '/users/@bob/mute', { token: alice.token })
  t.equal(again.body.data.you_muted, true, 'muting twice is harmless')
  const seen = await svc.call('GET', '/users/@bob', { token: alice.token })
  t.match(seen.body.data, { you_muted: true, is_muted: true })
})

t.test("a muted user's posts leave alice's unified stream and mentions, but she can still ask for them by id", async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await svc.call('POST', '/users/@bob/follow', { token: alice.token })
  const shout = await post(svc, bob, { text: 'hey @alice' })
  await svc.call('POST', '/users/@bob/mute', { token: alice.token })
  t.same((await svc.call('GET', '/posts/stream/unified', { token: alice.token })).body.data, [])
  t.same((await svc.call('GET', '/users/me/mentions', { token: alice.token })).body.data, [])
  t.equal((await svc.call('GET', `/posts/${shout.id}`, { token: alice.token })).body.data.id, shout.id)
  t.same(
    (await svc.call('GET', `/posts?ids=${shout.id}`, { token: alice.token })).body.data.map((p: { id: string }) => p.id),
    [shout.id],
  )
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
    t.same(names(res), ['bob'], list)
    t.not(paginationId, String(bob.user.id))
    t.equal(res.body.data[0].pagination_id, paginationId, `${list}: pagination id`)
    t.same(res.body.meta, { code: 200, more: false, max_id: paginationId, min_id: paginationId })
    t.notOk('html' in res.body.data[0].description, `${list}: include_html=0`)
  }
})

t.test("muted and blocked lists: me or one's own id with a user token, any authorising user with an app token, unpaginated", async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  await svc.call('POST', '/users/@bob/mute', { token: alice.token })
  await svc.call('POST', '/users/@carol/mute', { token: alice.token })
  await svc.call('POST', '/users/@bob/block', { token: carol.token })
  for (const [list, owner, expected] of [
    ['muted', alice, ['carol', 'bob']],
    ['blocked', carol, ['bob']],
  ] as const) {
    for (const ref of ['me', String(owner.user.id), `@${owner.user.username}`]) {
      const res = await svc.call('GET', `/users/${ref}/${list}?include_html=0`, { token: owner.token })
      t.equal(res.status, 200, `${list} of ${ref}`)
      t.same(res.body.meta, { code: 200 }, `${list}: no pagination`)
      t.same(names(res), expected, `${list} of ${ref}`)
      t.notOk('html' in res.body.data[0].description)
    }
    t.same(names(await svc.call('GET', `/users/${owner.user.id}/${list}`, { token: svc.appToken })), expected)
    t.equal((await svc.call('GET', `/users/me/${list}`, { token: svc.appToken })).status, 400, `${list}: an app token has no "me"`)
    t.equal((await svc.call('GET', `/users/me/${list}`)).status, 401, `${list}: a token is needed`)
  }
  t.equal((await svc.call('GET', '/users/@alice/blocked', { token: bob.token })).status, 403)
})

t.test('the muted and blocked id maps: app tokens only, string ids, at most 200 ids asked', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await svc.call('POST', '/users/@bob/mute', { token: alice.token })
  await svc.call('POST', '/users/@alice/block', { token: bob.token })
  const exactly200 = [alice.user.id, ...Array.from({ length: 199 }, (_, i) => 1000 + i)].join(',')
  const muted = await svc.call('GET', `/users/muted/ids?ids=${exactly200}`, { token: svc.appToken })
  t.equal(muted.status, 200)
  t.same(muted.body, { meta: { code: 200 }, data: { [alice.user.id]: [String(bob.user.id)] } })
  const blocked = await svc.call('GET', `/users/blocked/ids?ids=${alice.user.id},${bob.user.id}`, { token: svc.appToken })
  t.same(blocked.body.data, { [alice.user.id]: [], [bob.user.id]: [String(alice.user.id)] })
  for (const path of ['muted', 'blocked']) {
    t.equal((await svc.call('GET', `/users/${path}/ids?ids=${alice.user.id}`)).status, 401, `${path}: a token is needed`)
    t.equal((await svc.call('GET', `/users/${path}/ids?ids=${alice.user.id}`, { token: alice.token })).status, 403, `${path}: a user token is refused`)
    t.equal((await svc.call('GET', `/users/${path}/ids`, { token: svc.appToken })).status, 400, `${path}: ids are required`)
    t.equal((await svc.call('GET', `/users/${path}/ids?ids=one,two`, { token: svc.appToken })).status, 400, `${path}: ids are numbers`)
    const tooMany = Array.from({ length: 201 }, (_, i) => i + 1).join(',')
    t.equal((await svc.call('GET', `/users/${path}/ids?ids=${tooMany}`, { token: svc.appToken })).status, 400, `${path}: 201 ids`)
  }
})

t.test('alice blocks bob, whom she follows: both follows and their counts go, neither can follow the other', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await svc.call('POST', '/users/@bob/follow', { token: alice.token })
  await svc.call('POST', '/users/@alice/follow', { token: bob.token })
  const block = await svc.call('POST', '/users/@bob/block', { token: alice.token })
  t.same(Object.fromEntries(RELATION_KEYS.map((k) => [k, block.body.data[k]])), {
    follows_you: false,
    you_blocked: true,
    you_follow: false,
    you_muted: false,
    you_can_subscribe: false,
    you_can_follow: false,
  })
  t.same(block.body.data.counts, { following: 0, followers: 0, posts: 0, stars: 0 })
  t.same((await svc.call('GET', '/users/@alice/following/ids', { token: alice.token })).body.data, [])
  t.equal((await svc.call('POST', '/users/@bob/follow', { token: alice.token })).status, 403, 'the blocker cannot follow either')
  const seenByBob = await svc.call('GET', '/users/@alice', { token: bob.token })
  t.same([seenByBob.body.data.you_blocked, seenByBob.body.data.you_can_subscribe], [false, false])
  const again = await svc.call('POST', '/users/@bob/block', { token: alice.token })
  t.same([again.status, again.body.data.you_blocked], [200, true], 'blocking twice is harmless')
  const unblock = await svc.call('DELETE', '/users/@bob/block', { token: alice.token })
  t.same([unblock.body.data.you_blocked, unblock.body.data.you_follow, unblock.body.data.follows_you], [false, false, false], 'follows are not restored')
})

t.test('relation booleans are left out without a token, with an app token and on oneself', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  await svc.call('POST', '/users/@bob/follow', { token: alice.token })
  const deprecated = ['is_following', 'is_follower', 'is_muted']
  for (const [who, token] of [
    ['anonymous', undefined],
    ['app', svc.appToken],
  ] as const) {
    const res = await svc.call('GET', '/users/@bob', { token })
    t.equal(res.status, 200)
    t.same(
      [...RELATION_KEYS, ...deprecated].filter((k) => k in res.body.data),
      [],
      who,
    )
    t.same(res.body.data.counts, { following: 0, followers: 1, posts: 0, stars: 0 }, `${who}: counts are there`)
  }
  const self = await svc.call('GET', '/users/@alice', { token: alice.token })
  t.same(
    [...RELATION_KEYS, ...deprecated].filter((k) => k in self.body.data),
    [],
  )
})

t.test('counts: posts leave out deleted ones, stars count what the user starred', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const kept = await post(svc, alice, { text: 'kept' })
  const gone = await post(svc, alice, { text: 'gone' })
  await svc.call('DELETE', `/posts/${gone.id}`, { token: alice.token })
  await svc.call('POST', `/posts/${kept.id}/star`, { token: bob.token })
  t.same((await svc.call('GET', '/users/@alice')).body.data.counts, { following: 0, followers: 0, posts: 1, stars: 0 })
  t.same((await svc.call('GET', '/users/@bob')).body.data.counts, { following: 0, followers: 0, posts: 0, stars: 1 })
})

t.test('robo the bot follows, mentions and messages only its followers, and says so in you_can_*', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  const robo = await svc.person('robo', { type: 'bot' })
  await svc.call('POST', '/users/@robo/follow', { token: alice.token })
  const bobSeen = await svc.call('GET', '/users/@bob', { token: robo.token })
  t.match(bobSeen.body.data, { type: 'human', you_can_follow: false, you_can_subscribe: false })
  const aliceSeen = await svc.call('GET', '/users/@alice', { token: robo.token })
  t.match(aliceSeen.body.data, { follows_you: true, you_can_follow: true, you_can_subscribe: true })
  const refused = await svc.call('POST', '/users/@bob/follow', { token: robo.token })
  t.equal(refused.status, 403)
  t.equal((await svc.call('POST', '/users/@alice/follow', { token: robo.token })).status, 200)
  const beep = await post(svc, robo, { text: '@alice @bob beep' })
  t.same(
    beep.entities.mentions.map((m) => m.name),
    ['alice'],
    'bob does not follow robo, so he is not mentioned',
  )
  const pmBob = await svc.call('POST', '/channels/pm/messages', { token: robo.token, payload: { text: 'hi', destinations: ['@bob'] } })
  t.equal(pmBob.status, 403)
  const pmAlice = await svc.call('POST', '/channels/pm/messages', { token: robo.token, payload: { text: 'hi', destinations: ['@alice'] } })
  t.equal(pmAlice.status, 200)
  const roboSeen = await svc.call('GET', '/users/@robo', { token: alice.token })
  t.match(roboSeen.body.data, { type: 'bot', you_follow: true, you_can_follow: true })
})

t.test('a feed account is treated as human: it follows and mentions anyone', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const news = await svc.person('news', { type: 'feed' })
  const follow = await svc.call('POST', '/users/@alice/follow', { token: news.token })
  t.same([follow.status, follow.body.data.you_can_follow], [200, true])
  const headline = await post(svc, news, { text: 'breaking: @alice' })
  t.same(
    headline.entities.mentions.map((m) => m.name),
    ['alice'],
  )
  t.equal((await svc.call('GET', '/users/@news')).body.data.type, 'feed')
})

t.test('explore: the list is open to all and names each stream with its four strings', async (t) => {
  const svc = await makeInstance(t, { public_url: 'https://svc.example' })
  const alice = await svc.person('alice')
  for (const token of [undefined, alice.token, svc.appToken]) {
    const res = await svc.call('GET', '/stream/0/posts/stream/explore', { token })
    t.equal(res.status, 200)
    for (const stream of res.body.data) {
      t.same(Object.keys(stream).sort(), ['description', 'slug', 'title', 'url'])
      t.match(stream.slug, /^[a-z0-9]+$/, 'slugs are lowercase alphanumeric')
      t.equal(stream.url, `https://svc.example/stream/0/posts/stream/explore/${stream.slug}`)
    }
  }
})

t.test('explore: each shipped stream names its marker explore:<slug> and echoes itself in meta', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const list = (await svc.call('GET', '/posts/stream/explore')).body.data as { slug: string }[]
  for (const stream of list) {
    const res = await svc.call('GET', `/stream/0/posts/stream/explore/${stream.slug}`, { token: alice.token })
    t.equal(res.status, 200, stream.slug)
    t.same(res.body.meta.marker, { name: `explore:${stream.slug}` }, stream.slug)
    t.same(res.body.meta.explore_stream, stream, `${stream.slug}: the same object as in the list`)
  }
})

t.test('explore: a stream pages by post id with since_id, before_id and count', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const ids = []
  for (const text of ['one', 'two', 'three']) ids.push((await post(svc, alice, { text })).id)
  const first = await svc.call('GET', '/posts/stream/explore/posts?count=2')
  t.same(
    first.body.data.map((p: { id: string }) => p.id),
    [ids[2], ids[1]],
  )
  t.same(
    first.body.data.map((p: { pagination_id: string }) => p.pagination_id),
    [ids[2], ids[1]],
  )
  t.match(first.body.meta, { code: 200, more: true, max_id: ids[2], min_id: ids[1] })
  const older = await svc.call('GET', `/posts/stream/explore/posts?before_id=${ids[1]}`)
  t.same(
    older.body.data.map((p: { id: string }) => p.id),
    [ids[0]],
  )
  t.equal(older.body.meta.more, false)
  const newer = await svc.call('GET', `/posts/stream/explore/posts?since_id=${ids[0]}`)
  t.same(
    newer.body.data.map((p: { id: string }) => p.id),
    [ids[2], ids[1]],
  )
})
