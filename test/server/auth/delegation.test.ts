import t from 'tap'
import { makeInstance, type Instance } from '../../fixtures/instance.js'
import { basic, makeClient, postForm } from '../../fixtures/oauth.js'

/** Alice's client (the fixture's app) mints a delegate token for robo. */
async function setUp(t: Parameters<typeof makeInstance>[0]) {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice', { scopes: ['stream', 'messages'] })
  const robo = await makeClient(svc, 'Robo')
  const res = await postForm(svc, '/oauth/access_token', { grant_type: 'delegate', delegate_client_id: robo.client_id }, alice.auth)
  return { svc, alice, robo, res, delegate: res.body.delegate_token as string }
}

const verify = (svc: Instance, headers: Record<string, string>, query = '') =>
  svc.server.inject({ method: 'GET', url: `/stream/0/token${query}`, headers }).then((r) => ({ status: r.statusCode, body: JSON.parse(r.payload) }))

t.test('robo checks the delegate token alice’s client gave it, with Basic credentials and the header', async (t) => {
  const { svc, robo, res, delegate } = await setUp(t)
  t.equal(res.status, 200)
  t.same(Object.keys(res.body), ['delegate_token'], 'a plain JSON answer with the delegate token only')
  const check = await verify(svc, { ...basic(robo.client_id, robo.client_secret), 'identity-delegate-token': delegate })
  t.equal(check.status, 200)
  t.equal(check.body.meta.code, 200)
  t.equal(check.body.data.client_id, svc.app.client_id, 'the authorizing client, not robo')
  t.equal(check.body.data.app.name, 'Test Client')
  t.same(check.body.data.scopes, ['basic', 'stream', 'messages'])
  t.equal(check.body.data.user.username, 'alice')
})

t.test('robo may send the delegate token and its credentials in the query string', async (t) => {
  const { svc, robo, delegate } = await setUp(t)
  const query = `?${new URLSearchParams({ delegate_token: delegate, client_id: robo.client_id, client_secret: robo.client_secret })}`
  const check = await verify(svc, {}, query)
  t.equal(check.status, 200)
  t.equal(check.body.data.user.username, 'alice')
})

t.test('a delegate token is a 401 for any other client, even one with good credentials', async (t) => {
  const { svc, delegate } = await setUp(t)
  const carolApp = await makeClient(svc, 'Carol’s client')
  const check = await verify(svc, { ...basic(carolApp.client_id, carolApp.client_secret), 'identity-delegate-token': delegate })
  t.equal(check.status, 401)
  t.equal(check.body.meta.code, 401)
})

t.test('wrong client credentials, no credentials and a made-up delegate token are 401s', async (t) => {
  const { svc, robo, delegate } = await setUp(t)
  t.equal((await verify(svc, { ...basic(robo.client_id, 'wrong'), 'identity-delegate-token': delegate })).status, 401)
  t.equal((await verify(svc, { 'identity-delegate-token': delegate })).status, 401)
  t.equal((await verify(svc, { ...basic(robo.client_id, robo.client_secret), 'identity-delegate-token': 'made-up' })).status, 401)
})

t.test('when alice deauthorizes her token, the delegate tokens minted from it stop working', async (t) => {
  const { svc, alice, robo, delegate } = await setUp(t)
  await svc.call('DELETE', '/token', { token: alice.token })
  const check = await verify(svc, { ...basic(robo.client_id, robo.client_secret), 'identity-delegate-token': delegate })
  t.equal(check.status, 401)
})

t.test('the delegate grant needs alice’s user token and a known delegate client', async (t) => {
  const svc = await makeInstance(t)
  const robo = await makeClient(svc, 'Robo')
  const noToken = await postForm(svc, '/oauth/access_token', { grant_type: 'delegate', delegate_client_id: robo.client_id })
  t.equal(noToken.status, 401)
  const appToken = await postForm(
    svc,
    '/oauth/access_token',
    { grant_type: 'delegate', delegate_client_id: robo.client_id },
    { authorization: `Bearer ${svc.appToken}` },
  )
  t.equal(appToken.status, 403)
  t.equal(appToken.body.error_slug, 'wrong-token-kind')
  const alice = await svc.person('alice')
  const unknown = await postForm(svc, '/oauth/access_token', { grant_type: 'delegate', delegate_client_id: 'nobody' }, alice.auth)
  t.equal(unknown.status, 400)
  t.equal(unknown.body.error, 'invalid_request')
  const missing = await postForm(svc, '/oauth/access_token', { grant_type: 'delegate' }, alice.auth)
  t.equal(missing.status, 400)
  const badToken = await postForm(
    svc,
    '/oauth/access_token',
    { grant_type: 'delegate', delegate_client_id: robo.client_id },
    { authorization: 'Bearer made-up' },
  )
  t.equal(badToken.status, 401)
  t.equal(badToken.body.error, 'invalid_token', 'an OAuth error body, not the API envelope')
  t.notOk('meta' in badToken.body)
})
