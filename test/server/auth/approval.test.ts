/**
 * Registration by approval: carol asks for an account at /signup, and it
 * waits. Until the operator lets her in she cannot sign in (the page and
 * the password grant say so only to someone with her password) and nobody
 * finds her; dave is turned away and his name is free again; erin, who
 * has an invitation, needs nobody's approval.
 */
import t from 'tap'
import type { DomainEvent } from '../../../data/index.js'
import { makeInstance, type Instance } from '../../fixtures/instance.js'
import { csrfOf, makeClient, passwordGrant, visitor, type Client } from '../../fixtures/oauth.js'

const REDIRECT = 'https://robo.example/cb'

/** Signs `username` in on robo's sign-in page with `password`; answers the page that follows. */
async function signInOnPage(svc: Instance, robo: Client, username: string, password = 'correct horse') {
  const browser = visitor(svc)
  const url = `/oauth/authenticate?client_id=${robo.client_id}&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=stream`
  const page = await browser.get(url)
  const fields = { client_id: robo.client_id, response_type: 'code', redirect_uri: REDIRECT, scope: 'stream', csrf: csrfOf(page.text) }
  return browser.post('/oauth/authenticate', { ...fields, action: 'sign_in', username, password })
}

/** Asks for an account at /signup as a new visitor. */
async function askForAccount(svc: Instance, fields: Record<string, string>) {
  const browser = visitor(svc)
  const form = await browser.get('/signup')
  return { form, answer: await browser.post('/signup', { csrf: csrfOf(form.text), password: 'correct horse', ...fields }), browser }
}

t.test('carol asks for an account; it waits, unseen and unable to sign in, until the operator approves it', async (t) => {
  const svc = await makeInstance(t, { registration: 'approval' })
  const alice = await svc.person('alice')
  const robo = await makeClient(svc)
  const created: DomainEvent<'user.created'>[] = []
  const approved: DomainEvent<'user.approved'>[] = []
  svc.domain.events.on('user.created', (e) => created.push(e))
  svc.domain.events.on('user.approved', (e) => approved.push(e))

  const { form, answer, browser } = await askForAccount(svc, { username: 'carol', name: 'Carol', note: 'I knit with alice' })
  t.equal(form.status, 200)
  t.match(form.text, /<h1>Request an account<\/h1>/)
  t.match(form.text, /Why do you want to join\?/)
  t.equal(answer.status, 200)
  t.match(answer.text, /waits for the operator’s approval/)
  t.match(answer.text, '<a href="/">Back to svc</a>', 'and leads back to the front page')
  t.notMatch(answer.text, /Welcome/)
  const after = await browser.get(`/oauth/authenticate?client_id=${robo.client_id}&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}`)
  t.match(after.text, /Sign in to continue/, 'asking signed her in nowhere')
  const carol = await svc.domain.users.accounts.byUsername('carol')
  t.match(carol?.waiting_approval, { since: String, note: 'I knit with alice' })
  t.match(
    created.map((e) => e.payload.user),
    [{ username: 'carol', waiting_approval: { note: 'I knit with alice' } }],
    'the sign-up event carries the waiting state',
  )

  const page = await signInOnPage(svc, robo, 'carol')
  t.equal(page.status, 401)
  t.match(page.text, /waits for the operator’s approval/, 'the sign-in page says it waits')
  t.notMatch(page.text, /Authorize/)
  const guess = await signInOnPage(svc, robo, 'carol', 'wrong guess')
  t.match(guess.text, /Wrong username or password/)
  t.notMatch(guess.text, /approval/, 'without her password nobody learns the account exists')
  const grant = await passwordGrant(svc, robo, 'carol', 'stream')
  t.equal(grant.status, 403, 'no token by the password grant')
  t.equal(grant.body.error_slug, 'account-waiting')

  const id = carol!.id
  t.equal((await svc.call('GET', '/stream/0/users/@carol', { token: alice.token })).status, 404, 'nobody finds her by name')
  t.equal((await svc.call('GET', `/stream/0/users/${id}`, { token: alice.token })).status, 404, 'nor by id')
  t.same((await svc.call('GET', `/stream/0/users?ids=${id}`, { token: alice.token })).body.data, [])
  t.same((await svc.call('GET', '/stream/0/users/search?q=carol', { token: alice.token })).body.data, [], 'search does not find her')

  const taken = await askForAccount(svc, { username: 'carol' })
  t.equal(taken.answer.status, 400, 'her name is hers while she waits')

  await svc.domain.auth.registration.approve(id)
  t.match(
    approved.map((e) => e.payload.user),
    [{ username: 'carol' }],
  )
  t.notOk(approved[0].payload.user.waiting_approval)
  t.match((await signInOnPage(svc, robo, 'carol')).text, /Signed in as @carol/, 'approved, she signs in')
  t.equal((await passwordGrant(svc, robo, 'carol', 'stream')).status, 200)
  t.equal((await svc.call('GET', '/stream/0/users/@carol', { token: alice.token })).status, 200, 'and shows')
  await t.rejects(svc.domain.auth.registration.approve(id), { code: 'conflict' }, 'approving twice is refused')
  await t.rejects(svc.domain.auth.registration.reject(id), { code: 'conflict' }, 'and an approved account is not rejected')
})

t.test('dave is turned away: his waiting account is gone and his name is free', async (t) => {
  const svc = await makeInstance(t, { registration: 'approval' })
  const rejected: DomainEvent<'user.rejected'>[] = []
  svc.domain.events.on('user.rejected', (e) => rejected.push(e))
  const dave = await svc.domain.auth.registration.signUp({ username: 'dave', password: 'correct horse' })
  t.same(
    (await svc.domain.auth.registration.waiting()).map((u) => u.username),
    ['dave'],
  )
  await svc.domain.auth.registration.reject(dave.id)
  t.equal(await svc.domain.users.accounts.byUsername('dave'), null)
  t.equal(await svc.domain.users.accounts.get(dave.id), null, 'the row is removed')
  t.match(
    rejected.map((e) => e.payload.user),
    [{ id: dave.id, username: 'dave' }],
  )
  const again = await askForAccount(svc, { username: 'dave' })
  t.equal(again.answer.status, 200, 'the name can be asked for again')
  await t.rejects(svc.domain.auth.registration.reject(dave.id), { code: 'not_found' })
})

t.test('with an invitation erin needs no approval; the sign-in page offers to request an account', async (t) => {
  const svc = await makeInstance(t, { registration: 'approval' })
  const robo = await makeClient(svc)
  const { code } = await svc.domain.auth.invites.create(1)
  const browser = visitor(svc)
  const form = await browser.get(`/signup?invite=${code}`)
  t.match(form.text, /You were invited/)
  t.match(form.text, /<h1>Create an account<\/h1>/)
  t.notMatch(form.text, /Why do you want to join/)
  const welcome = await browser.post('/signup', { csrf: csrfOf(form.text), invite: code, username: 'erin', password: 'correct horse' })
  t.match(welcome.text, /Welcome, @erin/)
  t.notOk((await svc.domain.users.accounts.byUsername('erin'))?.waiting_approval)
  t.equal((await passwordGrant(svc, robo, 'erin', 'stream')).status, 200)
  const signIn = await visitor(svc).get(`/oauth/authenticate?client_id=${robo.client_id}&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}`)
  t.match(signIn.text, />Request one</)
})

t.test('what carol tells the operator is at most 500 characters', async (t) => {
  const svc = await makeInstance(t, { registration: 'approval' })
  const { answer } = await askForAccount(svc, { username: 'carol', note: 'x'.repeat(501) })
  t.equal(answer.status, 400)
  t.match(answer.text, /at most 500 characters/)
  t.match(answer.text, /Why do you want to join/, 'the form comes back')
  t.equal(await svc.domain.users.accounts.byUsername('carol'), null)
})

t.test('a waiting account is no user in NodeInfo, which says anyone may ask for an account', async (t) => {
  const svc = await makeInstance(t, { public_url: 'https://svc.example', registration: 'approval' })
  await svc.person('alice')
  const carol = await svc.domain.auth.registration.signUp({ username: 'carol', password: 'correct horse' })
  const nodeinfo = async () => JSON.parse((await svc.server.inject('/nodeinfo/2.1')).payload)
  t.match(await nodeinfo(), { openRegistrations: true, usage: { users: { total: 1 } } })
  await svc.domain.auth.registration.approve(carol.id)
  t.match(await nodeinfo(), { usage: { users: { total: 2 } } }, 'approved, she counts')
})
