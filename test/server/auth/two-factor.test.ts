/**
 * Alice turns two-factor sign-in on from the web client's settings (the
 * API under /users/me/two_factor), and from then on the sign-in page asks
 * for a code after her password: her app's, or a recovery code. The change
 * signs her out everywhere but where she made it.
 */
import t from 'tap'
import { generate } from 'otplib'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'
import { csrfOf, makeClient, visitor } from '../../fixtures/oauth.js'

const REDIRECT = 'https://robo.example/cb'

const codeOf = (secret: string, offset = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 })

/** A code that is not the current one (nor the next). */
const wrongCodeOf = async (secret: string) => {
  const near = [await codeOf(secret), await codeOf(secret, 1)]
  return ['000000', '111111', '222222'].find((c) => !near.includes(c)) ?? '333333'
}

/** A call of the web client: alice's token, and her browser's cookie when given; answers the new cookie too. */
async function call(svc: Instance, who: Person, method: string, url: string, payload?: object, cookie?: string) {
  const res = await svc.server.inject({ method, url, payload, headers: { ...who.auth, ...(cookie ? { cookie } : {}) } })
  const set = res.headers['set-cookie']
  const renewed = (Array.isArray(set) ? set : set ? [set] : []).map((l) => String(l).split(';')[0]).find((p) => p.startsWith('svc_session='))
  return { status: res.statusCode, body: JSON.parse(res.payload), cookie: renewed }
}

/** Alice turns it on through the API; answers her secret and recovery codes. */
async function turnOn(svc: Instance, alice: Person, cookie?: string) {
  const setup = await call(svc, alice, 'POST', '/stream/0/users/me/two_factor/setup')
  const { secret } = setup.body.data as { secret: string }
  const confirmed = await call(svc, alice, 'POST', '/stream/0/users/me/two_factor/confirm', { code: await codeOf(secret) }, cookie)
  return { secret, setup, confirmed, codes: confirmed.body.data.recovery_codes as string[] }
}

/** A browser at robo's authorize page (which always asks for consent): answers it with the page's fields. */
async function atSignIn(svc: Instance) {
  const robo = await makeClient(svc)
  const fields = { client_id: robo.client_id, response_type: 'code', redirect_uri: REDIRECT, scope: 'stream', state: 'xyz' }
  const url = `/oauth/authorize?${new URLSearchParams(fields)}`
  const browser = visitor(svc)
  const page = await browser.get(url)
  return { browser, fields, url, page }
}

/** Alice's password on the sign-in page; answers the page after it. */
const password = (b: Awaited<ReturnType<typeof atSignIn>>, secret = 'correct horse') =>
  b.browser.post('/oauth/authorize', { ...b.fields, csrf: csrfOf(b.page.text), action: 'sign_in', username: 'alice', password: secret })

t.test('alice turns it on in her settings: the setup shows the secret once, the confirmation the recovery codes once', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const before = await call(svc, alice, 'GET', '/stream/0/users/me/two_factor')
  t.same(before.body.data, { enabled: false, enabled_at: null, recovery_codes_left: 0 })

  const { secret, setup, confirmed, codes } = await turnOn(svc, alice)
  t.match(setup.body.data, { secret: String, otpauth_uri: /^otpauth:\/\/totp\//, qr_code: /^data:image\/svg\+xml;base64,/ })
  t.equal(confirmed.status, 200)
  t.equal(codes.length, 10)
  const status = await call(svc, alice, 'GET', '/stream/0/users/me/two_factor')
  t.match(status.body.data, { enabled: true, recovery_codes_left: 10 })
  t.notOk(JSON.stringify(status.body).includes(secret), 'the status shows no secret')
  t.notOk('recovery_codes' in status.body.data, 'nor the codes')

  const again = await call(svc, alice, 'POST', '/stream/0/users/me/two_factor/confirm', { code: await codeOf(secret, 1) })
  t.equal(again.status, 400, 'confirming twice is refused, and no codes come again')
  t.match(again.body.meta.error_message, /on already/)
  t.equal(again.body.data, undefined)
  const bad = await call(svc, alice, 'POST', '/stream/0/users/me/two_factor/confirm', { code: '' })
  t.equal(bad.status, 400)
  t.match(bad.body.meta, { code: 400, error_message: String })
})

t.test('the calls need update_profile: an app holding only basic cannot touch the second factor', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice', { scopes: ['basic', 'stream'] })
  const res = await call(svc, alice, 'POST', '/stream/0/users/me/two_factor/setup')
  t.equal(res.status, 403)
  t.equal((await call(svc, alice, 'GET', '/stream/0/users/me/two_factor')).status, 403)
})

t.test('with it on, the sign-in page asks for a code after the password, and not the password again', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const { secret } = await turnOn(svc, alice)
  const at = await atSignIn(svc)

  const step = await password(at)
  t.equal(step.status, 200)
  t.match(step.text, /Two-factor sign-in/)
  t.match(step.text, /name="code"/)
  t.notMatch(step.text, /type="password"/, 'the password is not asked again')
  t.notMatch(step.text, /Signed in as @alice/, 'she is not signed in yet')
  t.notMatch((await at.browser.get(at.url)).text, /Signed in as/, 'not even when the page is opened again')

  const wrong = await at.browser.post('/oauth/authorize', { ...at.fields, csrf: csrfOf(step.text), action: 'second_factor', code: await wrongCodeOf(secret) })
  t.equal(wrong.status, 401)
  t.match(wrong.text, /not right/)
  t.match(wrong.text, /name="code"/, 'the code step again')

  const right = await at.browser.post('/oauth/authorize', { ...at.fields, csrf: csrfOf(wrong.text), action: 'second_factor', code: await codeOf(secret, 1) })
  t.equal(right.status, 200)
  t.match(right.text, /Signed in as @alice/)

  const replay = await atSignIn(svc)
  const step2 = await password(replay)
  const replayed = await replay.browser.post('/oauth/authorize', {
    ...replay.fields,
    csrf: csrfOf(step2.text),
    action: 'second_factor',
    code: await codeOf(secret, 1),
  })
  t.equal(replayed.status, 401, 'the same code does not sign in a second time')
})

t.test('a recovery code signs alice in once, when her phone is lost', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const { codes } = await turnOn(svc, alice)
  const first = await atSignIn(svc)
  const step = await password(first)
  const signedIn = await first.browser.post('/oauth/authorize', { ...first.fields, csrf: csrfOf(step.text), action: 'second_factor', code: codes[0] })
  t.match(signedIn.text, /Signed in as @alice/)

  const second = await atSignIn(svc)
  const step2 = await password(second)
  const refused = await second.browser.post('/oauth/authorize', { ...second.fields, csrf: csrfOf(step2.text), action: 'second_factor', code: codes[0] })
  t.equal(refused.status, 401, 'a used recovery code is spent')
  t.equal((await call(svc, alice, 'GET', '/stream/0/users/me/two_factor')).body.data.recovery_codes_left, 9)
})

t.test('wrong codes count against the sign-in limits as wrong passwords do', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await turnOn(svc, alice)
  const at = await atSignIn(svc)
  let page = await password(at)
  const statuses: number[] = []
  for (let i = 0; i < 12; i++) {
    page = await at.browser.post('/oauth/authorize', { ...at.fields, csrf: csrfOf(page.text), action: 'second_factor', code: `zz${i}-guess` })
    statuses.push(page.status)
  }
  t.ok(statuses.includes(429), `guessing codes is refused after a few tries (${statuses.join(' ')})`)
  t.match(page.text, /Too many failed sign-in attempts/)
})

t.test('turning it on ends alice’s other sign-ins and tokens; the calling token and browser stay', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const other = await atSignIn(svc)
  t.match((await password(other)).text, /Signed in as @alice/, 'another browser signed in before')
  const mine = await atSignIn(svc)
  t.match((await password(mine)).text, /Signed in as @alice/, 'and the browser of her settings')
  const robo = await makeClient(svc, 'Phone app')
  const phoneToken = await svc.domain.auth.tokens.issueUserToken(robo.app, alice.user, ['basic'])

  const { confirmed } = await turnOn(svc, alice, mine.browser.cookie)
  t.ok(confirmed.cookie, 'her settings’ browser gets its session carried on')
  t.match((await other.browser.get(other.url)).text, /Sign in to continue/, 'the other browser is signed out')
  const carried = await svc.server.inject({ method: 'GET', url: mine.url, headers: { cookie: confirmed.cookie ?? '' } })
  t.match(carried.payload, /Signed in as @alice/, 'hers is not')
  t.equal((await svc.call('GET', '/stream/0/token', { token: phoneToken.access_token })).status, 401, 'the phone’s token is revoked')
  t.equal((await call(svc, alice, 'GET', '/stream/0/token')).status, 200, 'the calling token stays')
})

t.test('turning it off needs the password and a code, and signs the others out again', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const { secret, codes } = await turnOn(svc, alice)
  const wrong = await call(svc, alice, 'POST', '/stream/0/users/me/two_factor/disable', { password: 'wrong horse', code: await codeOf(secret, 1) })
  t.equal(wrong.status, 400)
  t.match(wrong.body.meta, { error_slug: 'wrong-code' })
  const renewed = await call(svc, alice, 'POST', '/stream/0/users/me/two_factor/recovery_codes', { code: codes[0] })
  t.equal(renewed.body.data.recovery_codes.length, 10)
  const off = await call(svc, alice, 'POST', '/stream/0/users/me/two_factor/disable', { password: 'correct horse', code: await codeOf(secret, 1) })
  t.equal(off.status, 200)
  t.same(off.body.data, { enabled: false, enabled_at: null, recovery_codes_left: 0 })
  const at = await atSignIn(svc)
  t.match((await password(at)).text, /Signed in as @alice/, 'the password alone signs in again')
})
