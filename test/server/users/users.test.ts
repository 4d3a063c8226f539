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

t.test('GET /users takes ids the way client libraries send a list: repeated keys, commas, or both', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const [a, b, c] = [alice, bob, carol].map((p) => p.user.id)
  for (const query of [`ids=${a}&ids=${b}&ids=${c}`, `ids=${a},${b}&ids=${c}`, `ids=${a}&ids=999&ids=${b},${c}`]) {
    const res = await svc.call('GET', `/stream/0/users?${query}`, { token: alice.token })
    t.equal(res.status, 200, query)
    t.same(
      res.body.data.map((u: { username: string }) => u.username),
      ['alice', 'bob', 'carol'],
      query,
    )
  }
})

t.test('the 200 ids limit counts every repeat of the key, and says so as it does for commas', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const upTo = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)
  const commas = await svc.call('GET', `/users?ids=${upTo(1, 201).join(',')}`, { token: alice.token })
  t.equal(commas.status, 400, '201 comma separated ids')
  for (const query of [
    upTo(1, 201)
      .map((id) => `ids=${id}`)
      .join('&'),
    `ids=${upTo(1, 150).join(',')}&${upTo(151, 201)
      .map((id) => `ids=${id}`)
      .join('&')}`,
  ]) {
    const over = await svc.call('GET', `/users?${query}`, { token: alice.token })
    t.equal(over.status, 400, '201 ids over repeats')
    t.equal(over.body.meta.code, 400)
    t.equal(over.body.meta.error_message, commas.body.meta.error_message)
    t.equal(over.body.meta.error_message, 'Bad Request: at most 200 ids are allowed')
  }
  const atLimit = await svc.call(
    'GET',
    `/users?ids=${upTo(1, 150).join(',')}&${upTo(151, 200)
      .map((id) => `ids=${id}`)
      .join('&')}`,
    { token: alice.token },
  )
  t.equal(atLimit.status, 200, '200 ids over repeats')
  t.same(
    atLimit.body.data.map((u: { username: string }) => u.username),
    ['alice'],
  )
})

t.test('a repeated ids key with a bad value is refused like a bad comma separated one', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await svc.call('GET', `/users?ids=${alice.user.id}&ids=@bob`, { token: alice.token })
  t.equal(res.status, 400)
  t.equal(res.body.meta.error_message, 'Bad Request: ids must be a comma separated list of ids')
})
