import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'

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
  const robo = await svc.domain.apps.create({ name: 'Robo', redirect_uris: [] })
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
