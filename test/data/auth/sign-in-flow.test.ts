/**
 * The browser flow's decisions, through the domain's sign-in flow: alice
 * opens robo's link, signs in, consents or declines, signs out; carol
 * creates her account. No page, no cookie: only what comes next.
 */
import t from 'tap'
import type { FlowAction, FlowInput } from '../../../data/index.js'
import { HERE, makeDomainInstance } from '../../fixtures/instance.js'

const REDIRECT = 'https://robo.example/cb'

async function setUp(t: Parameters<typeof makeDomainInstance>[0], config: Record<string, unknown> = {}) {
  const svc = await makeDomainInstance(t, config)
  const alice = await svc.person('alice')
  const { app } = await svc.domain.auth.apps.create({ name: 'Robo', redirect_uris: [REDIRECT] })
  const request = { client_id: app.client_id, response_type: 'code', redirect_uri: REDIRECT, scope: 'stream', state: 's1' }
  const flow = svc.domain.auth.signInFlow
  const next = (action: FlowAction, more: Partial<FlowInput> = {}) => flow.next({ mode: 'authenticate', request, address: HERE, action, ...more })
  return { svc, alice, app, request, flow, next }
}

t.test('alice signs in and is asked to consent; approving sends robo a code', async (t) => {
  const { alice, next } = await setUp(t)
  const first = await next({ kind: 'view' })
  t.match(first, { step: { kind: 'sign-in', offerSignUp: true, authorization: { app: { name: 'Robo' } } } })
  t.notOk(first.newSession, 'the session stays as it is')
  const signedIn = await next({ kind: 'sign_in', username: 'alice', password: 'correct horse' })
  t.match(signedIn, { step: { kind: 'consent', user: { username: 'alice' } }, newSession: { userId: alice.user.id } })
  const approved = await next({ kind: 'approve' }, { userId: alice.user.id })
  t.equal(approved.step.kind, 'redirect')
  const location = new URL(approved.step.kind === 'redirect' ? approved.step.location : '')
  t.ok(location.searchParams.get('code'))
  t.equal(location.searchParams.get('state'), 's1')
})

t.test('a wrong password shows the sign-in step again, with what alice typed', async (t) => {
  const { next } = await setUp(t)
  const wrong = await next({ kind: 'sign_in', username: 'alice', password: 'wrong horse' })
  t.match(wrong.step, { kind: 'sign-in', failed: { message: 'Wrong username or password.', username: 'alice' } })
  t.notOk(wrong.newSession, 'still signed out, same session')
})

t.test('consent once given at authenticate is not asked again; authorize always asks', async (t) => {
  const { alice, request, next } = await setUp(t)
  t.match((await next({ kind: 'view' }, { userId: alice.user.id })).step, { kind: 'consent' }, 'nothing granted yet')
  // A code grants nothing until robo exchanges it: the implicit flow's token is granted at once.
  await next({ kind: 'approve' }, { userId: alice.user.id, request: { ...request, response_type: 'token' } })
  t.match((await next({ kind: 'view' }, { userId: alice.user.id })).step, { kind: 'redirect' })
  t.match((await next({ kind: 'view' }, { userId: alice.user.id, mode: 'authorize' })).step, { kind: 'consent' })
})

t.test('approving or denying while signed out leads to sign-in; denying tells robo access_denied', async (t) => {
  const { svc, alice, app, next } = await setUp(t)
  t.match((await next({ kind: 'approve' })).step, { kind: 'sign-in' })
  t.match((await next({ kind: 'deny' })).step, { kind: 'sign-in' })
  const denied = await next({ kind: 'deny' }, { userId: alice.user.id })
  const location = new URL(denied.step.kind === 'redirect' ? denied.step.location : 'http://none')
  t.equal(location.searchParams.get('error'), 'access_denied')
  t.equal(await svc.store.read.tokens.count('app', app.id), 0, 'no token was issued')
})

t.test('signing out starts a session without a user', async (t) => {
  const { alice, next } = await setUp(t)
  t.match(await next({ kind: 'sign_out' }, { userId: alice.user.id }), { step: { kind: 'sign-in' }, newSession: {} })
  t.notOk((await next({ kind: 'sign_out' }, { userId: alice.user.id })).newSession?.userId)
})

t.test('no sign-up link for the app store view, nor when registration is closed', async (t) => {
  const { next } = await setUp(t)
  t.match((await next({ kind: 'view' }, { view: 'appstore' })).step, { kind: 'sign-in', offerSignUp: false })
  const closed = await setUp(t, { open_registration: false })
  t.match((await closed.next({ kind: 'view' })).step, { kind: 'sign-in', offerSignUp: false })
  t.equal(closed.flow.signUpOpen, false)
})

t.test('a bad request is an error, never a step: nothing may redirect to an unregistered address', async (t) => {
  const { request, flow } = await setUp(t)
  await t.rejects(
    flow.next({ mode: 'authenticate', address: HERE, request: { ...request, redirect_uri: 'https://evil.example/cb' }, action: { kind: 'view' } }),
    {
      name: 'DomainError',
      slug: 'invalid-redirect-uri',
    },
  )
})

t.test('carol signs up and goes on; a taken name is for the form to retry; closed registration refuses', async (t) => {
  const { flow } = await setUp(t)
  const carol = await flow.signUp({ username: 'carol', password: 'long enough', next: '/oauth/authenticate?client_id=x' })
  t.match(carol, { kind: 'signed-up', user: { username: 'carol' }, next: '/oauth/authenticate?client_id=x' })
  t.match(await flow.signUp({ username: 'alice', password: 'long enough' }), { kind: 'retry', message: /taken/ })
  t.match(await flow.signUp({ username: 'no spaces', password: 'long enough' }), { kind: 'retry' })
  const closed = await setUp(t, { open_registration: false })
  await t.rejects(closed.flow.signUp({ username: 'erin', password: 'long enough' }), { code: 'forbidden' })
})

t.test('svc’s own web client never asks for consent, at authenticate or authorize; robo still does', async (t) => {
  const { svc, alice, next } = await setUp(t)
  const web = await svc.domain.auth.apps.ensureWebClient()
  const own = {
    client_id: web.client_id,
    response_type: 'token',
    redirect_uri: 'https://svc.example/',
    scope: 'basic stream messages',
    origin: 'https://svc.example',
  }
  for (const mode of ['authenticate', 'authorize'] as const) {
    const signedIn = await next({ kind: 'sign_in', username: 'alice', password: 'correct horse' }, { request: own, mode })
    t.equal(signedIn.step.kind, 'redirect', `${mode}: straight back to the client`)
    t.match(signedIn.step.kind === 'redirect' ? signedIn.step.location : '', /^https:\/\/svc\.example\/#access_token=/)
  }
  t.match((await next({ kind: 'view' }, { userId: alice.user.id })).step, { kind: 'consent' }, 'another app asks')
})

t.test('sign-up refuses a password typed differently the second time, and makes nothing', async (t) => {
  const { svc, flow } = await setUp(t)
  const refused = await flow.signUp({ username: 'carol', password: 'a long passphrase', password_again: 'a long passphrase ' })
  t.match(refused, { kind: 'retry', message: /The two passwords differ/ })
  t.equal(await svc.domain.users.accounts.byUsername('carol'), null)
  t.match(await flow.signUp({ username: 'carol', password: 'a long passphrase', password_again: 'a long passphrase' }), { kind: 'signed-up' })
})
