import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'

t.test('an app lists the tokens its users granted it, newest first, with pagination', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice', { scopes: ['stream'] })
  const bob = await svc.person('bob')
  const other = await svc.domain.auth.apps.create({ name: 'Other' })
  const carol = await svc.domain.users.accounts.create({ username: 'carol', password: 'correct horse' })
  await svc.domain.auth.tokens.issueUserToken(other.app, carol, ['stream'])

  const page = await svc.call('GET', '/stream/0/apps/me/tokens', { token: svc.appToken })
  t.equal(page.status, 200)
  t.same(
    page.body.data.map((tk: { user: { username: string } }) => tk.user.username),
    ['bob', 'alice'],
    'only this app, only user tokens',
  )
  t.same(page.body.data[1].scopes, ['basic', 'stream'])
  t.equal(page.body.data[1].app.client_id, svc.app.client_id)
  t.type(page.body.data[0].pagination_id, 'string')
  t.equal(page.body.meta.more, false)

  const first = await svc.call('GET', '/apps/me/tokens?count=1', { token: svc.appToken })
  t.equal(first.body.data.length, 1)
  t.equal(first.body.meta.more, true)
  const rest = await svc.call('GET', `/apps/me/tokens?count=1&before_id=${first.body.meta.min_id}`, { token: svc.appToken })
  t.equal(rest.body.data[0].user.id, String(alice.user.id))
  t.equal(rest.body.meta.more, false)
  t.ok(bob)
})

t.test('the token list needs an app token', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const asUser = await svc.call('GET', '/stream/0/apps/me/tokens', { token: alice.token })
  t.equal(asUser.status, 403)
  t.equal(asUser.body.meta.error_slug, 'wrong-token-kind')
  t.equal((await svc.call('GET', '/stream/0/apps/me/tokens')).status, 401)
  const badCount = await svc.call('GET', '/stream/0/apps/me/tokens?count=many', { token: svc.appToken })
  t.equal(badCount.status, 400)
  t.match(badCount.body.meta.error_message, /^Bad Request: /)
  const badId = await svc.call('GET', '/stream/0/apps/me/tokens?before_id=last_read', { token: svc.appToken })
  t.equal(badId.status, 400)
})

t.test('an app lists the ids of the users who authorized it, each once', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await svc.domain.auth.tokens.issueUserToken(svc.app, alice.user, ['follow'])
  const res = await svc.call('GET', '/stream/0/apps/me/tokens/user_ids', { token: svc.appToken })
  t.equal(res.status, 200)
  t.same(res.body.data, [String(alice.user.id), String(bob.user.id)])
  const asUser = await svc.call('GET', '/stream/0/apps/me/tokens/user_ids', { token: alice.token })
  t.equal(asUser.status, 403)
})

t.test('a deauthorized user leaves the app lists', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.call('DELETE', '/token', { token: alice.token })
  const ids = await svc.call('GET', '/apps/me/tokens/user_ids', { token: svc.appToken })
  t.same(ids.body.data, [])
  const tokens = await svc.call('GET', '/apps/me/tokens', { token: svc.appToken })
  t.same(tokens.body.data, [])
})
