/**
 * Alice has two-factor sign-in on, and a reader app that signs in with the
 * password grant: her account password no longer works there, an app
 * password she made in her settings does (only there: the sign-in page
 * refuses it), and revoking it ends the app's access.
 */
import t from 'tap'
import { generate } from 'otplib'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'
import { csrfOf, makeClient, postForm, visitor, type Client } from '../../fixtures/oauth.js'

const codeOf = (secret: string) => generate({ secret })

async function turnOn(svc: Instance, alice: Person) {
  const setup = await svc.call('POST', '/stream/0/users/me/two_factor/setup', { token: alice.token })
  const { secret } = setup.body.data as { secret: string }
  await svc.call('POST', '/stream/0/users/me/two_factor/confirm', { token: alice.token, payload: { code: await codeOf(secret) } })
}

const grant = (svc: Instance, robo: Client, password: string) =>
  postForm(svc, '/oauth/access_token', {
    grant_type: 'password',
    client_id: robo.client_id,
    client_secret: robo.client_secret,
    username: 'alice',
    password,
    scope: 'stream',
  })

t.test('with two-factor sign-in on, the password grant refuses alice’s password and takes an app password', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const robo = await makeClient(svc)
  t.equal((await grant(svc, robo, 'correct horse')).status, 200, 'before, her password works')
  const early = await svc.call('POST', '/stream/0/users/me/app_passwords', { token: alice.token, payload: { name: 'Robo' } })
  t.equal(early.status, 400, 'no app password without two-factor sign-in')

  await turnOn(svc, alice)
  const refused = await grant(svc, robo, 'correct horse')
  t.equal(refused.status, 400)
  t.equal(refused.body.error, 'invalid_grant')
  t.equal(refused.body.error_slug, 'two-factor-required')
  t.match(refused.body.error_description, /app password/)
  const guessed = await grant(svc, robo, 'wrong horse')
  t.equal(guessed.body.error, 'invalid_grant')
  t.not(guessed.body.error_slug, 'two-factor-required', 'a wrong password learns nothing of the second factor')
  t.notMatch(guessed.body.error_description, /app password/)

  const made = await svc.call('POST', '/stream/0/users/me/app_passwords', { token: alice.token, payload: { name: 'Robo Reader' } })
  t.equal(made.status, 200)
  const { password, id } = made.body.data as { password: string; id: string }
  t.match(password, /^[A-Za-z0-9]{24}$/)
  const listed = await svc.call('GET', '/stream/0/users/me/app_passwords', { token: alice.token })
  t.match(listed.body.data, [{ id, name: 'Robo Reader', last_used_at: null }])
  t.notOk(JSON.stringify(listed.body).includes(password), 'the list never shows the password')

  const granted = await grant(svc, robo, password)
  t.equal(granted.status, 200, 'the app password signs the app in')
  t.equal(granted.body.username, 'alice')
  const appToken = granted.body.access_token as string
  t.equal((await svc.call('GET', '/stream/0/token', { token: appToken })).status, 200)
  t.match((await svc.call('GET', '/stream/0/users/me/app_passwords', { token: alice.token })).body.data, [{ last_used_at: String }])

  const revoked = await svc.call('DELETE', `/stream/0/users/me/app_passwords/${id}`, { token: alice.token })
  t.equal(revoked.status, 200)
  t.equal((await grant(svc, robo, password)).status, 400, 'a revoked app password is refused')
  t.equal((await svc.call('GET', '/stream/0/token', { token: appToken })).status, 401, 'and the token it gave is revoked')
  t.equal((await svc.call('DELETE', `/stream/0/users/me/app_passwords/${id}`, { token: alice.token })).status, 404)
})

t.test('an app password does not sign in on the sign-in page, nor for another account', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  const robo = await makeClient(svc)
  await turnOn(svc, alice)
  const made = await svc.call('POST', '/stream/0/users/me/app_passwords', { token: alice.token, payload: { name: 'Robo' } })
  const password = made.body.data.password as string

  const fields = { client_id: robo.client_id, response_type: 'code', redirect_uri: 'https://robo.example/cb', scope: 'stream' }
  const browser = visitor(svc)
  const page = await browser.get(`/oauth/authorize?${new URLSearchParams(fields)}`)
  const tried = await browser.post('/oauth/authorize', { ...fields, csrf: csrfOf(page.text), action: 'sign_in', username: 'alice', password })
  t.equal(tried.status, 401)
  t.match(tried.text, /Wrong username or password/)

  const asBob = await postForm(svc, '/oauth/access_token', {
    grant_type: 'password',
    client_id: robo.client_id,
    client_secret: robo.client_secret,
    username: 'bob',
    password,
  })
  t.equal(asBob.status, 400)
  t.equal(asBob.body.error, 'invalid_grant')
})
