/**
 * What clients see of moderation through the API: bob is suspended by an
 * admin, then restored; carol's account is deleted; an app is removed.
 */
import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'
import { csrfOf, makeClient, passwordGrant, visitor } from '../../fixtures/oauth.js'
import { post } from '../../fixtures/posts.js'

const REDIRECT = 'https://robo.example/cb'

const globalIds = async (svc: Awaited<ReturnType<typeof makeInstance>>, token: string): Promise<string[]> =>
  (await svc.call('GET', '/stream/0/posts/stream/global', { token })).body.data.map((p: { id: string }) => p.id)

t.test("a suspended bob's token is refused, his posts answer 404 and leave the global stream, and he cannot sign in", async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const robo = await makeClient(svc)
  const hello = await post(svc, bob, { text: 'hello from bob' })
  t.ok((await globalIds(svc, alice.token)).includes(hello.id))

  await svc.domain.users.moderation.suspend(bob.user.id)
  const me = await svc.call('GET', '/stream/0/users/me', { token: bob.token })
  t.equal(me.status, 401, 'his token is dead')
  t.equal(me.body.meta.error_slug, 'invalid-token')
  const byId = await svc.call('GET', `/stream/0/posts/${hello.id}`, { token: alice.token })
  t.equal(byId.status, 404, 'his post is not found')
  t.equal(byId.body.meta.code, 404)
  t.notOk((await globalIds(svc, alice.token)).includes(hello.id), 'nor in the global stream')
  t.equal((await svc.call('GET', `/stream/0/users/${bob.user.id}`, { token: alice.token })).status, 404, 'his profile answers 404')
  t.equal((await svc.call('GET', `/stream/0/users/${bob.user.id}/posts`, { token: alice.token })).status, 404)
  t.equal((await svc.call('POST', `/stream/0/posts/${hello.id}/star`, { token: alice.token })).status, 404, 'nobody stars it')

  const grant = await passwordGrant(svc, robo, 'bob', 'stream')
  t.equal(grant.status, 403, 'the password grant refuses him')
  t.equal(grant.body.error_slug, 'account-suspended')
  t.match(grant.body.error_message ?? grant.body.error_description ?? JSON.stringify(grant.body), /suspended/)
  const browser = visitor(svc)
  const page = await browser.get(`/oauth/authenticate?client_id=${robo.client_id}&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}`)
  const fields = { client_id: robo.client_id, response_type: 'code', redirect_uri: REDIRECT, scope: 'stream', csrf: csrfOf(page.text) }
  const signIn = await browser.post('/oauth/authenticate', { ...fields, action: 'sign_in', username: 'bob', password: 'correct horse' })
  t.match(signIn.text, /suspended/, 'the sign-in page says his account is suspended')
  t.notMatch(signIn.text, /Authorize|Allow/, 'and asks no consent')

  await svc.domain.users.moderation.unsuspend(bob.user.id)
  t.equal((await svc.call('GET', `/stream/0/posts/${hello.id}`, { token: alice.token })).status, 200, 'restored, his post is back')
  t.equal((await passwordGrant(svc, robo, 'bob', 'stream')).status, 200, 'and he signs in again')
})

t.test('a deleted carol is gone from the API and her username can be taken again', async (t) => {
  const svc = await makeInstance(t)
  const [alice, carol] = await svc.people('alice', 'carol')
  const hi = await post(svc, carol, { text: 'hi all' })
  await svc.call('POST', `/stream/0/users/@carol/follow`, { token: alice.token })
  await svc.domain.users.moderation.deleteUser(carol.user.id)
  t.equal((await svc.call('GET', `/stream/0/users/${carol.user.id}`, { token: alice.token })).status, 404)
  t.equal((await svc.call('GET', '/stream/0/users/@carol', { token: alice.token })).status, 404)
  t.equal((await svc.call('GET', `/stream/0/posts/${hi.id}`, { token: alice.token })).status, 404)
  t.same((await svc.call('GET', '/stream/0/users/me/following', { token: alice.token })).body.data, [], 'alice follows nobody now')
  t.same((await svc.call('GET', '/stream/0/users/search?q=carol', { token: alice.token })).body.data, [], 'search does not find her')
  const again = await svc.person('carol')
  t.not(again.user.id, carol.user.id)
  t.equal((await svc.call('GET', '/stream/0/users/@carol', { token: alice.token })).body.data.id, String(again.user.id), 'the name is the new account')
})

t.test("a deleted app's tokens are refused and its client cannot get new ones", async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const robo = await makeClient(svc)
  const granted = await passwordGrant(svc, robo, 'alice', 'stream')
  await svc.domain.auth.apps.delete(robo.app.id)
  t.equal((await svc.call('GET', '/stream/0/token', { token: granted.body.access_token })).status, 401)
  const again = await passwordGrant(svc, robo, 'alice', 'stream')
  t.equal(again.status, 401)
  t.equal(again.body.error_slug, 'invalid-client')
})
