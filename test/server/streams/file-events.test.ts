import t from 'tap'
import { listeningInstance, openWebSocket, readChunked } from '../../fixtures/streams.js'

t.test('a user stream subscribed to /users/me/files sees the user’s files made, completed and deleted, without tokens', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const stream = await openWebSocket(base, alice.token)
  t.teardown(() => stream.close())
  const res = await svc.call('GET', `/stream/0/users/me/files?connection_id=${stream.connectionId}&subscription_id=files`, { token: alice.token })
  t.same(res.body.meta.subscription_ids, ['files'])

  const made = await svc.call('POST', '/stream/0/files', { token: alice.token, payload: { type: 'com.example.doc', name: 'notes.txt' } })
  t.equal(made.status, 200)
  const id = made.body.data.id
  let frame = await stream.next()
  t.match(frame.meta, { type: 'file', subscription_ids: ['files'] })
  t.match(frame.data, [{ id, complete: false, name: 'notes.txt' }])
  t.notOk('file_token' in frame.data[0] || 'file_token_read' in frame.data[0], 'a stream carries no file token')

  const put = await svc.server.inject({
    method: 'PUT',
    url: `/stream/0/files/${id}/content`,
    headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'text/plain' },
    payload: 'hello',
  })
  t.equal(put.statusCode, 204)
  frame = await stream.next()
  t.match(frame.data, [{ id, complete: true, size: 5 }])

  await svc.call('POST', '/stream/0/files', { token: bob.token, payload: { type: 'com.example.doc' } })
  t.same(await stream.quiet(200), [], "bob's files are not alice's")

  t.equal((await svc.call('DELETE', `/stream/0/files/${id}`, { token: alice.token })).status, 200)
  frame = await stream.next()
  t.match(frame.meta, { type: 'file', is_deleted: true, deleted_id: id })
})

t.test('an app stream carries file events of users who gave the app the files scope, without tokens', async (t) => {
  const { svc } = await listeningInstance(t)
  const alice = await svc.person('alice')
  const carol = await svc.person('carol', { scopes: ['basic', 'write_post'] })
  const stream = (await svc.call('POST', '/stream/0/streams', { token: svc.appToken, payload: { object_types: ['file'], type: 'long_poll' } })).body.data
  const client = await readChunked(stream.endpoint)
  t.teardown(() => client.close())

  const carols = await svc.call('POST', '/stream/0/files', { token: carol.token, payload: { type: 'com.example.doc' } })
  t.equal(carols.status, 200, 'carol may upload with write_post')
  const made = await svc.call('POST', '/stream/0/files', { token: alice.token, payload: { type: 'com.example.doc', public: true } })
  const id = made.body.data.id
  let frame = await client.next()
  t.match(frame.meta, { type: 'file', id, is_deleted: false, suppress_notifications_all: false })
  t.match(frame.data, { id, complete: false, user: { username: 'alice' } })
  t.notOk('file_token' in frame.data || 'file_token_read' in frame.data, 'no file token in a stream, not even the read token of a public file')

  await svc.call('DELETE', `/stream/0/files/${id}`, { token: alice.token })
  frame = await client.next()
  t.match(frame.meta, { type: 'file', id, is_deleted: true, suppress_notifications_all: true })
  t.notOk(frame.data, 'a deletion carries no data')
  t.same(await client.quiet(100), [], 'carol, without the files scope, shows nothing')
})
