/**
 * How long alice's sign-in lasts: the browser's session on the OAuth pages
 * (a sealed cookie) ends when an operator resets her password or suspends
 * her, and lifting the suspension does not bring it back; signing out of the
 * web client deauthorizes its token and ends the cookie session with it.
 */
import t from 'tap'
import { makeInstance, type Instance } from '../../fixtures/instance.js'
import { csrfOf, makeClient, postForm, visitor } from '../../fixtures/oauth.js'

const REDIRECT = 'https://robo.example/cb'

/** Alice signs in on robo's authorize page (which always asks for consent); answers her browser and the consent form's fields. */
async function signedInAlice(svc: Instance) {
  const robo = await makeClient(svc)
  const fields = { client_id: robo.client_id, response_type: 'code', redirect_uri: REDIRECT, scope: 'stream', state: 'xyz' }
  const url = `/oauth/authorize?${new URLSearchParams(fields)}`
  const browser = visitor(svc)
  const page = await browser.get(url)
  const consent = await browser.post('/oauth/authorize', {
    ...fields,
    csrf: csrfOf(page.text),
    action: 'sign_in',
    username: 'alice',
    password: 'correct horse',
  })
  return { robo, browser, url, fields, consent }
}

t.test('after an operator resets alice’s password, her signed-in browser is signed out and approves nothing', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const { browser, url, fields, consent } = await signedInAlice(svc)
  t.match(consent.text, /Signed in as @alice/)

  await svc.domain.users.moderation.resetPassword(alice.user.id, 'battery staple')
  const approve = await browser.post('/oauth/authorize', { ...fields, csrf: csrfOf(consent.text), action: 'approve' })
  t.equal(approve.status, 200, 'no redirect with a code')
  t.match(approve.text, /Sign in to continue/)
  t.equal(await svc.store.read.auth_codes.count('user', alice.user.id), 0, 'no code was issued')
  t.match(String(approve.headers['set-cookie']), /^svc_session=/, 'the cookie is replaced by one without her')
  t.match((await browser.get(url)).text, /Sign in to continue/, 'and she stays signed out')

  const again = await browser.post('/oauth/authorize', {
    ...fields,
    csrf: csrfOf(approve.text),
    action: 'sign_in',
    username: 'alice',
    password: 'battery staple',
  })
  t.match(again.text, /Signed in as @alice/, 'with the new password she is back')
})

t.test('after bob is suspended and restored, his old browser session stays signed out', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const { browser, url, fields, consent } = await signedInAlice(svc)
  // The cookie as it was before the suspension, replayed afterwards.
  const oldCookie = browser.cookie

  await svc.domain.users.moderation.suspend(alice.user.id)
  await svc.domain.users.moderation.unsuspend(alice.user.id)
  const replayed = await svc.server.inject({ method: 'GET', url, headers: { cookie: oldCookie } })
  t.match(replayed.payload, /Sign in to continue/, 'the cookie from before reads as signed out')
  const approve = await svc.server.inject({
    method: 'POST',
    url: '/oauth/authorize',
    headers: { cookie: oldCookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...fields, csrf: csrfOf(consent.text), action: 'approve' }).toString(),
  })
  t.equal(approve.statusCode, 200, 'approving with it gives no code')
  t.match(approve.payload, /Sign in to continue/)
  t.equal(await svc.store.read.tokens.count('user', alice.user.id), 0, 'and no token')
})

t.test('a code alice got before her password was reset cannot be exchanged after it', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const { robo, browser, fields, consent } = await signedInAlice(svc)
  const done = await browser.post('/oauth/authorize', { ...fields, csrf: csrfOf(consent.text), action: 'approve' })
  const code = new URL(String(done.headers.location)).searchParams.get('code') ?? ''
  t.ok(code, 'a code came back')

  await svc.domain.users.moderation.resetPassword(alice.user.id, 'battery staple')
  const exchange = await postForm(svc, '/oauth/access_token', {
    grant_type: 'authorization_code',
    client_id: robo.client_id,
    client_secret: robo.client_secret,
    redirect_uri: REDIRECT,
    code,
  })
  t.equal(exchange.status, 400)
  t.equal(exchange.body.error, 'invalid_grant')
})

t.test('deauthorizing a token with the sign-in cookie (the web client’s sign-out) ends the cookie session too', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const { browser, url } = await signedInAlice(svc)
  // A copy of the cookie taken before she signs out, as someone who read it off her machine would keep it.
  const copied = browser.cookie

  const out = await browser.send('DELETE', '/stream/0/token', alice.auth)
  t.equal(out.status, 200)
  t.equal(out.body.data.user.username, 'alice', 'the Token object, as before')
  t.match(String(out.headers['set-cookie']), /^svc_session=;.*Max-Age=0/, 'the cookie is cleared')
  t.equal((await svc.call('GET', '/stream/0/token', { token: alice.token })).status, 401, 'the token is dead')
  t.match((await browser.get(url)).text, /Sign in to continue/, 'the sign-in page asks for her password again')
  const replayed = await svc.server.inject({ method: 'GET', url, headers: { cookie: copied } })
  t.match(replayed.payload, /Sign in to continue/, 'and so does a copy of the cookie she had')

  const plain = await svc.server.inject({ method: 'DELETE', url: '/stream/0/token', headers: bob.auth })
  t.equal(plain.statusCode, 200)
  t.equal(plain.headers['set-cookie'], undefined, 'a client without the cookie gets no cookie header')
})
