import t from 'tap'
import type { AccessTokenGrant } from '../../../server/api/index.js'
import { makeInstance } from '../../fixtures/instance.js'
import { basic, csrfOf, makeClient, postForm, visitor } from '../../fixtures/oauth.js'

const REDIRECT = 'https://robo.example/cb'

const authorizeUrl = (clientId: string, extra: Record<string, string> = {}, mode = 'authenticate') =>
  `/oauth/${mode}?${new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: REDIRECT, scope: 'stream write_post', state: 'xyz', ...extra })}`

/** Alice signs in on the page and approves; answers the redirect location. */
async function approveAsAlice(svc: Awaited<ReturnType<typeof makeInstance>>, url: string) {
  const browser = visitor(svc)
  const signIn = await browser.get(url)
  const consent = await browser.post(url.split('?')[0], {
    ...Object.fromEntries(new URL(url, 'http://x').searchParams),
    csrf: csrfOf(signIn.text),
    action: 'sign_in',
    username: 'alice',
    password: 'correct horse',
  })
  const done = await browser.post(url.split('?')[0], {
    ...Object.fromEntries(new URL(url, 'http://x').searchParams),
    csrf: csrfOf(consent.text),
    action: 'approve',
  })
  return { browser, signIn, consent, done, location: new URL(String(done.headers.location)) }
}

t.test('robo gets a user token for alice with the password grant and its client secret', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const robo = await makeClient(svc)
  const res = await postForm(svc, '/oauth/access_token', {
    grant_type: 'password',
    client_id: robo.client_id,
    client_secret: robo.client_secret,
    username: 'alice',
    password: 'correct horse',
    scope: 'stream,write_post email',
  })
  t.equal(res.status, 200)
  t.notOk('meta' in res.body, 'the answer is plain JSON, not an envelope')
  t.equal(res.headers['cache-control'], 'no-store')
  t.type(res.body.access_token, 'string')
  t.equal(res.body.username, 'alice')
  t.equal(res.body.user_id, String(alice.user.id))
  t.same(res.body.token.scopes, ['basic', 'stream', 'write_post'], 'comma and space separated, the unknown email scope ignored, basic always')
  t.equal(res.body.token.app.client_id, robo.client_id)
  const me = await svc.call('GET', '/stream/0/token', { token: res.body.access_token })
  t.equal(me.body.data.user.username, 'alice')
})

t.test('the password grant also takes the password-grant secret, in a JSON body', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const robo = await makeClient(svc)
  const res = await svc.call('POST', '/oauth/access_token', {
    payload: {
      grant_type: 'password',
      client_id: robo.client_id,
      password_grant_secret: robo.password_grant_secret,
      username: 'alice',
      password: 'correct horse',
      scope: 'follow',
    },
  })
  t.equal(res.status, 200)
  t.same((res.body as unknown as AccessTokenGrant).token.scopes, ['basic', 'follow'])
})

t.test('a wrong password, a wrong secret and an unknown client are OAuth errors', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const robo = await makeClient(svc)
  const base = { grant_type: 'password', client_id: robo.client_id, client_secret: robo.client_secret, username: 'alice', password: 'correct horse' }
  const wrongPassword = await postForm(svc, '/oauth/access_token', { ...base, password: 'wrong horse' })
  t.equal(wrongPassword.status, 400, 'RFC 6749 §5.2: a bad grant is a 400, a bad client a 401')
  t.equal(wrongPassword.body.error, 'invalid_grant')
  t.type(wrongPassword.body.error_description, 'string')
  const wrongSecret = await postForm(svc, '/oauth/access_token', { ...base, client_secret: 'not-the-secret' })
  t.equal(wrongSecret.status, 401)
  t.equal(wrongSecret.body.error, 'invalid_client')
  const unknown = await postForm(svc, '/oauth/access_token', { ...base, client_id: 'nobody' })
  t.equal(unknown.status, 401)
  t.equal(unknown.body.error, 'invalid_client')
  const noUser = await postForm(svc, '/oauth/access_token', { ...base, username: '' })
  t.equal(noUser.status, 400)
  t.equal(noUser.body.error, 'invalid_request')
})

t.test('client credentials give robo an app token, from the body or HTTP Basic', async (t) => {
  const svc = await makeInstance(t)
  const robo = await makeClient(svc)
  const viaBody = await postForm(svc, '/oauth/access_token', { grant_type: 'client_credentials', client_id: robo.client_id, client_secret: robo.client_secret })
  t.equal(viaBody.status, 200)
  t.same(viaBody.body.token.scopes, [])
  t.notOk('user' in viaBody.body.token, 'an app token has no user')
  t.notOk('username' in viaBody.body)
  const viaBasic = await postForm(svc, '/oauth/access_token', { grant_type: 'client_credentials' }, basic(robo.client_id, robo.client_secret))
  t.equal(viaBasic.status, 200)
  const tokens = await svc.call('GET', '/stream/0/apps/me/tokens', { token: viaBasic.body.access_token })
  t.equal(tokens.status, 200, 'the app token acts as an app token')
  const badBasic = await postForm(svc, '/oauth/access_token', { grant_type: 'client_credentials' }, basic(robo.client_id, 'nope'))
  t.equal(badBasic.status, 401)
  t.equal(badBasic.body.error, 'invalid_client')
})

t.test('an unknown grant type, a missing grant type and a malformed body are 400s', async (t) => {
  const svc = await makeInstance(t)
  const unknown = await postForm(svc, '/oauth/access_token', { grant_type: 'magic' })
  t.equal(unknown.status, 400)
  t.equal(unknown.body.error, 'unsupported_grant_type')
  const missing = await postForm(svc, '/oauth/access_token', { client_id: 'x' })
  t.equal(missing.status, 400)
  t.equal(missing.body.error, 'invalid_request')
  const malformed = await svc.server.inject({
    method: 'POST',
    url: '/oauth/access_token',
    headers: { 'content-type': 'application/json' },
    payload: '{"grant_type":',
  })
  t.equal(malformed.statusCode, 400)
  t.equal(JSON.parse(malformed.payload).error, 'invalid_request')
})

t.test('the code flow: alice signs in, consents, and robo exchanges the code once', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const robo = await makeClient(svc)
  const authorized: string[] = []
  svc.domain.events.on('token.authorized', (e) => authorized.push(e.payload.user?.username ?? 'app'))
  const { signIn, consent, done, location } = await approveAsAlice(svc, authorizeUrl(robo.client_id))
  t.equal(signIn.status, 200)
  t.match(signIn.headers['content-type'], /text\/html/)
  t.match(signIn.text, /Sign in to continue to Robo Reader/)
  t.equal(signIn.headers['x-frame-options'], 'DENY')
  t.match(consent.text, /Robo Reader would like to/)
  t.match(consent.text, /\(write_post\)/)
  t.equal(done.status, 302)
  t.equal(`${location.origin}${location.pathname}`, REDIRECT)
  t.equal(location.searchParams.get('state'), 'xyz')
  const code = location.searchParams.get('code') ?? ''
  t.ok(code.length > 20)
  t.same(authorized, [], 'no token yet: only a code')

  const exchange = { grant_type: 'authorization_code', client_id: robo.client_id, client_secret: robo.client_secret, redirect_uri: REDIRECT, code }
  const first = await postForm(svc, '/oauth/access_token', exchange)
  t.equal(first.status, 200)
  t.equal(first.body.username, 'alice')
  t.same(first.body.token.scopes, ['basic', 'stream', 'write_post'])
  t.same(authorized, ['alice'])
  const again = await postForm(svc, '/oauth/access_token', exchange)
  t.equal(again.status, 400)
  t.equal(again.body.error, 'invalid_grant')
  t.equal(again.body.error_slug, 'code-used')
  const withdrawn = await svc.call('GET', '/token', { token: first.body.access_token })
  t.equal(withdrawn.status, 401, 'a reused code withdraws the token it gave')
})

t.test('a code is bound to its redirect URI and its client', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const robo = await makeClient(svc)
  const other = await makeClient(svc, 'Other Client', [REDIRECT])
  const { location } = await approveAsAlice(svc, authorizeUrl(robo.client_id))
  const code = location.searchParams.get('code') ?? ''
  const exchange = { grant_type: 'authorization_code', client_id: robo.client_id, client_secret: robo.client_secret, redirect_uri: REDIRECT, code }
  const noRedirect = await postForm(svc, '/oauth/access_token', { ...exchange, redirect_uri: '' })
  t.equal(noRedirect.status, 400)
  t.equal(noRedirect.body.error_slug, 'redirect-uri-required')
  const wrongRedirect = await postForm(svc, '/oauth/access_token', { ...exchange, redirect_uri: 'https://robo.example/other' })
  t.equal(wrongRedirect.status, 400)
  t.equal(wrongRedirect.body.error, 'invalid_grant')
  const otherClient = await postForm(svc, '/oauth/access_token', { ...exchange, client_id: other.client_id, client_secret: other.client_secret })
  t.equal(otherClient.status, 400)
  t.equal(otherClient.body.error, 'invalid_grant')
  const unknownCode = await postForm(svc, '/oauth/access_token', { ...exchange, code: 'made-up' })
  t.equal(unknownCode.status, 400)
  const ok = await postForm(svc, '/oauth/access_token', exchange)
  t.equal(ok.status, 200, 'the failed attempts did not spend the code')
})

t.test('the implicit flow puts the token in the fragment', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const robo = await makeClient(svc)
  const { location } = await approveAsAlice(svc, authorizeUrl(robo.client_id, { response_type: 'token' }))
  t.equal(location.search, '', 'nothing in the query')
  const fragment = new URLSearchParams(location.hash.slice(1))
  t.equal(fragment.get('state'), 'xyz')
  const me = await svc.call('GET', '/token', { token: fragment.get('access_token') ?? '' })
  t.equal(me.status, 200)
  t.equal(me.body.data.user.username, 'alice')
})

t.test('authenticate skips consent once alice granted the scopes; authorize always asks', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const robo = await makeClient(svc)
  const { browser } = await approveAsAlice(svc, authorizeUrl(robo.client_id, { response_type: 'token' }))
  const again = await browser.get(authorizeUrl(robo.client_id))
  t.equal(again.status, 302, 'straight back to robo')
  t.ok(new URL(String(again.headers.location)).searchParams.get('code'))
  const fewer = await browser.get(authorizeUrl(robo.client_id, { scope: 'stream' }))
  t.equal(fewer.status, 302, 'a subset of what was granted needs no consent either')
  const more = await browser.get(authorizeUrl(robo.client_id, { scope: 'stream messages' }))
  t.equal(more.status, 200)
  t.match(more.text, /would like to/)
  const authorize = await browser.get(authorizeUrl(robo.client_id, {}, 'authorize'))
  t.equal(authorize.status, 200)
  t.match(authorize.text, /would like to/)
  t.match(authorize.text, /action="\/oauth\/authorize"/)
})

t.test('changing the granted scopes emits token.scopes_changed', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const robo = await makeClient(svc)
  const events: string[] = []
  svc.domain.events.onAny((e) => events.push(e.name))
  await approveAsAlice(svc, authorizeUrl(robo.client_id, { response_type: 'token', scope: 'stream' }))
  await approveAsAlice(svc, authorizeUrl(robo.client_id, { response_type: 'token', scope: 'stream follow' }, 'authorize'))
  t.same(
    events.filter((e) => e.startsWith('token.')),
    ['token.authorized', 'token.scopes_changed'],
  )
})

t.test('an unregistered redirect URI or an unknown client gets an error page, never a redirect', async (t) => {
  const svc = await makeInstance(t)
  const robo = await makeClient(svc)
  const evil = await svc.server.inject(authorizeUrl(robo.client_id, { redirect_uri: 'https://evil.example/cb' }))
  t.equal(evil.statusCode, 400)
  t.notOk(evil.headers.location)
  t.match(evil.payload, /not registered/)
  const prefix = await svc.server.inject(authorizeUrl(robo.client_id, { redirect_uri: `${REDIRECT}/more` }))
  t.equal(prefix.statusCode, 400, 'exact match only')
  const unknown = await svc.server.inject(authorizeUrl('nobody'))
  t.equal(unknown.statusCode, 400)
  t.match(unknown.headers['content-type'], /text\/html/)
  const badType = await svc.server.inject(authorizeUrl(robo.client_id, { response_type: 'magic' }))
  t.equal(badType.statusCode, 400)
  const missing = await svc.server.inject('/oauth/authenticate?response_type=code')
  t.equal(missing.statusCode, 400)
  t.match(missing.payload, /client_id is required/)
})

t.test('a form without the session CSRF token is refused', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const robo = await makeClient(svc)
  const browser = visitor(svc)
  const page = await browser.get(authorizeUrl(robo.client_id))
  const fields = {
    client_id: robo.client_id,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'stream',
    action: 'sign_in',
    username: 'alice',
    password: 'correct horse',
  }
  const forged = await browser.post('/oauth/authenticate', { ...fields, csrf: 'forged' })
  t.equal(forged.status, 403)
  // As long as the real token in characters, longer in bytes: refused, not a 500.
  const accented = await browser.post('/oauth/authenticate', { ...fields, csrf: 'é'.repeat(csrfOf(page.text).length) })
  t.equal(accented.status, 403)
  const noCookie = await postForm(svc, '/oauth/authenticate', { ...fields, csrf: csrfOf(page.text) })
  t.equal(noCookie.status, 403, 'the token alone is not enough without the cookie')
  const missing = await browser.post('/oauth/authenticate', fields)
  t.equal(missing.status, 400)
})

t.test('a wrong password shows the sign-in page again with an error', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const robo = await makeClient(svc)
  const browser = visitor(svc)
  const page = await browser.get(authorizeUrl(robo.client_id))
  const fields = { client_id: robo.client_id, response_type: 'code', redirect_uri: REDIRECT, scope: 'stream', csrf: csrfOf(page.text) }
  const wrong = await browser.post('/oauth/authenticate', { ...fields, action: 'sign_in', username: 'alice', password: 'wrong horse' })
  t.equal(wrong.status, 401)
  t.match(wrong.text, /Wrong username or password/)
  t.match(wrong.text, /value="alice"/, 'the username stays filled in')
  const approve = await browser.post('/oauth/authenticate', { ...fields, action: 'approve' })
  t.equal(approve.status, 200, 'approving without signing in leads back to the sign-in page')
  t.match(approve.text, /Sign in to continue/)
})

t.test('alice can deny, and can sign out from the consent page', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const robo = await makeClient(svc)
  const browser = visitor(svc)
  const url = authorizeUrl(robo.client_id)
  const page = await browser.get(url)
  const fields = { client_id: robo.client_id, response_type: 'code', redirect_uri: REDIRECT, scope: 'stream write_post', state: 'xyz' }
  const consent = await browser.post('/oauth/authenticate', {
    ...fields,
    csrf: csrfOf(page.text),
    action: 'sign_in',
    username: 'alice',
    password: 'correct horse',
  })
  t.not(csrfOf(consent.text), csrfOf(page.text), 'signing in rotates the CSRF token')
  const denied = await browser.post('/oauth/authenticate', { ...fields, csrf: csrfOf(consent.text), action: 'deny' })
  t.equal(denied.status, 302)
  const location = new URL(String(denied.headers.location))
  t.equal(location.searchParams.get('error'), 'access_denied')
  t.equal(location.searchParams.get('state'), 'xyz')
  t.equal(await svc.store.read.tokens.count('app', robo.app.id), 0, 'no token was issued')
  const out = await browser.post('/oauth/authenticate', { ...fields, csrf: csrfOf(consent.text), action: 'sign_out' })
  t.match(out.text, /Sign in to continue/)
  const back = await browser.get(url)
  t.match(back.text, /Sign in to continue/, 'signed out for good')
})

t.test('the sign-up page creates carol and leads her back into the flow', async (t) => {
  const svc = await makeInstance(t)
  const robo = await makeClient(svc)
  const browser = visitor(svc)
  const signIn = await browser.get(authorizeUrl(robo.client_id))
  const href = /href="(\/signup\?next=[^"]+)"/.exec(signIn.text)?.[1].replace(/&amp;/g, '&') ?? ''
  t.ok(href, 'the sign-in page links to sign-up')
  const form = await browser.get(href)
  t.equal(form.status, 200)
  const next = decodeURIComponent(href.split('next=')[1])
  const created = await browser.post('/signup', { csrf: csrfOf(form.text), next, username: 'Carol', name: 'Carol C', password: 'long enough' })
  t.equal(created.status, 302)
  t.equal(created.headers.location, next)
  const carol = await svc.domain.users.accounts.byUsername('carol')
  t.equal(carol?.name, 'Carol C')
  t.match(carol?.password_hash ?? '', /^scrypt\$/)
  const consent = await browser.get(next)
  t.match(consent.text, /Signed in as @carol/)
})

t.test('adnview=appstore hides the sign-up link', async (t) => {
  const svc = await makeInstance(t)
  const robo = await makeClient(svc)
  const plain = await svc.server.inject(authorizeUrl(robo.client_id))
  t.match(plain.payload, /href="\/signup\?next=/)
  const appstore = await svc.server.inject(authorizeUrl(robo.client_id, { adnview: 'appstore' }))
  t.equal(appstore.statusCode, 200)
  t.notMatch(appstore.payload, /\/signup/)
})

t.test('sign-up explains rule breaks and refuses redirects out of the flow', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const browser = visitor(svc)
  const form = await browser.get('/signup')
  const csrf = csrfOf(form.text)
  const badName = await browser.post('/signup', { csrf, username: 'no spaces', password: 'long enough' })
  t.equal(badName.status, 400)
  t.match(badName.text, /username must be/)
  const taken = await browser.post('/signup', { csrf, username: 'alice', password: 'long enough' })
  t.equal(taken.status, 400)
  t.match(taken.text, /taken/)
  const short = await browser.post('/signup', { csrf, username: 'dave', password: 'short' })
  t.equal(short.status, 400)
  const away = await browser.get('/signup?next=https://evil.example/')
  t.equal(away.status, 400)
  const welcome = await browser.post('/signup', { csrf, username: 'dave', password: 'long enough' })
  t.equal(welcome.status, 200)
  t.match(welcome.text, /Welcome, @dave/)
})

t.test('with open registration off there is no sign-up', async (t) => {
  const svc = await makeInstance(t, { open_registration: false })
  const robo = await makeClient(svc)
  const browser = visitor(svc)
  const signIn = await browser.get(authorizeUrl(robo.client_id))
  t.notMatch(signIn.text, /\/signup/, 'no sign-up link')
  const page = await browser.get('/signup')
  t.equal(page.status, 403)
  const post = await browser.post('/signup', { csrf: csrfOf(signIn.text), username: 'erin', password: 'long enough' })
  t.equal(post.status, 403)
  t.equal(await svc.domain.users.accounts.byUsername('erin'), null)
})

t.test('alice’s session cookie is sealed, and a tampered one reads as signed out', async (t) => {
  // Behind a proxy on this machine, whose word on the scheme is believed.
  const svc = await makeInstance(t, { trusted_proxies: ['loopback'] })
  await svc.person('alice')
  const robo = await makeClient(svc)
  const url = authorizeUrl(robo.client_id, {}, 'authorize')
  const { browser, consent } = await approveAsAlice(svc, url)
  const setCookie = String(consent.headers['set-cookie'])
  t.match(setCookie, /^svc_session=Fe26\.2\*/, 'iron-sealed')
  t.match(setCookie, /HttpOnly/)
  t.match(setCookie, /SameSite=Lax/)
  t.match(setCookie, /Path=\//)
  t.match(setCookie, /Max-Age=2592000/, 'kept for 30 days')
  t.notMatch(setCookie, /Secure/, 'plain http: no Secure flag')
  t.notMatch(Buffer.from(browser.cookie.split('*').join(''), 'base64url').toString(), /csrf|user_id/, 'nothing readable inside')
  t.match((await browser.get(url)).text, /Signed in as @alice/)

  const value = browser.cookie.slice('svc_session='.length)
  const flipped = `${value.slice(0, 60)}${value[60] === 'A' ? 'B' : 'A'}${value.slice(61)}`
  const tampered = await svc.server.inject({ method: 'GET', url, headers: { cookie: `svc_session=${flipped}` } })
  t.equal(tampered.statusCode, 200, 'not an error')
  t.match(tampered.payload, /Sign in to continue/, 'signed out')
  const garbage = await svc.server.inject({ method: 'GET', url, headers: { cookie: 'svc_session=eyJ1c2VyX2lkIjoxfQ.forged' } })
  t.equal(garbage.statusCode, 200)
  t.match(garbage.payload, /Sign in to continue/)
  const behindProxy = await svc.server.inject({ method: 'GET', url, headers: { 'x-forwarded-proto': 'https' } })
  t.match(String(behindProxy.headers['set-cookie']), /Secure/, 'Secure once the visitor came over https')
})
