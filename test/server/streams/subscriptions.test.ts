import t from 'tap'
import { openChannel, sendMessage } from '../../fixtures/channels.js'
import { listeningInstance, openWebSocket } from '../../fixtures/streams.js'

t.test('every subscribable list delivers its own events, in the shape of its REST answer', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  await svc.call('POST', '/stream/0/users/@bob/follow', { token: alice.token })
  const root = (await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: 'a thread' } })).body.data
  const channel = await openChannel(svc, alice, { writers: { any_user: true }, readers: { public: true } })
  await svc.call('POST', `/stream/0/channels/${channel.id}/subscribe`, { token: carol.token })
  const stream = await openWebSocket(base, alice.token)
  const subscribe = async (path: string, id: string) => {
    const sep = path.includes('?') ? '&' : '?'
    const res = await svc.call('GET', `/stream/0/${path}${sep}connection_id=${stream.connectionId}&subscription_id=${id}`, { token: alice.token })
    t.same(res.body.meta.subscription_ids, [id], `${path} subscribed`)
  }
  for (const [path, id] of [
    ['users/me/following', 'following'],
    ['users/me/followers', 'followers'],
    ['users/me/posts', 'mine'],
    ['users/me/mentions', 'mentions'],
    [`posts/${root.id}/replies`, 'thread'],
    ['posts/stream', 'personal'],
    ['channels', 'inbox'],
    [`channels/${channel.id}/subscribers`, 'subscribers'],
    [`channels/${channel.id}/messages`, 'messages'],
    ['token', 'token'],
  ]) {
    await subscribe(path, id)
  }

  await svc.call('POST', '/stream/0/users/@carol/follow', { token: alice.token })
  let frame = await stream.next()
  t.same([frame.meta.type, frame.meta.subscription_ids, frame.data[0].username], ['user_follow', ['following'], 'carol'])

  await svc.call('POST', '/stream/0/users/@alice/follow', { token: bob.token })
  frame = await stream.next()
  t.same([frame.meta.type, frame.meta.subscription_ids, frame.data[0].username], ['user_follow', ['followers'], 'bob'])

  await svc.call('DELETE', '/stream/0/users/@carol/follow', { token: alice.token })
  frame = await stream.next()
  t.same([frame.meta.subscription_ids, frame.meta.is_deleted, frame.meta.deleted_id], [['following'], true, String(carol.user.id)])

  const reply = (await svc.call('POST', '/stream/0/posts', { token: bob.token, payload: { text: '@alice nice thread', reply_to: root.id } })).body.data
  const replyFrames = [await stream.next(), await stream.next(), await stream.next()]
  t.same(replyFrames.map((f) => f.meta.subscription_ids).sort(), [['mentions'], ['personal'], ['thread']], 'a reply by a followed user that mentions alice')
  for (const f of replyFrames) t.equal(f.data[0].id, reply.id)

  await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: 'my own post' } })
  const own = [await stream.next(), await stream.next()]
  t.same(own.map((f) => f.meta.subscription_ids).sort(), [['mine'], ['personal']])

  const message = await sendMessage(svc, carol, channel.id, { text: 'hi all' })
  const messageFrames = [await stream.next(), await stream.next()]
  t.same(messageFrames.map((f) => `${f.meta.type}:${f.meta.subscription_ids}`).sort(), ['message:inbox', 'message:messages'])
  for (const f of messageFrames) t.equal(f.data[0].id, message.id)

  await svc.call('POST', `/stream/0/channels/${channel.id}/subscribe`, { token: bob.token })
  frame = await stream.next()
  t.same([frame.meta.type, frame.meta.subscription_ids, frame.data[0].username], ['channel_subscription', ['subscribers'], 'bob'])

  const updated = await svc.call('PATCH', '/stream/0/users/me', { token: alice.token, payload: { name: 'Alice A.' } })
  t.equal(updated.status, 200)
  frame = await stream.next()
  t.same([frame.meta.type, frame.meta.subscription_ids, frame.data.name], ['user', ['token'], 'Alice A.'])

  t.same(await stream.quiet(), [], 'nothing else')
  stream.close()
})

t.test('a deleted post arrives as a deletion, and a marker update carries meta.marker', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  await svc.call('POST', '/stream/0/users/@bob/follow', { token: alice.token })
  const stream = await openWebSocket(base, alice.token, 'include_html=0')
  await svc.call('GET', `/stream/0/posts/stream/unified?connection_id=${stream.connectionId}&subscription_id=home`, { token: alice.token })
  const made = (await svc.call('POST', '/stream/0/posts', { token: bob.token, payload: { text: 'oops' } })).body.data
  let frame = await stream.next()
  t.equal(frame.data[0].html, undefined, 'display options given at connect apply')
  await svc.call('DELETE', `/stream/0/posts/${made.id}`, { token: bob.token })
  frame = await stream.next()
  t.same([frame.meta.is_deleted, frame.meta.deleted_id, frame.data[0].is_deleted], [true, made.id, true])
  await svc.call('POST', '/stream/0/posts/marker', { token: alice.token, payload: { name: 'unified', id: made.id } })
  frame = await stream.next()
  t.same([frame.meta.type, frame.meta.marker.name, frame.meta.marker.id, frame.data], ['stream_marker', 'unified', made.id, []])
  stream.close()
})

t.test('a stream shows only what the REST call would show: mutes, blocks, directed posts, private channels', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const [alice, bob, carol, dave] = await svc.people('alice', 'bob', 'carol', 'dave')
  for (const who of ['bob', 'carol']) await svc.call('POST', `/stream/0/users/@${who}/follow`, { token: alice.token })
  await svc.call('POST', '/stream/0/users/@carol/mute', { token: alice.token })
  const secret = await openChannel(svc, bob)
  const stream = await openWebSocket(base, alice.token)
  await svc.call('GET', `/stream/0/posts/stream?connection_id=${stream.connectionId}&subscription_id=personal`, { token: alice.token })
  const refused = await svc.call('GET', `/stream/0/channels/${secret.id}/messages?connection_id=${stream.connectionId}`, { token: alice.token })
  t.equal(refused.status, 404, 'a channel alice may not read')
  t.equal(refused.body.meta.subscription_ids, undefined)
  await svc.call('POST', '/stream/0/posts', { token: carol.token, payload: { text: 'muted carol speaks' } })
  await svc.call('POST', '/stream/0/posts', { token: bob.token, payload: { text: '@dave just between us' } })
  await sendMessage(svc, bob, secret.id, { text: 'secret' })
  await svc.call('POST', '/stream/0/posts', { token: dave.token, payload: { text: 'dave is not followed' } })
  await svc.call('POST', '/stream/0/posts', { token: bob.token, payload: { text: 'visible' } })
  const frame = await stream.next()
  t.equal(frame.data[0].text, 'visible')
  t.same(await stream.quiet(), [])
  stream.close()
})

t.test('a subscription is made only under the creation conditions', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const [alice] = await svc.people('alice')
  for (let i = 0; i < 3; i++) await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: `post ${i}` } })
  const stream = await openWebSocket(base, alice.token)
  const ids = async (query: string) =>
    (await svc.call('GET', `/stream/0/users/me/posts?connection_id=${stream.connectionId}&${query}`, { token: alice.token })).body.meta.subscription_ids
  t.equal((await ids('subscription_id=a'))!.length, 1, 'no pagination')
  t.same(await ids('subscription_id=b&since_id=1'), ['b'], 'since_id and the answer ends (more false)')
  t.equal(await ids('subscription_id=c&since_id=0&count=1'), undefined, 'since_id but more items remain')
  t.equal(await ids('subscription_id=d&before_id=3'), undefined, 'before_id')
  t.equal(await ids('subscription_id=e&count=-5'), undefined, 'a negative count')
  t.equal(
    (await svc.call('GET', '/stream/0/users/me/posts?connection_id=nosuchstream', { token: alice.token })).body.meta.subscription_ids,
    undefined,
    'an unknown connection',
  )
  t.match((await ids(''))!.length, 1, 'a generated subscription id')
  stream.close()
})

t.test('carol removed from a private channel: her stream drops it and shows nothing of it again', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  const channel = await openChannel(svc, alice, { writers: { user_ids: ['@bob', '@carol'] }, auto_subscribe: true })
  const stream = await openWebSocket(base, carol.token)
  for (const [path, id] of [
    ['channels', 'inbox'],
    [`channels/${channel.id}/messages`, 'messages'],
    [`channels/${channel.id}/subscribers`, 'subscribers'],
    ['users/me/posts', 'mine'],
  ]) {
    const res = await svc.call('GET', `/stream/0/${path}?connection_id=${stream.connectionId}&subscription_id=${id}`, { token: carol.token })
    t.same(res.body.meta.subscription_ids, [id], `${path} subscribed`)
  }
  await sendMessage(svc, alice, channel.id, { text: 'welcome' })
  const welcome = [await stream.next(), await stream.next()]
  t.same(welcome.map((f) => f.meta.subscription_ids[0]).sort(), ['inbox', 'messages'], 'a member sees the channel')

  await svc.call('PATCH', `/stream/0/channels/${channel.id}`, { token: alice.token, payload: { writers: { user_ids: ['@bob'] } } })
  const left = await stream.next()
  t.same(
    [left.meta.type, left.meta.subscription_ids, left.meta.is_deleted, left.meta.deleted_id, left.data],
    ['channel', ['inbox'], true, channel.id, []],
    'her inbox is told to drop the channel, which it no longer shows',
  )

  await sendMessage(svc, alice, channel.id, { text: 'carol is gone' })
  await svc.call('PATCH', `/stream/0/channels/${channel.id}`, {
    token: alice.token,
    payload: { annotations: [{ type: 'com.example.topic', value: { t: 'new' } }] },
  })
  await svc.call('POST', `/stream/0/channels/${channel.id}/subscribe`, { token: bob.token })
  await svc.call('DELETE', `/stream/0/channels/${channel.id}/subscribe`, { token: bob.token })
  await svc.call('POST', '/stream/0/posts', { token: carol.token, payload: { text: 'the end' } })
  const next = await stream.next()
  t.same([next.meta.subscription_ids, next.data[0].text], [['mine'], 'the end'], 'no message, channel update (with its counts) or subscriber came in between')
  stream.close()
})
