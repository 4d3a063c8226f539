import t, { type Test } from 'tap'
import { makeInstance } from '../../fixtures/instance.js'
import { openChunked, openWebSocket } from '../../fixtures/streams.js'

const listening = async (t: Test) => {
  const svc = await makeInstance(t)
  await svc.server.start()
  return { svc, base: `http://127.0.0.1:${svc.server.info.port}` }
}

t.test('alice subscribes her unified stream over a WebSocket and sees bob post', async (t) => {
  const { svc, base } = await listening(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  await svc.call('POST', '/stream/0/users/@bob/follow', { token: alice.token })
  const stream = await openWebSocket(base, alice.token)
  t.match(stream.connectionId, /^[\w-]{10,}$/)
  const sub = await svc.call('GET', `/stream/0/posts/stream/unified?connection_id=${stream.connectionId}&subscription_id=home`, { token: alice.token })
  t.same(sub.body.meta.subscription_ids, ['home'])
  const made = await svc.call('POST', '/stream/0/posts', { token: bob.token, payload: { text: 'hello alice' } })
  const frame = await stream.next()
  t.equal(frame.meta.type, 'post')
  t.same(frame.meta.subscription_ids, ['home'])
  t.equal(frame.meta.connection_id, stream.connectionId)
  t.equal(frame.meta.more, false)
  t.equal(frame.meta.min_id, made.body.data.id)
  t.equal(frame.data[0].text, 'hello alice')
  t.equal(frame.data[0].user.username, 'bob')
  stream.close()
})

t.test('the chunked flavour answers Connection-Id and one event per line', async (t) => {
  const { svc, base } = await listening(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const stream = await openChunked(base, alice.token)
  t.equal(stream.status, 200)
  t.match(stream.connectionId, /^[\w-]{10,}$/)
  const sub = await svc.call('GET', `/stream/0/users/me/mentions?connection_id=${stream.connectionId}`, { token: alice.token })
  t.equal(sub.body.meta.subscription_ids!.length, 1)
  await svc.call('POST', '/stream/0/posts', { token: bob.token, payload: { text: '@alice are you there?' } })
  const frame = await stream.next()
  t.equal(frame.meta.type, 'post')
  t.equal(frame.data[0].text, '@alice are you there?')
  stream.close()
})

t.test('a gzipped chunked stream still delivers each event at once', async (t) => {
  const { svc, base } = await listening(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const stream = await openChunked(base, alice.token, '', { gzip: true })
  t.equal(stream.encoding, 'gzip')
  await svc.call('GET', `/stream/0/users/me/mentions?connection_id=${stream.connectionId}`, { token: alice.token })
  await svc.call('POST', '/stream/0/posts', { token: bob.token, payload: { text: '@alice compressed' } })
  t.equal((await stream.next()).data[0].text, '@alice compressed')
  stream.close()
})

t.test('bad connect input is a 400 in the envelope, before any stream opens', async (t) => {
  const { svc } = await listening(t)
  const [alice] = await svc.people('alice')
  for (const query of ['connection_id=not%20an%20id', `connection_id=${'a'.repeat(65)}`, 'auto_delete=maybe', 'include_html=2', 'include_marker=yes']) {
    const res = await svc.call('GET', `/stream/user?${query}`, { token: alice.token })
    t.equal(res.status, 400, query)
    t.equal(res.body.meta.code, 400)
    t.match(res.body.meta.error_message, /^Bad Request: /)
  }
  t.equal((await svc.call('GET', '/stream/user', { token: svc.appToken })).status, 403, 'an app token')
  t.equal(svc.domain.streams.hub.connected, 0)
})

t.test('a bad token is refused at connect with the HTTP error', async (t) => {
  const { base } = await listening(t)
  await t.rejects(openWebSocket(base, 'nope'), { message: 'HTTP 401', status: 401 })
  await t.rejects(openWebSocket(base, null), { message: 'HTTP 401', status: 401 })
})
