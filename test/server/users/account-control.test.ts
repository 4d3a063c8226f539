/**
 * Alice in control of her account from svc's web client: she sets a new
 * password with her current one (which signs her out everywhere else), sees
 * where she is signed in and ends those sessions, and deletes her account
 * as the operator would.
 */
import t from 'tap'
import { generate } from 'otplib'
import { makeInstance, type Instance } from '../../fixtures/instance.js'
import { recordEvents } from '../../fixtures/events.js'
import { makeClient, postForm, type Client } from '../../fixtures/oauth.js'
import type { AccountSession, DeletedAccount, SignedOutElsewhere } from '../../../server/api/index.js'

const ALL = ['basic', 'stream', 'write_post', 'follow', 'update_profile', 'public_messages', 'messages', 'files', 'export']

/** Alice signed in to svc's own web client: her token there. */
async function webToken(svc: Instance, username: string): Promise<string> {
  const web = await svc.domain.auth.apps.ensureWebClient()
  const user = await svc.domain.users.accounts.byUsername(username)
  return (await svc.domain.auth.tokens.issueUserToken(web, user!, ALL)).access_token
}

/** robo signs `username` in with the password grant: answers the status and the token. */
async function grant(svc: Instance, robo: Client, username: string, password: string) {
  const res = await postForm(svc, '/oauth/access_token', {
    grant_type: 'password',
    client_id: robo.client_id,
    client_secret: robo.client_secret,
    username,
    password,
    scope: 'stream update_profile',
  })
  return { status: res.status, token: res.body.access_token as string | undefined }
}

const me = (svc: Instance, token: string) => svc.call('GET', '/stream/0/users/me', { token })

t.test('alice changes her password: the current one is checked, every other token ends, hers keeps working', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const robo = await makeClient(svc)
  const web = await webToken(svc, 'alice')
  const other = (await grant(svc, robo, 'alice', 'correct horse')).token!
  const events = recordEvents(svc)

  const wrong = await svc.call('POST', '/stream/0/users/me/password', {
    token: web,
    payload: { current_password: 'wrong horse', new_password: 'battery staple' },
  })
  t.equal(wrong.status, 400)
  t.match(wrong.body.meta, { error_slug: 'wrong-password', error_message: /not right/ })
  const short = await svc.call('POST', '/stream/0/users/me/password', { token: web, payload: { current_password: 'correct horse', new_password: 'x' } })
  t.equal(short.status, 400, 'the sign-up rules hold')
  t.match(short.body.meta.error_message, /at least/)
  t.equal((await me(svc, other)).status, 200, 'a refused change ends nothing')

  const fromRobo = await svc.call('POST', '/stream/0/users/me/password', {
    token: other,
    payload: { current_password: 'correct horse', new_password: 'battery staple' },
  })
  t.equal(fromRobo.status, 403, 'only svc’s own web client changes the password')

  const changed = await svc.call<SignedOutElsewhere>('POST', '/stream/0/users/me/password', {
    token: web,
    payload: { current_password: 'correct horse', new_password: 'battery staple' },
  })
  t.equal(changed.status, 200)
  t.same(changed.body.data, { sessions_ended: 2 }, 'robo’s and the one of the fixture’s sign-in')
  t.equal((await me(svc, other)).status, 401, 'the other tokens ended')
  t.equal((await me(svc, alice.token)).status, 401)
  t.equal((await me(svc, web)).status, 200, 'the one that made the change keeps working')
  t.ok(
    events.some((e) => e.name === 'user.password_changed'),
    'the change is an event',
  )
  t.notOk(JSON.stringify(events).includes('battery staple'), 'no event carries the password')

  const old = await grant(svc, robo, 'alice', 'correct horse')
  t.not(old.status, 200, 'the old password no longer signs in')
  t.equal(old.token, undefined)
  t.equal((await grant(svc, robo, 'alice', 'battery staple')).status, 200, 'the new one does')
})

t.test('a wrong current password is a sign-in guess: enough of them and alice must wait', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const web = await webToken(svc, 'alice')
  const statuses: number[] = []
  for (let i = 0; i < 12; i++) {
    const res = await svc.call('POST', '/stream/0/users/me/password', {
      token: web,
      payload: { current_password: `guess ${i}`, new_password: 'battery staple' },
    })
    statuses.push(res.status)
  }
  t.equal(statuses[0], 400)
  t.ok(statuses.includes(429), `refused for a while once guessed too often (${statuses.join(' ')})`)
})

t.test('alice sees where she is signed in, ends one session, then all but this one', async (t) => {
  const svc = await makeInstance(t)
  const [alice] = await svc.people('alice')
  const robo = await makeClient(svc, 'Robo Reader')
  const first = (await grant(svc, robo, 'alice', 'correct horse')).token!
  const second = (await grant(svc, robo, 'alice', 'correct horse')).token!
  const events = recordEvents(svc)

  const list = await svc.call<AccountSession[]>('GET', '/stream/0/users/me/sessions', { token: alice.token })
  t.equal(list.status, 200)
  t.equal(list.body.data.length, 3, 'three sign-ins, three sessions')
  t.same(
    list.body.data.filter((s) => s.current).map((s) => s.app_name),
    ['Test Client'],
    'the requesting one is marked current',
  )
  t.same(
    list.body.data.filter((s) => !s.current).map((s) => s.app_name),
    ['Robo Reader', 'Robo Reader'],
  )
  t.match(list.body.data[0], { id: String, created_at: String, last_used_at: null, scopes: Array })
  const text = JSON.stringify(list.body)
  for (const token of [alice.token, first, second]) t.notOk(text.includes(token), 'no token in the answer')

  const firstId = (await svc.domain.auth.tokens.authenticate(first)).token!.id
  const ended = await svc.call<AccountSession[]>('DELETE', `/stream/0/users/me/sessions/${firstId}`, { token: alice.token })
  t.equal(ended.status, 200)
  t.equal(ended.body.data.length, 2)
  t.equal((await me(svc, first)).status, 401, 'the ended session is signed out')
  t.equal((await me(svc, second)).status, 200, 'the others are not')
  t.ok(events.some((e) => e.name === 'token.deauthorized'))

  const [bob] = await svc.people('bob')
  const notHers = await svc.call('DELETE', `/stream/0/users/me/sessions/${(await svc.viewerOf(bob)).token!.id}`, { token: alice.token })
  t.equal(notHers.status, 404, 'another account’s session is none of hers')
  t.equal((await me(svc, bob.token)).status, 200)

  const everywhere = await svc.call<SignedOutElsewhere>('DELETE', '/stream/0/users/me/sessions', { token: alice.token })
  t.equal(everywhere.status, 200)
  t.same(everywhere.body.data, { sessions_ended: 1 })
  t.equal((await me(svc, second)).status, 401, 'everywhere else is signed out')
  t.equal((await me(svc, alice.token)).status, 200, 'here is not')
  const left = await svc.call<AccountSession[]>('GET', '/stream/0/users/me/sessions', { token: alice.token })
  t.same(
    left.body.data.map((s) => s.current),
    [true],
  )
  t.ok(events.some((e) => e.name === 'user.signed_out_elsewhere'))
})

t.test('the session calls need update_profile', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice', { scopes: ['basic', 'stream'] })
  t.equal((await svc.call('GET', '/stream/0/users/me/sessions', { token: alice.token })).status, 403)
  t.equal((await svc.call('DELETE', '/stream/0/users/me/sessions', { token: alice.token })).status, 403)
  t.equal((await svc.call('DELETE', '/stream/0/users/me', { token: alice.token, payload: { password: 'correct horse' } })).status, 403)
})

t.test('alice deletes her account with her password: it is gone as the operator would leave it', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const post = await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: 'so long' } })
  const postId = post.body.data.id as string

  const wrong = await svc.call('DELETE', '/stream/0/users/me', { token: alice.token, payload: { password: 'wrong horse' } })
  t.equal(wrong.status, 400)
  t.match(wrong.body.meta, { error_slug: 'wrong-password' })
  t.equal((await me(svc, alice.token)).status, 200, 'a wrong password deletes nothing')
  const missing = await svc.call('DELETE', '/stream/0/users/me', { token: alice.token })
  t.equal(missing.status, 400, 'no password, no deletion')

  const gone = await svc.call<DeletedAccount>('DELETE', '/stream/0/users/me', { token: alice.token, payload: { password: 'correct horse' } })
  t.equal(gone.status, 200)
  t.match(gone.body.data, { id: alice.user.id.toString(), deleted_at: String })
  t.equal((await me(svc, alice.token)).status, 401, 'her token ended')
  t.equal((await svc.call('GET', '/stream/0/users/@alice', { token: bob.token })).status, 404, 'no one finds her by name')
  t.not((await svc.call('GET', `/stream/0/posts/${postId}`, { token: bob.token })).body.data?.text, 'so long', 'her post is gone')
  const row = await svc.domain.users.accounts.byUsername('alice')
  t.equal(row, null, 'the username is free again')
})

t.test('with two-factor sign-in on, deleting the account needs a current code too', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const setup = await svc.call<{ secret: string }>('POST', '/stream/0/users/me/two_factor/setup', { token: alice.token })
  const { secret } = setup.body.data
  const on = await svc.call('POST', '/stream/0/users/me/two_factor/confirm', { token: alice.token, payload: { code: await generate({ secret }) } })
  t.equal(on.status, 200)

  const noCode = await svc.call('DELETE', '/stream/0/users/me', { token: alice.token, payload: { password: 'correct horse' } })
  t.equal(noCode.status, 400)
  t.match(noCode.body.meta.error_message, /code/)
  // The confirmation spent the current step: the next one's code is the one still good (within the clock tolerance).
  const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 })
  const wrongCode = await svc.call('DELETE', '/stream/0/users/me', {
    token: alice.token,
    payload: { password: 'correct horse', code: next === '000000' ? '111111' : '000000' },
  })
  t.equal(wrongCode.status, 400)
  t.equal((await me(svc, alice.token)).status, 200, 'still there')

  const gone = await svc.call('DELETE', '/stream/0/users/me', { token: alice.token, payload: { password: 'correct horse', code: next } })
  t.equal(gone.status, 200, 'with the password and a current code')
  t.equal((await me(svc, alice.token)).status, 401)
})
