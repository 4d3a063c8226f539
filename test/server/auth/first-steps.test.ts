/**
 * A newcomer's first steps through the pages: the sign-in and sign-up pages
 * name the instance, sign-up asks for the password twice, a sign-up opened
 * directly leads on to the web client, and svc's own web client never asks
 * for consent while every other app still does.
 */
import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'
import { csrfOf, makeClient, visitor } from '../../fixtures/oauth.js'

const NAME = 'Tea & Cake'
const DESCRIPTION = 'Crumbs <welcome> here'

const flowUrl = (clientId: string, redirect: string, responseType = 'token', mode = 'authenticate') =>
  `/oauth/${mode}?${new URLSearchParams({ client_id: clientId, response_type: responseType, redirect_uri: redirect, scope: 'basic stream write_post', state: 's1' })}`

const fieldsOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams)

t.test('the sign-in page names the instance and its description, escaped; svc web is the instance itself', async (t) => {
  const svc = await makeInstance(t, { name: NAME, description: DESCRIPTION })
  const web = await svc.domain.auth.apps.ensureWebClient()
  const robo = await makeClient(svc)
  const own = await svc.server.inject(flowUrl(web.client_id, 'http://127.0.0.1:0/'))
  t.equal(own.statusCode, 200)
  t.match(own.payload, '<strong>Tea &amp; Cake</strong>')
  t.match(own.payload, 'Crumbs &lt;welcome&gt; here')
  t.match(own.payload, '<h1>Sign in to Tea &amp; Cake</h1>')
  t.notMatch(own.payload, /continue to svc web/, 'no app name people never chose')
  const other = await svc.server.inject(flowUrl(robo.client_id, 'https://robo.example/cb', 'code'))
  t.match(other.payload, '<strong>Tea &amp; Cake</strong>', 'another app’s sign-in names the instance too')
  t.match(other.payload, '<h1>Sign in to continue to Robo Reader</h1>')
})

t.test('signing in to svc web goes straight back to the client with a token, at authenticate and authorize alike; robo still asks', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const web = await svc.domain.auth.apps.ensureWebClient()
  const robo = await makeClient(svc)
  for (const mode of ['authenticate', 'authorize']) {
    const url = flowUrl(web.client_id, 'http://127.0.0.1:0/', 'token', mode)
    const browser = visitor(svc)
    const signIn = await browser.get(url)
    const done = await browser.post(`/oauth/${mode}`, {
      ...fieldsOf(url),
      csrf: csrfOf(signIn.text),
      action: 'sign_in',
      username: 'alice',
      password: 'correct horse',
    })
    t.equal(done.status, 302, `${mode}: no consent page`)
    const back = new URL(String(done.headers.location))
    t.equal(back.origin + back.pathname, 'http://127.0.0.1:0/')
    const fragment = new URLSearchParams(back.hash.slice(1))
    t.equal(fragment.get('state'), 's1')
    const me = await svc.call('GET', '/stream/0/token', { token: fragment.get('access_token') ?? '' })
    t.equal(me.body.data.user.username, 'alice', `${mode}: the token is alice’s`)
    t.same(me.body.data.scopes, ['basic', 'stream', 'write_post'])
  }
  const url = flowUrl(robo.client_id, 'https://robo.example/cb', 'code')
  const browser = visitor(svc)
  const signIn = await browser.get(url)
  const consent = await browser.post('/oauth/authenticate', {
    ...fieldsOf(url),
    csrf: csrfOf(signIn.text),
    action: 'sign_in',
    username: 'alice',
    password: 'correct horse',
  })
  t.equal(consent.status, 200)
  t.match(consent.text, /Robo Reader would like to/, 'a third-party app still gets the consent page')
})

t.test('sign-up asks for the password twice: a mismatch says so and makes nothing', async (t) => {
  const svc = await makeInstance(t, { name: NAME, description: DESCRIPTION })
  const browser = visitor(svc)
  const form = await browser.get('/signup')
  t.match(form.text, '<strong>Tea &amp; Cake</strong>', 'the sign-up page names the instance')
  t.match(form.text, /<label for="password_again">Password again<\/label><input type="password" id="password_again" name="password_again"[^>]* required/)
  const csrf = csrfOf(form.text)
  const mismatch = await browser.post('/signup', { csrf, username: 'dave', name: 'Dave', password: 'a long passphrase', password_again: 'a long passphrasf' })
  t.equal(mismatch.status, 400)
  t.match(mismatch.text, /role="alert">The two passwords differ/)
  t.match(mismatch.text, 'value="dave"', 'what was typed stays in the form')
  t.equal(await svc.domain.users.accounts.byUsername('dave'), null, 'no account was made')

  const welcome = await browser.post('/signup', { csrf, username: 'dave', password: 'a long passphrase', password_again: 'a long passphrase' })
  t.equal(welcome.status, 200)
  t.match(welcome.text, /Welcome, @dave/)
  t.match(welcome.text, '<a class="onward" href="/?sign-in">Continue to Tea &amp; Cake</a>', 'a sign-up opened directly leads on to the client')
  t.ok(await svc.domain.users.accounts.byUsername('dave'))
})

t.test('signing up from svc web’s sign-in lands back in the client signed in, with no consent', async (t) => {
  const svc = await makeInstance(t)
  const web = await svc.domain.auth.apps.ensureWebClient()
  const start = flowUrl(web.client_id, 'http://127.0.0.1:0/')
  const browser = visitor(svc)
  const signIn = await browser.get(start)
  const signupHref = /href="(\/signup\?next=[^"]+)"/.exec(signIn.text)?.[1].replace(/&amp;/g, '&') ?? ''
  const form = await browser.get(signupHref)
  const next = /name="next" value="([^"]+)"/.exec(form.text)?.[1].replace(/&amp;/g, '&') ?? ''
  const made = await browser.post('/signup', {
    csrf: csrfOf(form.text),
    next,
    username: 'erin',
    password: 'a long passphrase',
    password_again: 'a long passphrase',
  })
  t.equal(made.status, 302)
  const back = await browser.get(String(made.headers.location))
  t.equal(back.status, 302, 'the flow goes on without a consent page')
  const token = new URLSearchParams(new URL(String(back.headers.location)).hash.slice(1)).get('access_token') ?? ''
  const me = await svc.call('GET', '/stream/0/token', { token })
  t.equal(me.body.data.user.username, 'erin')
})
