import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'

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
