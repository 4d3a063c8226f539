/**
 * The registration modes at /signup: open to anyone, by invitation only,
 * closed to everyone (invitations too); the older `open_registration`
 * keeps its meaning; the rules show above the form and must be agreed to.
 */
import t from 'tap'
import { makeInstance, type Instance } from '../../fixtures/instance.js'
import { csrfOf, makeClient, visitor } from '../../fixtures/oauth.js'

/**
 * GETs /signup (with `query`), then posts `fields` as if from the form:
 * with the session's CSRF token from the form, or, where no form shows, from
 * a sign-in page (a forged post, not an expired session, is what is refused).
 */
async function signUp(svc: Instance, fields: Record<string, string>, query = '') {
  const browser = visitor(svc)
  const form = await browser.get(`/signup${query}`)
  let csrf = csrfOf(form.text)
  if (csrf === '') {
    const robo = await makeClient(svc, `Robo ${fields.username}`)
    csrf = csrfOf((await browser.get(`/oauth/authenticate?client_id=${robo.client_id}&response_type=code&redirect_uri=https://robo.example/cb`)).text)
  }
  const answer = await browser.post('/signup', { csrf, password: 'long enough', ...fields })
  return { form, answer }
}

const settingsOf = (html: string) => JSON.parse(/<script id="svc-settings" type="application\/json">(.*?)<\/script>/.exec(html)?.[1] ?? 'null')

t.test('open: anyone makes an account at once, and the web client is told to offer "Sign up"', async (t) => {
  const svc = await makeInstance(t, { registration: 'open' })
  const { form, answer } = await signUp(svc, { username: 'carol' })
  t.match(form.text, /<h1>Create an account<\/h1>/)
  t.notMatch(form.text, /name="agree"/, 'no rules, nothing to agree to')
  t.match(answer.text, /Welcome, @carol/)
  t.match(settingsOf((await svc.server.inject('/')).payload), { registration: 'open' })
})

t.test('invite: only a link admits; without one /signup says how to get in', async (t) => {
  const svc = await makeInstance(t, { registration: 'invite' })
  const { form, answer } = await signUp(svc, { username: 'carol' })
  t.equal(form.status, 403)
  t.match(form.text, /by invitation only/)
  t.equal(answer.status, 403)
  t.equal(await svc.domain.users.accounts.byUsername('carol'), null)
  const { code } = await svc.domain.auth.invites.create(1)
  const invited = await signUp(svc, { username: 'dave', invite: code }, `?invite=${code}`)
  t.match(invited.answer.text, /Welcome, @dave/)
  t.match(settingsOf((await svc.server.inject('/')).payload), { registration: 'invite' })
})

t.test('closed: nobody signs up, not even with an invitation, whose use is not spent', async (t) => {
  const svc = await makeInstance(t, { registration: 'closed' })
  const robo = await makeClient(svc)
  const { code } = await svc.domain.auth.invites.create(1)
  const plain = await signUp(svc, { username: 'carol' })
  t.equal(plain.form.status, 403)
  t.match(plain.form.text, /does not take new accounts/)
  t.equal(plain.answer.status, 403)
  const invited = await signUp(svc, { username: 'dave', invite: code }, `?invite=${code}`)
  t.equal(invited.form.status, 403, 'the link shows no form')
  t.equal(invited.answer.status, 403, 'nor makes an account')
  await t.rejects(svc.domain.auth.oauth.signUp({ username: 'dave', password: 'long enough', invite: code }), { code: 'forbidden' })
  t.equal(await svc.domain.users.accounts.byUsername('dave'), null)
  t.same(
    (await svc.domain.auth.invites.list()).map((i) => i.uses_left),
    [1],
  )
  const signIn = await svc.server.inject(`/oauth/authenticate?client_id=${robo.client_id}&response_type=code&redirect_uri=https://robo.example/cb`)
  t.notMatch(signIn.payload, /\/signup/, 'the sign-in page offers no sign-up')
  t.match(settingsOf((await svc.server.inject('/')).payload), { registration: 'closed' })
})

t.test('without `registration`, open_registration keeps its meaning; with both, `registration` wins', async (t) => {
  const open = await makeInstance(t, { open_registration: true })
  t.equal((await signUp(open, { username: 'carol' })).answer.status, 200, 'true is open')
  const invite = await makeInstance(t, { open_registration: false })
  t.equal((await signUp(invite, { username: 'carol' })).form.status, 403, 'false is invitations only')
  const { code } = await invite.domain.auth.invites.create(1)
  t.equal((await signUp(invite, { username: 'carol', invite: code }, `?invite=${code}`)).answer.status, 200)
  t.equal(invite.domain.auth.registration.mode, 'invite')
  const both = await makeInstance(t, { open_registration: false, registration: 'approval' })
  t.equal(both.domain.auth.registration.mode, 'approval')
  t.match((await signUp(both, { username: 'dave' })).answer.text, /waits for the operator’s approval/)
})

t.test('the rules show above the form, escaped, and signing up needs "I agree to the rules"', async (t) => {
  const rules = 'Be <b>kind</b>.\n\n1. No spam\n2) No <script>alert(1)</script>\n\n- Ask @alice & bob\n* if unsure'
  const svc = await makeInstance(t, { rules })
  const browser = visitor(svc)
  const form = await browser.get('/signup')
  t.match(form.text, '<p>Be &lt;b&gt;kind&lt;/b&gt;.</p>')
  t.match(form.text, '<ol><li>No spam</li><li>No &lt;script&gt;alert(1)&lt;/script&gt;</li></ol>')
  t.match(form.text, '<ul><li>Ask @alice &amp; bob</li><li>if unsure</li></ul>')
  t.notMatch(form.text, '<script>alert', 'nothing of the rules is markup')
  t.ok(form.text.indexOf('The rules here') < form.text.indexOf('<form'), 'above the form')
  t.match(form.text, /<input type="checkbox" name="agree" value="yes" required> I agree to the rules/)

  const csrf = csrfOf(form.text)
  const unticked = await browser.post('/signup', { csrf, username: 'carol', name: 'Carol', password: 'long enough' })
  t.equal(unticked.status, 400, 'posting without the box ticked gets the form back')
  t.match(unticked.text, /tick “I agree to the rules”/)
  t.match(unticked.text, /value="carol"/, 'with what was typed')
  t.match(unticked.text, 'No spam', 'and the rules')
  t.equal(await svc.domain.users.accounts.byUsername('carol'), null)
  const ticked = await browser.post('/signup', { csrf, username: 'carol', password: 'long enough', agree: 'yes' })
  t.match(ticked.text, /Welcome, @carol/)
  await t.rejects(svc.domain.auth.registration.signUp({ username: 'dave', password: 'long enough' }), { code: 'invalid' }, 'the domain checks it too')
})
