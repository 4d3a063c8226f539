import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'

t.test('anyone can look alice up by id or @username', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  for (const ref of [String(alice.user.id), '@alice', '@ALICE']) {
    const res = await svc.call('GET', `/stream/0/users/${ref}`)
    t.equal(res.status, 200)
    t.equal(res.body.meta.code, 200)
    t.equal(res.body.data.username, 'alice')
    t.notOk('you_follow' in res.body.data, 'no relation flags without a token')
  }
})

t.test('an unknown user is a 404 in the envelope', async (t) => {
  const svc = await makeInstance(t)
  const res = await svc.call('GET', '/users/999')
  t.equal(res.status, 404)
  t.equal(res.body.meta.code, 404)
  t.type(res.body.meta.error_message, 'string')
  t.match(res.body.meta.error_id, /^[0-9a-f]{32}$/)
})

t.test('a malformed user id is a 400 that says Bad Request', async (t) => {
  const svc = await makeInstance(t)
  const res = await svc.call('GET', '/stream/0/users/al!ce')
  t.equal(res.status, 400)
  t.match(res.body.meta.error_message, /^Bad Request: /)
})

t.test('a wrong method is a 405 with Allow', async (t) => {
  const svc = await makeInstance(t)
  const res = await svc.call('DELETE', '/stream/0/users/1')
  t.equal(res.status, 405)
  t.equal(res.headers.allow, 'GET')
})

t.test('a bad token is a 401 with the invalid-token slug', async (t) => {
  const svc = await makeInstance(t)
  const res = await svc.call('GET', '/stream/0/users/1', { token: 'nope' })
  t.equal(res.status, 401)
  t.equal(res.body.meta.error_slug, 'invalid-token')
})

t.test('GET /users needs a token and answers the known ids only', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  t.equal((await svc.call('GET', `/users?ids=${alice.user.id}`)).status, 401)
  const res = await svc.call('GET', `/users?ids=${alice.user.id},999,${bob.user.id}`, { token: alice.token })
  t.same(
    res.body.data.map((u: { username: string }) => u.username),
    ['alice', 'bob'],
  )
  t.equal(res.headers['x-oauth-scopes'], 'basic,stream,write_post,follow,update_profile,public_messages,messages,files,export')
})
