import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'
import { waitUntil } from '../../fixtures/streams.js'

t.test('an app token creates, lists, reads, changes and deletes its app streams', async (t) => {
  const svc = await makeInstance(t)
  const made = await svc.call('POST', '/stream/0/streams', { token: svc.appToken, payload: { object_types: ['post', 'star'], type: 'long_poll', key: 'main' } })
  t.equal(made.status, 200)
  const stream = made.body.data
  t.match(stream, { id: /^\d+$/, object_types: ['post', 'star'], type: 'long_poll', key: 'main' })
  t.match(stream.endpoint, /^http:\/\/[^/]+\/channel\/1\/\d+-[A-Za-z0-9_-]{43}$/, 'the endpoint is a full URL with its secret')
  t.notOk('filter' in stream, 'no filter, no filter key')

  const listed = await svc.call('GET', '/stream/0/streams', { token: svc.appToken })
  t.same(listed.body.data, [stream])
  t.same((await svc.call('GET', '/stream/0/streams?key=main', { token: svc.appToken })).body.data, [stream], '?key= finds it')
  t.same((await svc.call('GET', '/stream/0/streams?key=other', { token: svc.appToken })).body.data, [], 'another key finds nothing')
  t.same((await svc.call('GET', `/stream/0/streams/${stream.id}`, { token: svc.appToken })).body.data, stream)

  const changed = await svc.call('PUT', `/stream/0/streams/${stream.id}`, {
    token: svc.appToken,
    payload: { ...stream, object_types: ['message'], key: 'renamed' },
  })
  t.equal(changed.status, 200)
  t.match(changed.body.data, { id: stream.id, object_types: ['message'], key: 'renamed', endpoint: stream.endpoint })

  const deleted = await svc.call('DELETE', `/stream/0/streams/${stream.id}`, { token: svc.appToken })
  t.equal(deleted.status, 200)
  t.equal(deleted.body.data.id, stream.id, 'the deleted stream is answered')
  t.equal((await svc.call('GET', `/stream/0/streams/${stream.id}`, { token: svc.appToken })).status, 404)
})

t.test('DELETE /streams deletes every stream of the token and answers them', async (t) => {
  const svc = await makeInstance(t)
  for (const key of ['a', 'b'])
    await svc.call('POST', '/stream/0/streams', { token: svc.appToken, payload: { object_types: ['post'], type: 'long_poll', key } })
  const res = await svc.call('DELETE', '/stream/0/streams', { token: svc.appToken })
  t.same(
    res.body.data.map((s: { key: string }) => s.key),
    ['a', 'b'],
  )
  t.same((await svc.call('GET', '/stream/0/streams', { token: svc.appToken })).body.data, [])
})

t.test('an app token holds at most five app streams', async (t) => {
  const svc = await makeInstance(t)
  for (let i = 0; i < 5; i++)
    t.equal((await svc.call('POST', '/stream/0/streams', { token: svc.appToken, payload: { object_types: ['post'], type: 'long_poll' } })).status, 200)
  const sixth = await svc.call('POST', '/stream/0/streams', { token: svc.appToken, payload: { object_types: ['post'], type: 'long_poll' } })
  t.equal(sixth.status, 429)
  t.match(sixth.body.meta.error_message, /at most 5 app streams/)
})

t.test('app streams refuse user tokens and bad input with clear errors', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const body = { object_types: ['post'], type: 'long_poll' }
  t.equal((await svc.call('POST', '/stream/0/streams', { token: alice.token, payload: body })).status, 403)
  t.equal((await svc.call('GET', '/stream/0/streams', { token: alice.token })).status, 403)
  t.equal((await svc.call('GET', '/stream/0/streams')).status, 401)
  const cases: [unknown, RegExp][] = [
    [{ type: 'long_poll' }, /object_types/],
    [{ object_types: [], type: 'long_poll' }, /object_types/],
    [{ object_types: ['posts'], type: 'long_poll' }, /unknown object_types posts/],
    [{ object_types: ['post'], type: 'websocket' }, /type/],
    [{ object_types: ['post'], type: 'long_poll', key: 'k'.repeat(101) }, /key/],
    [{ object_types: ['post'], type: 'long_poll', filter_id: 'abc' }, /filter_id/],
  ]
  for (const [payload, message] of cases) {
    const res = await svc.call('POST', '/stream/0/streams', { token: svc.appToken, payload })
    t.equal(res.status, 400, JSON.stringify(payload))
    t.match(res.body.meta.error_message, message)
  }
  const missing = await svc.call('POST', '/stream/0/streams', { token: svc.appToken, payload: { ...body, filter_id: '999' } })
  t.equal(missing.status, 404)
  t.match(missing.body.meta.error_message, /filter 999 not found/)
})

t.test('keys are unique among the streams of one token', async (t) => {
  const svc = await makeInstance(t)
  const body = { object_types: ['post'], type: 'long_poll', key: 'push' }
  t.equal((await svc.call('POST', '/stream/0/streams', { token: svc.appToken, payload: body })).status, 200)
  const again = await svc.call('POST', '/stream/0/streams', { token: svc.appToken, payload: body })
  t.equal(again.status, 400)
  t.match(again.body.meta.error_message, /key "push"/)
})

t.test("another app's streams are out of reach", async (t) => {
  const svc = await makeInstance(t)
  const { app } = await svc.domain.auth.apps.create({ name: 'Other', redirect_uris: ['http://other.example/cb'] })
  const { access_token: other } = await svc.domain.auth.tokens.issueAppToken(app)
  const made = await svc.call('POST', '/stream/0/streams', { token: svc.appToken, payload: { object_types: ['post'], type: 'long_poll' } })
  const id = made.body.data.id
  t.equal((await svc.call('GET', `/stream/0/streams/${id}`, { token: other })).status, 404)
  t.equal((await svc.call('PUT', `/stream/0/streams/${id}`, { token: other, payload: { object_types: ['star'] } })).status, 404)
  t.equal((await svc.call('DELETE', `/stream/0/streams/${id}`, { token: other })).status, 404)
  t.same((await svc.call('GET', '/stream/0/streams', { token: other })).body.data, [])
})

t.test('a stream embeds its filter: named by filter_id or given inline', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const filterBody = {
    name: 'hello',
    match_policy: 'include_any',
    clauses: [{ object_type: 'post', operator: 'matches', field: '/data/text', value: 'hello' }],
  }
  const filter = (await svc.call('POST', '/stream/0/filters', { token: alice.token, payload: filterBody })).body.data
  const named = await svc.call('POST', '/stream/0/streams', {
    token: svc.appToken,
    payload: { object_types: ['post'], type: 'long_poll', filter_id: filter.id },
  })
  t.equal(named.status, 200)
  t.same(named.body.data.filter, filter, 'the full filter object')

  const inline = await svc.call('POST', '/stream/0/streams', {
    token: svc.appToken,
    payload: { object_types: ['post'], type: 'long_poll', filter: filterBody },
  })
  t.equal(inline.status, 200)
  t.match(inline.body.data.filter, { id: /^\d+$/, match_policy: 'include_any', clauses: filterBody.clauses })
  t.not(inline.body.data.filter.id, filter.id, 'an inline filter is a filter of its own')
  t.same((await svc.call('GET', '/stream/0/filters', { token: alice.token })).body.data, [filter], "an inline filter is in no user's list")

  const cleared = await svc.call('PUT', `/stream/0/streams/${named.body.data.id}`, { token: svc.appToken, payload: { filter_id: null } })
  t.notOk('filter' in cleared.body.data, 'filter_id null removes the filter')
})

t.test('a filter of a user who never authorized the app cannot be used', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const filter = (
    await svc.call('POST', '/stream/0/filters', {
      token: alice.token,
      payload: { match_policy: 'include_any', clauses: [{ object_type: 'post', operator: 'equals', field: '/data/user/id', value: '1' }] },
    })
  ).body.data
  const { app } = await svc.domain.auth.apps.create({ name: 'Other', redirect_uris: ['http://other.example/cb'] })
  const { access_token: other } = await svc.domain.auth.tokens.issueAppToken(app)
  const res = await svc.call('POST', '/stream/0/streams', { token: other, payload: { object_types: ['post'], type: 'long_poll', filter_id: filter.id } })
  t.equal(res.status, 404)
})

t.test('a form-encoded create with nested keys works like the JSON one', async (t) => {
  const svc = await makeInstance(t)
  const form = 'object_types%5B0%5D=post&object_types%5B1%5D=star&type=long_poll&key=php'
  const res = await svc.call('POST', '/stream/0/streams', {
    token: svc.appToken,
    payload: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  t.equal(res.status, 200)
  t.match(res.body.data, { object_types: ['post', 'star'], key: 'php' })
  const commas = await svc.call('POST', '/stream/0/streams', {
    token: svc.appToken,
    payload: 'object_types=post,user_follow&type=long_poll',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  t.match(commas.body.data, { object_types: ['post', 'user_follow'] })
})

t.test('an app token deauthorized takes its app streams with it', async (t) => {
  const svc = await makeInstance(t)
  const { app } = await svc.domain.auth.apps.create({ name: 'Short lived', redirect_uris: ['http://short.example/cb'] })
  const { access_token } = await svc.domain.auth.tokens.issueAppToken(app)
  const { access_token: kept } = await svc.domain.auth.tokens.issueAppToken(app)
  await svc.call('POST', '/stream/0/streams', { token: access_token, payload: { object_types: ['post'], type: 'long_poll', key: 'gone' } })
  await svc.call('POST', '/stream/0/streams', { token: kept, payload: { object_types: ['post'], type: 'long_poll', key: 'kept' } })
  t.equal((await svc.call('DELETE', '/stream/0/token', { token: access_token })).status, 200)
  await waitUntil(async () => (await svc.domain.streams.apps.all()).length < 2, 'the revoked token’s stream to go')
  const left = (await svc.domain.streams.apps.all()).map((s) => s.key)
  t.same(left, ['kept'], "only the revoked token's stream went")
})

t.test('a stream sent back as it was received keeps its filter, inline or named', async (t) => {
  const svc = await makeInstance(t)
  const filterBody = { match_policy: 'include_any', clauses: [{ object_type: 'post', operator: 'matches', field: '/data/text', value: 'hi' }] }
  const made = (
    await svc.call('POST', '/stream/0/streams', { token: svc.appToken, payload: { object_types: ['post'], type: 'long_poll', filter: filterBody } })
  ).body.data
  const put = await svc.call('PUT', `/stream/0/streams/${made.id}`, { token: svc.appToken, payload: { ...made, object_types: ['post', 'star'] } })
  t.equal(put.status, 200)
  t.same(put.body.data.filter, made.filter, 'the same filter, not a copy')
  t.same(put.body.data.object_types, ['post', 'star'])
  const other = (await svc.call('POST', '/stream/0/streams', { token: svc.appToken, payload: { object_types: ['post'], type: 'long_poll' } })).body.data
  const named = await svc.call('PUT', `/stream/0/streams/${other.id}`, { token: svc.appToken, payload: { filter: made.filter } })
  t.equal(named.body.data.filter.id, made.filter.id, "an embedded filter of the app's names it")
  await svc.call('DELETE', `/stream/0/streams/${made.id}`, { token: svc.appToken })
  t.ok(await svc.domain.filters.byId(Number(made.filter.id)), 'an inline filter another stream uses stays')
  await svc.call('DELETE', `/stream/0/streams/${other.id}`, { token: svc.appToken })
  const again = (
    await svc.call('POST', '/stream/0/streams', { token: svc.appToken, payload: { object_types: ['post'], type: 'long_poll', filter: filterBody } })
  ).body.data
  await svc.call('DELETE', `/stream/0/streams/${again.id}`, { token: svc.appToken })
  t.equal(await svc.domain.filters.byId(Number(again.filter.id)), null, 'an inline filter goes with its stream')
})
