import t from 'tap'
import { listeningInstance, openChunked, openWebSocket, userConsumerConnected, waitUntil, type StreamClient } from '../../fixtures/streams.js'

t.test('bob reconnects with his connection id and gets what he missed, once, then the live events', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  await svc.call('POST', '/stream/0/users/@alice/follow', { token: bob.token })
  const first = await openWebSocket(base, bob.token)
  await svc.call('GET', `/stream/0/posts/stream?connection_id=${first.connectionId}&subscription_id=home`, { token: bob.token })
  await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: 'one' } })
  t.equal((await first.next()).data[0].text, 'one')
  t.ok(userConsumerConnected(svc, first.connectionId), 'the server counts the consumer while it is connected')
  first.close()
  await first.closed
  await waitUntil(() => !userConsumerConnected(svc, first.connectionId), 'the server to see the consumer leave')
  for (const text of ['two', 'three']) await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text } })
  const again = await openWebSocket(base, bob.token, `connection_id=${first.connectionId}`)
  t.equal(again.connectionId, first.connectionId, 'resumed: the same id')
  t.same([(await again.next()).data[0].text, (await again.next()).data[0].text], ['two', 'three'], 'the missed events, in order')
  await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: 'four' } })
  t.equal((await again.next()).data[0].text, 'four')
  t.same(await again.quiet(), [], 'nothing twice')
  again.close()

  const stranger = await openWebSocket(base, bob.token, 'connection_id=never-seen-before')
  t.not(stranger.connectionId, 'never-seen-before', 'an unknown id gets a new one')
  stranger.close()
  const alices = await openWebSocket(base, alice.token, `connection_id=${first.connectionId}`)
  t.not(alices.connectionId, first.connectionId, "another token cannot take bob's stream")
  alices.close()
})

t.test('a second consumer of a connection id disconnects the first', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const [alice] = await svc.people('alice')
  const first = await openWebSocket(base, alice.token)
  const second = await openChunked(base, alice.token, `connection_id=${first.connectionId}`)
  t.equal(second.connectionId, first.connectionId)
  const closed = await first.closed
  t.equal(closed.code, 4000)
  t.match(closed.reason, /another consumer/)
  second.close()
})

t.test('auto_delete=1 deletes the stream at disconnect', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const [alice] = await svc.people('alice')
  const first = await openWebSocket(base, alice.token, 'auto_delete=1')
  first.close()
  await first.closed
  await waitUntil(() => !userConsumerConnected(svc, first.connectionId), 'the server to see the consumer leave')
  const again = await openWebSocket(base, alice.token, `connection_id=${first.connectionId}`)
  t.not(again.connectionId, first.connectionId)
  again.close()
})

t.test('deleting a subscription stops its events; deleting the stream closes it', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const stream = await openWebSocket(base, alice.token)
  await svc.call('GET', `/stream/0/users/me/mentions?connection_id=${stream.connectionId}&subscription_id=m`, { token: alice.token })
  const gone = await svc.call('DELETE', `/stream/0/users/me/streams/${stream.connectionId}/m`, { token: alice.token })
  t.equal(gone.status, 204)
  t.equal(gone.body, '')
  await svc.call('POST', '/stream/0/posts', { token: bob.token, payload: { text: '@alice hello?' } })
  t.same(await stream.quiet(), [])
  t.equal((await svc.call('DELETE', `/stream/0/users/me/streams/${stream.connectionId}/m`, { token: alice.token })).status, 404)
  t.equal((await svc.call('DELETE', `/stream/0/users/me/streams/${stream.connectionId}`, { token: bob.token })).status, 404, "bob cannot delete alice's stream")
  t.equal((await svc.call('DELETE', `/stream/0/users/me/streams/${stream.connectionId}`, { token: alice.token })).status, 204)
  t.match((await stream.closed).reason, /deleted/)
})

t.test('limits: five connected streams per token, fifty subscriptions per stream', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const [alice] = await svc.people('alice')
  const open: StreamClient[] = []
  for (let i = 0; i < 5; i++) open.push(await openWebSocket(base, alice.token))
  const refused = await openWebSocket(base, alice.token).catch((err) => err)
  t.equal(refused.status, 429)
  t.match(refused.body.meta.error_message, /at most 5 user streams/)
  open[4].close()
  await open[4].closed
  await waitUntil(() => !userConsumerConnected(svc, open[4].connectionId), 'the server to see the consumer leave')
  const sixth = await openWebSocket(base, alice.token)
  t.ok(sixth.connectionId, 'a closed stream makes room for a new one')
  for (let i = 0; i < 50; i++) {
    const res = await svc.call('GET', `/stream/0/token?connection_id=${sixth.connectionId}&subscription_id=s${i}`, { token: alice.token })
    t.equal(res.body.meta.subscription_ids?.[0], `s${i}`)
  }
  const over = await svc.call('GET', `/stream/0/token?connection_id=${sixth.connectionId}&subscription_id=s50`, { token: alice.token })
  t.equal(over.status, 400)
  t.match(over.body.meta.error_message, /at most 50 subscriptions/)
  const same = await svc.call('GET', `/stream/0/token?connection_id=${sixth.connectionId}&subscription_id=s7`, { token: alice.token })
  t.same(same.body.meta.subscription_ids, ['s7'], 'the same id overwrites, within the limit')
  for (const s of [...open.slice(0, 4), sixth]) s.close()
})

t.test('a revoked token closes its streams at once', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const [alice] = await svc.people('alice')
  const stream = await openWebSocket(base, alice.token)
  await svc.call('DELETE', '/stream/0/token', { token: alice.token })
  t.match((await stream.closed).reason, /revoked/)
})
