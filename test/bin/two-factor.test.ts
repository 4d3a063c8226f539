/**
 * Alice lost her phone and her recovery codes: the operator runs
 * `svc user reset-2fa alice`, which turns her two-factor sign-in off and
 * signs her out everywhere, on the data dir itself and through a running
 * server's admin socket.
 */
import t from 'tap'
import { generate } from 'otplib'
import { openDomain } from '../../data/index.js'
import { initDir, serve, svcJson, svcProcess } from '../fixtures/svc-process.js'
import '../fixtures/child-env.js'

t.test('on the data dir, reset-2fa turns alice’s second factor off and revokes her tokens', async (t) => {
  const dir = await initDir(t)
  const d = ['--data-dir', dir]
  const domain = await openDomain(dir)
  try {
    const alice = await domain.users.accounts.create({ username: 'alice', password: 'correct horse' })
    const { app } = await domain.auth.apps.create({ name: 'Robo' })
    const { token } = await domain.auth.tokens.issueUserToken(app, alice, ['basic'])
    const { secret } = await domain.auth.twoFactor.begin({ user: alice, token })
    await domain.auth.twoFactor.confirm({ user: alice, token }, await generate({ secret }), { tokenId: token.id })
    t.ok(await domain.auth.twoFactor.isOn(alice.id))
  } finally {
    await domain.close()
  }

  const reset = await svcProcess(['user', 'reset-2fa', 'alice', '--json', ...d])
  t.equal(reset.code, 0, reset.stderr)
  t.match(JSON.parse(reset.stdout), { username: 'alice', id: /^\d+$/ })
  const after = await openDomain(dir)
  try {
    const alice = await after.users.accounts.byUsername('alice')
    t.notOk(await after.auth.twoFactor.isOn(alice!.id), 'her second factor is off')
    t.equal((await after.auth.tokens.list()).filter((i) => i.user?.id === alice!.id).length, 0, 'her tokens are revoked')
  } finally {
    await after.close()
  }

  const again = await svcProcess(['user', 'reset-2fa', 'alice', ...d])
  t.equal(again.code, 0, 'resetting an account without it is no error')
  t.match(again.stdout, /^two-factor sign-in is off for @alice/)
  const unknown = await svcProcess(['user', 'reset-2fa', 'nobody', ...d])
  t.not(unknown.code, 0)
  t.equal(unknown.stderr, 'svc: no user nobody\n')
})

t.test('through the running server, reset-2fa ends alice’s token at once and her password alone signs in again', async (t) => {
  const dir = await initDir(t)
  const d = ['--data-dir', dir]
  const server = await serve(dir)
  t.teardown(() => server.stop())
  const app = await svcJson(['app', 'create', '--name', 'Robo', ...d])
  await svcJson(['user', 'create', '--username', 'alice', '--password', 'correct horse', ...d])
  const { access_token } = await svcJson(['token', 'create', '--username', 'alice', '--client-id', app.client_id, ...d])
  const api = (path: string, body?: object) =>
    fetch(`${server.url}/stream/0${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${access_token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
  const { data } = (await (await api('/users/me/two_factor/setup', {})).json()) as { data: { secret: string } }
  t.equal((await api('/users/me/two_factor/confirm', { code: await generate({ secret: data.secret }) })).status, 200)
  const grant = () =>
    fetch(`${server.url}/oauth/access_token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: app.client_id,
        client_secret: app.client_secret,
        username: 'alice',
        password: 'correct horse',
      }),
    })
  t.equal((await grant()).status, 400, 'with two-factor sign-in on, her password alone is refused at the grant')

  const reset = await svcJson(['user', 'reset-2fa', 'alice', ...d])
  t.match(reset, { username: 'alice' })
  t.equal((await api('/users/me/two_factor')).status, 401, 'the server refuses her token')
  t.equal((await grant()).status, 200, 'her password signs in again')
})
