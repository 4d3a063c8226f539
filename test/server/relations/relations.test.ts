import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'
import { post } from '../../fixtures/posts.js'
import { RELATION_KEYS } from '../../fixtures/shapes.js'

/** Every call that changes a relation, as method and the verb in the path. */
const RELATION_CHANGES = [
  ['POST', 'follow'],
  ['DELETE', 'follow'],
  ['POST', 'mute'],
  ['DELETE', 'mute'],
  ['POST', 'block'],
  ['DELETE', 'block'],
]

t.test('alice follows and unfollows bob and gets bob back each time', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  const follow = await svc.call('POST', '/stream/0/users/@bob/follow', { token: alice.token })
  t.equal(follow.status, 200)
  t.match(follow.body.data, { username: 'bob', you_follow: true, is_following: true, follows_you: false, counts: { followers: 1 } })
  const me = await svc.call('GET', '/users/me', { token: alice.token })
  t.equal(me.body.data.counts.following, 1)
  const unfollow = await svc.call('DELETE', '/users/@bob/follow', { token: alice.token })
  t.match(unfollow.body.data, { username: 'bob', you_follow: false, counts: { followers: 0 } })
})

t.test('following needs a user token with the follow scope', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice', { scopes: ['basic', 'stream'] })
  await svc.person('bob')
  t.equal((await svc.call('POST', '/users/@bob/follow')).status, 401)
  t.equal((await svc.call('POST', '/users/@bob/follow', { token: svc.appToken })).status, 403)
  const res = await svc.call('POST', '/users/@bob/mute', { token: alice.token })
  t.equal(res.status, 403)
  t.equal(res.body.meta.error_slug, 'insufficient-scope')
})

t.test('following an unknown user is a 404 and following oneself a 400', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  t.equal((await svc.call('POST', '/users/@nobody/follow', { token: alice.token })).status, 404)
  const self = await svc.call('POST', '/users/me/follow', { token: alice.token })
  t.equal(self.status, 400)
  t.match(self.body.meta.error_message, /^Bad Request: /)
})

t.test('follower lists are paginated by follow and the id lists are plain strings', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  await svc.call('POST', '/users/@alice/follow', { token: bob.token })
  await svc.call('POST', '/users/@alice/follow', { token: carol.token })
  t.equal((await svc.call('GET', '/users/@alice/followers')).status, 401, 'a token is needed')
  const page = await svc.call('GET', '/users/@alice/followers?count=1', { token: svc.appToken })
  t.same(
    page.body.data.map((u: { username: string }) => u.username),
    ['carol'],
  )
  t.equal(page.body.meta.more, true)
  const rest = await svc.call('GET', `/users/@alice/followers?count=1&before_id=${page.body.meta.min_id}`, { token: svc.appToken })
  t.same(
    rest.body.data.map((u: { username: string }) => u.username),
    ['bob'],
  )
  t.equal(rest.body.meta.more, false)
  const ids = await svc.call('GET', '/users/@alice/followers/ids', { token: alice.token })
  t.same(ids.body.data, [String(carol.user.id), String(bob.user.id)])
  const following = await svc.call('GET', '/users/@bob/following', { token: carol.token })
  t.same(
    following.body.data.map((u: { username: string }) => u.username),
    ['alice'],
  )
  t.equal(following.body.data[0].follows_you, false, 'users in lists carry the relation to the viewer')
  t.equal((await svc.call('GET', '/users/@alice/followers?before_id=last_read', { token: alice.token })).status, 400, 'follower lists have no marker')
})

t.test('alice sees her muted list; bob cannot; an app sees it because alice authorised it', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const mute = await svc.call('POST', '/users/@carol/mute', { token: alice.token })
  t.match(mute.body.data, { username: 'carol', you_muted: true, is_muted: true })
  const mine = await svc.call('GET', '/users/me/muted', { token: alice.token })
  t.same(
    mine.body.data.map((u: { username: string }) => u.username),
    ['carol'],
  )
  t.equal((await svc.call('GET', '/users/@alice/muted', { token: bob.token })).status, 403)
  const byApp = await svc.call('GET', `/users/${alice.user.id}/muted`, { token: svc.appToken })
  t.same(
    byApp.body.data.map((u: { username: string }) => u.username),
    ['carol'],
  )
  const ids = await svc.call('GET', `/users/muted/ids?ids=${alice.user.id},${bob.user.id}`, { token: svc.appToken })
  t.same(ids.body.data, { [alice.user.id]: [String(carol.user.id)], [bob.user.id]: [] })
  t.equal((await svc.call('GET', `/users/muted/ids?ids=${alice.user.id}`, { token: alice.token })).status, 403, 'the map is for app tokens')
  const tooMany = Array.from({ length: 201 }, (_, i) => i + 1).join(',')
  t.equal((await svc.call('GET', `/users/muted/ids?ids=${tooMany}`, { token: svc.appToken })).status, 400)
  const unmute = await svc.call('DELETE', '/users/@carol/mute', { token: alice.token })
  t.equal(unmute.body.data.you_muted, false)
})

t.test('alice blocks bob: follows go both ways, the block lists show it', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await svc.call('POST', '/users/@bob/follow', { token: alice.token })
  await svc.call('POST', '/users/@alice/follow', { token: bob.token })
  const block = await svc.call('POST', '/users/@bob/block', { token: alice.token })
  t.match(block.body.data, { username: 'bob', you_blocked: true, you_follow: false, follows_you: false, you_can_follow: false })
  const seenByBob = await svc.call('GET', '/users/@alice', { token: bob.token })
  t.match(seenByBob.body.data, { you_can_follow: false, you_follow: false })
  t.equal((await svc.call('POST', '/users/@alice/follow', { token: bob.token })).status, 403)
  const blocked = await svc.call('GET', '/users/me/blocked', { token: alice.token })
  t.same(
    blocked.body.data.map((u: { username: string }) => u.username),
    ['bob'],
  )
  t.equal((await svc.call('GET', '/users/@alice/blocked', { token: bob.token })).status, 403)
  const ids = await svc.call('GET', `/users/blocked/ids?ids=${alice.user.id}`, { token: svc.appToken })
  t.same(ids.body.data, { [alice.user.id]: [String(bob.user.id)] })
  const unblock = await svc.call('DELETE', '/users/@bob/block', { token: alice.token })
  t.equal(unblock.body.data.you_blocked, false)
})

t.test('the muted and blocked id maps take a repeated ids key as one list', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  await svc.call('POST', '/users/@carol/mute', { token: alice.token })
  await svc.call('POST', '/users/@alice/mute', { token: bob.token })
  await svc.call('POST', '/users/@carol/block', { token: bob.token })
  const [a, b, c] = [alice, bob, carol].map((p) => p.user.id)
  const muted = await svc.call('GET', `/users/muted/ids?ids=${a}&ids=${b},${c}`, { token: svc.appToken })
  t.equal(muted.status, 200)
  t.same(muted.body.data, { [a]: [String(c)], [b]: [String(a)], [c]: [] })
  const blocked = await svc.call('GET', `/users/blocked/ids?ids=${a}&ids=${b}`, { token: svc.appToken })
  t.equal(blocked.status, 200)
  t.same(blocked.body.data, { [a]: [], [b]: [String(c)] })
})

t.test('the followed user comes back with every relation boolean, ids as strings and integer counts', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
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
  const [alice] = await svc.people('alice', 'bob', 'carol')
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
  const [alice] = await svc.people('alice', 'bob')
  for (const [method, verb] of RELATION_CHANGES) {
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
  for (const [method, verb] of RELATION_CHANGES) {
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
  const [alice] = await svc.people('alice', 'bob', 'carol')
  t.equal((await svc.call('POST', '/users/@bob/follow', { token: alice.token })).status, 200)
  const over = await svc.call('POST', '/users/@carol/follow', { token: alice.token })
  t.equal(over.status, 507)
  t.equal(over.body.meta.code, 507)
  t.type(over.body.meta.error_message, 'string')
  t.equal((await svc.call('POST', '/users/@bob/follow', { token: alice.token })).status, 200, 'following bob again is no new follow')
})

t.test('a mute hides nothing of the follow: alice still follows bob and sees him as muted', async (t) => {
  const svc = await makeInstance(t)
  const [alice] = await svc.people('alice', 'bob')
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
  const [alice, bob] = await svc.people('alice', 'bob')
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

t.test('alice blocks bob, whom she follows: both follows and their counts go, neither can follow the other', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
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

t.test('robo the bot follows, mentions and messages only its followers, and says so in you_can_*', async (t) => {
  const svc = await makeInstance(t)
  const [alice] = await svc.people('alice', 'bob')
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
    beep.entities.mentions.map((m: { name: string }) => m.name),
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
    headline.entities.mentions.map((m: { name: string }) => m.name),
    ['alice'],
  )
  t.equal((await svc.call('GET', '/users/@news')).body.data.type, 'feed')
})
