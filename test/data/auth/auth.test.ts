import t from 'tap'
import { createHash } from 'node:crypto'
import { parseScopes } from '../../../data/index.js'
import { HERE, makeDomainInstance } from '../../fixtures/instance.js'

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')

t.test('parseScopes takes spaces or commas, drops unknown scopes, maps post and always adds basic', async (t) => {
  t.same(parseScopes('stream write_post'), ['basic', 'stream', 'write_post'])
  t.same(parseScopes('follow,messages, email'), ['basic', 'follow', 'messages'])
  t.same(parseScopes('post'), ['basic', 'write_post'])
  t.same(parseScopes(undefined), ['basic'])
  t.same(parseScopes(['files', 'nonsense']), ['basic', 'files'])
})

t.test('tokens and app secrets are kept only as hashes', async (t) => {
  const svc = await makeDomainInstance(t)
  const { app, client_secret, password_grant_secret } = await svc.domain.auth.apps.create({ name: 'Robo' })
  const alice = await svc.domain.users.accounts.create({ username: 'alice', password: 'correct horse' })
  const { access_token, token } = await svc.domain.auth.tokens.issueUserToken(app, alice, ['stream'])
  t.ok(access_token.length >= 40, 'long enough to be unguessable')
  t.equal(token.hash, sha256(access_token))
  const stored = JSON.stringify([await svc.store.read.tokens.get(token.id), await svc.store.read.apps.get(app.id), await svc.store.read.users.get(alice.id)])
  for (const secret of [access_token, client_secret, password_grant_secret, 'correct horse']) t.notOk(stored.includes(secret), 'no secret in clear')
  t.match(alice.password_hash, /^scrypt\$/)
  const second = await svc.domain.auth.tokens.issueUserToken(app, alice, ['stream'])
  t.not(second.access_token, access_token, 'every token is fresh')
})

t.test('apps.verify tells nothing about which part was wrong', async (t) => {
  const svc = await makeDomainInstance(t)
  const { app, client_secret, password_grant_secret } = await svc.domain.auth.apps.create({ name: 'Robo', redirect_uris: ['https://robo.example/cb'] })
  t.equal((await svc.domain.auth.apps.verify(app.client_id, client_secret, HERE)).id, app.id)
  await t.rejects(
    svc.domain.auth.apps.verify(app.client_id, password_grant_secret, HERE),
    { code: 'unauthenticated', slug: 'invalid-client' },
    'the password-grant secret is for the password grant only',
  )
  t.equal((await svc.domain.auth.apps.verify(app.client_id, password_grant_secret, HERE, { passwordGrant: true })).id, app.id)
  const unknown = await svc.domain.auth.apps.verify('nobody', client_secret, HERE).catch((e: Error) => e.message)
  const wrong = await svc.domain.auth.apps.verify(app.client_id, 'nope', HERE).catch((e: Error) => e.message)
  t.equal(unknown, wrong)
  t.ok(svc.domain.auth.apps.redirectAllowed(app, 'https://robo.example/cb'))
  t.notOk(svc.domain.auth.apps.redirectAllowed(app, 'https://robo.example/cb/'))
})

t.test('redirect URIs are absolute, without fragment, and lead to an app', async (t) => {
  const svc = await makeDomainInstance(t)
  await t.rejects(svc.domain.auth.apps.create({ name: 'Bad', redirect_uris: ['/relative'] }), { code: 'invalid' })
  await t.rejects(svc.domain.auth.apps.create({ name: 'Bad', redirect_uris: ['https://robo.example/cb#frag'] }), { code: 'invalid' })
  await t.rejects(svc.domain.auth.apps.create({ name: 'Bad', redirect_uris: ['javascript:alert(1)'] }), { code: 'invalid' })
  const native = await svc.domain.auth.apps.create({ name: 'Native', redirect_uris: ['robo-app://oauth'] })
  t.same(native.app.redirect_uris, ['robo-app://oauth'])
})

t.test('prepare checks the client, the redirect URI and the response type', async (t) => {
  const svc = await makeDomainInstance(t)
  const { app } = await svc.domain.auth.apps.create({ name: 'Robo', redirect_uris: ['https://robo.example/cb'] })
  const two = await svc.domain.auth.apps.create({ name: 'Two', redirect_uris: ['https://a.example/cb', 'https://b.example/cb'] })
  const oauth = svc.domain.auth.oauth
  const ok = await oauth.prepare({ client_id: app.client_id, response_type: 'code', scope: 'stream' })
  t.equal(ok.redirect_uri, 'https://robo.example/cb', 'the only registered URI is the default')
  await t.rejects(oauth.prepare({ client_id: two.app.client_id, response_type: 'code' }), { name: 'DomainError', slug: 'redirect-uri-required' })
  await t.rejects(oauth.prepare({ client_id: app.client_id, response_type: 'code', redirect_uri: 'https://evil.example/cb' }), {
    code: 'invalid',
    slug: 'invalid-redirect-uri',
  })
  await t.rejects(oauth.prepare({ client_id: 'nobody', response_type: 'code' }), { name: 'DomainError', slug: 'invalid-client' })
  await t.rejects(oauth.prepare({ client_id: app.client_id, response_type: 'id_token' }), { name: 'DomainError', slug: 'unsupported-response-type' })
})

t.test('two exchanges of one code race: exactly one wins', async (t) => {
  const svc = await makeDomainInstance(t)
  const { app, client_secret } = await svc.domain.auth.apps.create({ name: 'Robo', redirect_uris: ['https://robo.example/cb'] })
  const alice = await svc.domain.users.accounts.create({ username: 'alice', password: 'correct horse' })
  const authorization = await svc.domain.auth.oauth.prepare({ client_id: app.client_id, response_type: 'code', scope: 'stream' })
  const code = new URL(await svc.domain.auth.oauth.approve(alice, authorization)).searchParams.get('code') ?? ''
  const input = { grant_type: 'authorization_code', client_id: app.client_id, client_secret, redirect_uri: 'https://robo.example/cb', code }
  const results = await Promise.allSettled([svc.domain.auth.oauth.grant(input, {}, HERE), svc.domain.auth.oauth.grant(input, {}, HERE)])
  t.equal(results.filter((r) => r.status === 'fulfilled').length, 1)
  const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
  t.equal(failed.reason.slug, 'code-used')
  t.equal(await svc.store.read.tokens.count('app', app.id), 1)
})

t.test('an expired code cannot be exchanged', async (t) => {
  const svc = await makeDomainInstance(t)
  const { app, client_secret } = await svc.domain.auth.apps.create({ name: 'Robo', redirect_uris: ['https://robo.example/cb'] })
  const alice = await svc.domain.users.accounts.create({ username: 'alice', password: 'correct horse' })
  const authorization = await svc.domain.auth.oauth.prepare({ client_id: app.client_id, response_type: 'code' })
  const code = new URL(await svc.domain.auth.oauth.approve(alice, authorization)).searchParams.get('code') ?? ''
  const row = await svc.store.read.auth_codes.one('hash', sha256(code))
  t.ok(row, 'the code is stored under its hash')
  if (!row) return
  t.notOk(JSON.stringify(row).includes(code))
  await svc.store.transact((tx) => tx.auth_codes.put({ ...row, expires_at: '2000-01-01T00:00:00Z' }))
  const input = { grant_type: 'authorization_code', client_id: app.client_id, client_secret, redirect_uri: 'https://robo.example/cb', code }
  await t.rejects(svc.domain.auth.oauth.grant(input, {}, HERE), { name: 'DomainError', slug: 'token-expired' })
})

t.test('token events come after the commit, so a listener can read what they announce', async (t) => {
  const svc = await makeDomainInstance(t)
  const { app } = await svc.domain.auth.apps.create({ name: 'Robo' })
  const alice = await svc.domain.users.accounts.create({ username: 'alice', password: 'correct horse' })
  const seen: (string | null)[] = []
  svc.domain.events.on('token.authorized', (e) => {
    void svc.store.read.tokens.get(e.payload.token.id).then((row) => seen.push(row ? 'stored' : null))
  })
  const { token } = await svc.domain.auth.tokens.issueUserToken(app, alice, ['stream'])
  await svc.store.read.tokens.get(token.id)
  t.same(seen, ['stored'])
})

t.test('the domain refuses sign-up when open registration is off', async (t) => {
  const svc = await makeDomainInstance(t, { open_registration: false })
  await t.rejects(svc.domain.auth.oauth.signUp({ username: 'erin', password: 'long enough' }), { code: 'forbidden' })
  t.equal(await svc.domain.users.accounts.byUsername('erin'), null)
})

t.test('app token lists refuse user tokens in the domain too', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const viewer = await svc.domain.auth.tokens.authenticate(alice.token)
  await t.rejects(svc.domain.auth.tokens.userIdsForApp(viewer), { code: 'forbidden' })
  await t.rejects(svc.domain.auth.tokens.listForApp(viewer, { count: 20 }), { code: 'forbidden' })
})

t.test('a delegate token expires and belongs to one client', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const robo = await svc.domain.auth.apps.create({ name: 'Robo' })
  const viewer = await svc.domain.auth.tokens.authenticate(alice.token)
  const { delegate_token } = await svc.domain.auth.delegation.mint(viewer, robo.app.client_id)
  const credentials = { client_id: robo.app.client_id, client_secret: robo.client_secret, delegate_token }
  t.equal((await svc.domain.auth.delegation.verify(credentials, HERE)).user?.username, 'alice')
  const row = await svc.store.read.delegate_tokens.one('hash', sha256(delegate_token))
  if (!row) return t.fail('the delegate token is stored under its hash')
  await svc.store.transact((tx) => tx.delegate_tokens.put({ ...row, expires_at: '2000-01-01T00:00:00Z' }))
  await t.rejects(svc.domain.auth.delegation.verify(credentials, HERE), { code: 'unauthenticated' })
  // Minting again drops the expired one.
  await svc.domain.auth.delegation.mint(viewer, robo.app.client_id)
  t.equal(await svc.store.read.delegate_tokens.get(row.id), null)
})
