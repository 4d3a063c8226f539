import t from 'tap'
import type { DomainEvent } from '../../../data/index.js'
import { makeInstance } from '../../fixtures/instance.js'
import { makeClient, passwordGrant, postForm } from '../../fixtures/oauth.js'
import { keys } from '../../fixtures/shapes.js'

const TOKEN_KEYS = ['app', 'client_id', 'invite_link', 'limits', 'scopes', 'storage']
const ALL_SCOPES = 'basic stream write_post follow update_profile public_messages messages files export'

t.test('alice inspects her token: app, scopes, limits, storage, her user and an invite link', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice', { scopes: ['stream', 'write_post'] })
  const res = await svc.call('GET', '/stream/0/token', { token: alice.token })
  t.equal(res.status, 200)
  const token = res.body.data
  t.same(token.app, { client_id: svc.app.client_id, link: '', name: 'Test Client' })
  t.equal(token.client_id, svc.app.client_id)
  t.same(token.scopes, ['basic', 'stream', 'write_post'])
  t.same(token.limits, { following: 40000, max_file_size: 10_000_000, available_invites: 0 })
  t.same(token.storage, { available: 500_000_000, used: 0 })
  t.equal(token.user.username, 'alice')
  t.match(token.invite_link, /^http:\/\/.+\/signup$/)
  t.equal(res.headers['x-oauth-scopes'], 'basic,stream,write_post')
})

t.test('an app token inspects itself without a user', async (t) => {
  const svc = await makeInstance(t)
  const res = await svc.call('GET', '/token', { token: svc.appToken })
  t.equal(res.status, 200)
  t.same(res.body.data.scopes, [])
  t.notOk('user' in res.body.data)
})

t.test('GET /token without a token or with a bad one is a 401', async (t) => {
  const svc = await makeInstance(t)
  const none = await svc.call('GET', '/stream/0/token')
  t.equal(none.status, 401)
  t.match(none.body.meta.error_message, /no token was provided/)
  const bad = await svc.call('GET', '/stream/0/token', { token: 'made-up' })
  t.equal(bad.status, 401)
  t.equal(bad.body.meta.error_slug, 'invalid-token')
  const badQuery = await svc.call('GET', '/stream/0/token?include_html=maybe')
  t.equal(badQuery.status, 400, 'a flag that is not 0 or 1 is refused')
})

t.test('the token may come in the query string', async (t) => {
  const svc = await makeInstance(t)
  const bob = await svc.person('bob')
  const res = await svc.call('GET', `/stream/0/token?access_token=${bob.token}`)
  t.equal(res.body.data.user.username, 'bob')
})

t.test('a token in the body counts for POST but never for DELETE or GET', async (t) => {
  const svc = await makeInstance(t)
  const bob = await svc.person('bob')
  const robo = await svc.domain.auth.apps.create({ name: 'Robo', redirect_uris: [] })
  // The delegate grant reads the caller's user token: here it comes in the form body.
  const post = await svc.server.inject({
    method: 'POST',
    url: '/oauth/access_token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'delegate', delegate_client_id: robo.app.client_id, access_token: bob.token }).toString(),
  })
  t.equal(post.statusCode, 200)
  t.type(JSON.parse(post.payload).delegate_token, 'string')
  const del = await svc.call('DELETE', '/stream/0/token', { payload: { access_token: bob.token } })
  t.equal(del.status, 401)
  const get = await svc.server.inject({
    method: 'GET',
    url: '/stream/0/token',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ access_token: bob.token }),
  })
  t.equal(get.statusCode, 401)
  t.equal((await svc.call('GET', '/token', { token: bob.token })).status, 200, 'bob is still authorized')
})

t.test('alice deauthorizes her token: it answers the token object, then stops working', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const events: { name: string; user?: string }[] = []
  svc.domain.events.onAny((e) => events.push({ name: e.name, user: (e.payload as { user?: { username: string } }).user?.username }))
  const res = await svc.call('DELETE', '/stream/0/token', { token: alice.token })
  t.equal(res.status, 200)
  t.equal(res.body.data.user.username, 'alice')
  t.same(events, [{ name: 'token.deauthorized', user: 'alice' }])
  const after = await svc.call('GET', '/stream/0/token', { token: alice.token })
  t.equal(after.status, 401)
  t.equal(after.body.meta.error_slug, 'invalid-token')
})

t.test('an app deauthorizes its app token too', async (t) => {
  const svc = await makeInstance(t)
  const res = await svc.call('DELETE', '/token', { token: svc.appToken })
  t.equal(res.status, 200)
  t.notOk('user' in res.body.data)
  t.equal((await svc.call('GET', '/token', { token: svc.appToken })).status, 401)
})

t.test('POST /token is a 405 that says which methods work', async (t) => {
  const svc = await makeInstance(t)
  const res = await svc.call('POST', '/stream/0/token')
  t.equal(res.status, 405)
  t.equal(res.headers.allow, 'GET,DELETE')
})

t.test('tokenOf reads the header first, then the query, then a POST, PUT or PATCH body only', async (t) => {
  const { tokenOf } = await import('../../../server/auth.js')
  const request = (method: string, parts: { header?: string; query?: string; body?: string }) =>
    ({
      method,
      headers: parts.header ? { authorization: parts.header } : {},
      query: parts.query ? { access_token: parts.query } : {},
      payload: parts.body ? { access_token: parts.body } : null,
    }) as never
  t.equal(tokenOf(request('get', { header: 'Bearer h', query: 'q' })), 'h')
  t.equal(tokenOf(request('get', { header: 'Basic abc', query: 'q' })), 'q', 'Basic is not a bearer token')
  for (const method of ['post', 'put', 'patch']) t.equal(tokenOf(request(method, { body: 'b' })), 'b', `${method} body`)
  for (const method of ['get', 'delete']) t.equal(tokenOf(request(method, { body: 'b' })), undefined, `no ${method} body`)
})

t.test('the Token object: its fields always, the user for user tokens only, pagination_id in lists', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice', { scopes: ['stream'] })
  const user = (await svc.call('GET', '/stream/0/token', { token: alice.token })).body.data
  t.same(keys(user), [...TOKEN_KEYS, 'user'].sort())
  t.same(keys(user.app), ['client_id', 'link', 'name'])
  t.ok(
    Object.values(user.app).every((v) => typeof v === 'string'),
    'app fields are strings',
  )
  t.same(keys(user.limits), ['available_invites', 'following', 'max_file_size'])
  t.ok(Object.values(user.limits).every(Number.isInteger), 'limits are integers')
  t.ok(Object.values(user.storage).every(Number.isInteger), 'storage figures are integers')
  t.equal(user.user.id, String(alice.user.id))
  const app = (await svc.call('GET', '/stream/0/token', { token: svc.appToken })).body.data
  t.same(keys(app), TOKEN_KEYS, 'an app token has no user')
  const listed = (await svc.call('GET', '/stream/0/apps/me/tokens', { token: svc.appToken })).body.data
  t.same(keys(listed[0]), [...TOKEN_KEYS, 'pagination_id', 'user'].sort())
  t.match(listed[0].pagination_id, /^\d+$/)
  const deleted = (await svc.call('DELETE', '/stream/0/token', { token: alice.token })).body.data
  t.same(keys(deleted), [...TOKEN_KEYS, 'user'].sort(), 'DELETE /token answers the Token object')
  t.same(deleted.scopes, ['basic', 'stream'])
})

t.test("scopes: the nine names, the spec's post meaning write_post, basic always, unknown names dropped", async (t) => {
  const svc = await makeInstance(t)
  await svc.person('bob')
  const robo = await makeClient(svc)
  const grant = (scope: string) => passwordGrant(svc, robo, 'bob', scope)
  t.same((await grant(ALL_SCOPES)).body.token.scopes, ALL_SCOPES.split(' '))
  const poster = await grant('post,email')
  t.same(poster.body.token.scopes, ['basic', 'write_post'])
  const made = await svc.call('POST', '/stream/0/posts', { token: poster.body.access_token, payload: { text: 'posted with post' } })
  t.equal(made.status, 200)
  t.equal(made.headers['x-oauth-scopes'], 'basic,write_post')
  const follow = await svc.call('POST', '/stream/0/users/@bob/mute', { token: poster.body.access_token })
  t.equal(follow.status, 403, 'follow was not granted')
  t.equal(follow.body.meta.error_slug, 'insufficient-scope')
})

t.test('token kinds: Any takes an app token, App refuses a user token, none of them goes without one', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  t.equal((await svc.call('GET', `/stream/0/users?ids=${alice.user.id}`, { token: svc.appToken })).status, 200, 'GET /users is Any')
  for (const [method, url] of [
    ['DELETE', '/token'],
    ['GET', '/apps/me/tokens/user_ids'],
    ['GET', `/users?ids=${alice.user.id}`],
    ['PATCH', '/users/me'],
  ]) {
    const res = await svc.call(method, `/stream/0${url}`)
    t.equal(res.status, 401, `${method} ${url} without a token`)
    t.equal(res.body.meta.error_message, 'Call requires authentication: This resource requires authentication and no token was provided.')
  }
  const userOnApp = await svc.call('GET', '/stream/0/apps/me/tokens/user_ids', { token: alice.token })
  t.same([userOnApp.status, userOnApp.body.meta.error_slug], [403, 'wrong-token-kind'])
  t.equal((await svc.call('GET', `/stream/0/users/${alice.user.id}`, { token: svc.appToken })).status, 200, 'None still reads a token when sent')
})

t.test("limits: an app's token list pages 20 by default and caps count at 200", async (t) => {
  const svc = await makeInstance(t)
  for (let i = 0; i < 25; i++) {
    const user = await svc.domain.users.accounts.create({ username: `reader${i}` })
    await svc.domain.auth.tokens.issueUserToken(svc.app, user, ['stream'])
  }
  const first = await svc.call('GET', '/stream/0/apps/me/tokens', { token: svc.appToken })
  t.equal(first.body.data.length, 20)
  t.equal(first.body.meta.more, true)
  t.same(first.body.data.map((tk: { user: { username: string } }) => tk.user.username).slice(0, 2), ['reader24', 'reader23'], 'newest first')
  const rest = await svc.call('GET', `/stream/0/apps/me/tokens?before_id=${first.body.meta.min_id}`, { token: svc.appToken })
  t.same(
    rest.body.data.map((tk: { user: { username: string } }) => tk.user.username),
    ['reader4', 'reader3', 'reader2', 'reader1', 'reader0'],
  )
  t.equal(rest.body.meta.more, false)
  const capped = await svc.call('GET', '/stream/0/apps/me/tokens?count=201', { token: svc.appToken })
  t.equal(capped.status, 200, 'a count over 200 is capped, not refused')
  t.equal(capped.body.data.length, 25)
})

t.test('token events carry what the app stream shows: scopes, app and user; deauthorizing any token is one', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('bob')
  const robo = await makeClient(svc)
  const seen: { name: string; scopes: string[]; client_id: string; user?: string }[] = []
  svc.domain.events.onAny((e: DomainEvent) => {
    if (!e.name.startsWith('token.')) return
    const { token, app, user } = e.payload as DomainEvent<'token.authorized'>['payload']
    seen.push({ name: e.name, scopes: token.scopes, client_id: app.client_id, ...(user ? { user: user.username } : {}) })
  })
  const grant = (scope: string) => passwordGrant(svc, robo, 'bob', scope)
  const first = await grant('stream')
  await grant('stream')
  await grant('stream follow')
  await svc.call('DELETE', '/token', { token: first.body.access_token })
  const app = await postForm(svc, '/oauth/access_token', { grant_type: 'client_credentials', client_id: robo.client_id, client_secret: robo.client_secret })
  await svc.call('DELETE', '/token', { token: app.body.access_token })
  const id = robo.client_id
  t.same(seen, [
    { name: 'token.authorized', scopes: ['basic', 'stream'], client_id: id, user: 'bob' },
    { name: 'token.scopes_changed', scopes: ['basic', 'stream', 'follow'], client_id: id, user: 'bob' },
    { name: 'token.deauthorized', scopes: ['basic', 'stream'], client_id: id, user: 'bob' },
    { name: 'token.authorized', scopes: [], client_id: id },
    { name: 'token.deauthorized', scopes: [], client_id: id },
  ])
})
