/**
 * The lists relations make: followers and following with their id forms,
 * paged by follow, and the muted and blocked lists and id maps, with who may
 * read each.
 */
import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'
import { writeRelation } from '../../fixtures/post-rows.js'
import { usernames } from '../../fixtures/shapes.js'

t.test('follower lists take an id, me or @name, need any token, and page by follow, not by user id', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  // carol follows first, so her follow row id differs from her user id.
  const f1 = await writeRelation(svc, 'follows', carol.user, bob.user)
  const f2 = await writeRelation(svc, 'follows', carol.user, alice.user)
  const f3 = await writeRelation(svc, 'follows', bob.user, alice.user)
  t.not(f3.id, bob.user.id)
  for (const ref of [String(alice.user.id), '@alice', 'me']) {
    const res = await svc.call('GET', `/users/${ref}/followers`, { token: alice.token })
    t.equal(res.status, 200, ref)
    t.same(usernames(res), ['bob', 'carol'], `${ref}: most recent follow first`)
    t.same(
      res.body.data.map((u: { pagination_id: string }) => u.pagination_id),
      [String(f3.id), String(f2.id)],
      `${ref}: pagination ids are follow ids`,
    )
    t.same(res.body.meta, { code: 200, more: false, max_id: String(f3.id), min_id: String(f2.id) })
  }
  const byApp = await svc.call('GET', `/users/${carol.user.id}/following`, { token: svc.appToken })
  t.same(usernames(byApp), ['alice', 'bob'])
  t.same(
    byApp.body.data.map((u: { pagination_id: string }) => u.pagination_id),
    [String(f2.id), String(f1.id)],
  )
  const newer = await svc.call('GET', `/users/@carol/following?since_id=${f1.id}`, { token: svc.appToken })
  t.same(usernames(newer), ['alice'])
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
    const fan = await svc.domain.users.accounts.create({ username: `fan${i}` })
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

t.test("muted and blocked lists: me or one's own id with a user token, any authorising user with an app token, unpaginated", async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
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
      t.same(usernames(res), expected, `${list} of ${ref}`)
      t.notOk('html' in res.body.data[0].description)
    }
    t.same(usernames(await svc.call('GET', `/users/${owner.user.id}/${list}`, { token: svc.appToken })), expected)
    t.equal((await svc.call('GET', `/users/me/${list}`, { token: svc.appToken })).status, 400, `${list}: an app token has no "me"`)
    t.equal((await svc.call('GET', `/users/me/${list}`)).status, 401, `${list}: a token is needed`)
  }
  t.equal((await svc.call('GET', '/users/@alice/blocked', { token: bob.token })).status, 403)
})

t.test('the muted and blocked id maps: app tokens only, string ids, at most 200 ids asked', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
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
