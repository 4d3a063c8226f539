import t from 'tap'
import type { Instance, Person } from '../../fixtures/instance.js'
import { appConsumerConnected, listeningInstance, readChunked, waitUntil, type Frame, type StreamClient } from '../../fixtures/streams.js'

const ALL_TYPES = ['post', 'star', 'user_follow', 'mute', 'block', 'stream_marker', 'message', 'channel', 'channel_subscription', 'token', 'file', 'user']

async function appStream(svc: Instance, token: string, body: Record<string, unknown> = {}): Promise<{ id: string; endpoint: string }> {
  const res = await svc.call('POST', '/stream/0/streams', { token, payload: { object_types: ALL_TYPES, type: 'long_poll', ...body } })
  if (res.status !== 200) throw new Error(JSON.stringify(res.body))
  return res.body.data
}

/** The next frame of `type` (and passing `test`), skipping others, failing after `ms`. */
async function nextOf(client: StreamClient, type: string, test: (f: Frame) => boolean = () => true, ms = 3000): Promise<Frame> {
  const deadline = Date.now() + ms
  for (;;) {
    const frame = await client.next(Math.max(1, deadline - Date.now()))
    if (frame.meta?.type === type && test(frame)) return frame
  }
}

const call = async (svc: Instance, who: Person, method: string, url: string, payload?: unknown) => {
  const res = await svc.call(method, url, { token: who.token, payload })
  if (res.status !== 200) throw new Error(`${method} ${url}: ${JSON.stringify(res.body)}`)
  return res.body.data
}

t.test('an app stream carries every event type of the table, with its meta', async (t) => {
  const { svc } = await listeningInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const { endpoint } = await appStream(svc, svc.appToken)
  const client = await readChunked(endpoint)
  t.teardown(() => client.close())
  t.equal(client.status, 200)

  const post = await call(svc, alice, 'POST', '/stream/0/posts', { text: 'hello @bob' })
  let frame = await nextOf(client, 'post')
  t.match(frame.meta, { id: post.id, type: 'post', is_deleted: false, suppress_notifications: [], suppress_notifications_all: false })
  t.ok(Number.isInteger(frame.meta.timestamp) && Math.abs(frame.meta.timestamp - Date.now()) < 60_000, 'timestamp: unix time in ms')
  t.equal(frame.data.id, post.id)
  t.equal(frame.data.text, 'hello @bob')

  await call(svc, bob, 'POST', `/stream/0/posts/${post.id}/star`)
  frame = await nextOf(client, 'star')
  t.match(frame, { meta: { is_deleted: false }, data: { post: { id: post.id }, user: { id: bob.user.id.toString() } } })
  await call(svc, bob, 'DELETE', `/stream/0/posts/${post.id}/star`)
  t.match(await nextOf(client, 'star'), { meta: { is_deleted: true, suppress_notifications_all: true } })

  await call(svc, bob, 'POST', '/stream/0/users/@alice/follow')
  t.match(await nextOf(client, 'user_follow'), { meta: { is_deleted: false }, data: { follows_user: { username: 'alice' }, user: { username: 'bob' } } })
  await call(svc, bob, 'DELETE', '/stream/0/users/@alice/follow')
  t.match(await nextOf(client, 'user_follow'), { meta: { is_deleted: true } })

  await call(svc, bob, 'POST', '/stream/0/users/@alice/mute')
  t.match(await nextOf(client, 'mute'), {
    meta: { id: `${bob.user.id}:${alice.user.id}`, is_deleted: false },
    data: { muted_user: { username: 'alice' }, user: { username: 'bob' } },
  })
  await call(svc, bob, 'DELETE', '/stream/0/users/@alice/mute')
  t.match(await nextOf(client, 'mute'), { meta: { is_deleted: true, suppress_notifications_all: true } }, 'an unmute is a deletion: nobody is pushed about it')

  await call(svc, bob, 'POST', '/stream/0/users/@alice/block')
  t.match(await nextOf(client, 'block'), { meta: { id: `${bob.user.id}:${alice.user.id}` }, data: { blocked_user: { username: 'alice' } } })
  await call(svc, bob, 'DELETE', '/stream/0/users/@alice/block')
  t.match(await nextOf(client, 'block'), { meta: { is_deleted: true, suppress_notifications_all: true } }, 'so is an unblock')

  await call(svc, alice, 'POST', '/stream/0/posts/marker', { name: 'global', id: post.id })
  t.match(await nextOf(client, 'stream_marker'), {
    meta: { user_id: String(alice.user.id) },
    data: { marker: { name: 'global' }, user: { username: 'alice' } },
  })
  t.notOk('channel_id' in (client.frames.at(-1)?.meta ?? {}), 'no channel_id on a post stream marker')

  const channel = await call(svc, alice, 'POST', '/stream/0/channels', { type: 'com.example.chat', writers: { user_ids: [String(bob.user.id)] } })
  frame = await nextOf(client, 'channel')
  t.match(frame, { meta: { id: channel.id, subscribed_user_ids: [String(alice.user.id)] }, data: { id: channel.id, type: 'com.example.chat' } })

  await call(svc, bob, 'POST', `/stream/0/channels/${channel.id}/subscribe`)
  t.match(await nextOf(client, 'channel_subscription', (f) => f.data.user.username === 'bob'), {
    meta: { is_deleted: false },
    data: { user: { username: 'bob' }, channel: { id: channel.id } },
  })

  const message = await call(svc, alice, 'POST', `/stream/0/channels/${channel.id}/messages`, { text: 'hi bob' })
  frame = await nextOf(client, 'message')
  t.match(frame.meta, { id: message.id, channel_type: 'com.example.chat', is_deleted: false, suppress_notifications: [] })
  t.same([...frame.meta.subscribed_user_ids].sort(), [String(alice.user.id), String(bob.user.id)].sort())
  t.equal(frame.data.text, 'hi bob')

  await call(svc, bob, 'POST', '/stream/0/posts/marker', { name: `channel:${channel.id}`, id: message.id })
  t.match(await nextOf(client, 'stream_marker'), {
    meta: { channel_id: channel.id, channel_type: 'com.example.chat', id: `${bob.user.id}:channel:${channel.id}` },
  })

  await call(svc, alice, 'DELETE', `/stream/0/channels/${channel.id}/messages/${message.id}`)
  t.match(await nextOf(client, 'message'), { meta: { id: message.id, is_deleted: true } })
  await call(svc, bob, 'DELETE', `/stream/0/channels/${channel.id}/subscribe`)
  t.match(await nextOf(client, 'channel_subscription'), { meta: { is_deleted: true } })

  await call(svc, alice, 'PATCH', '/stream/0/users/me', { name: 'Alice Liddell' })
  t.match(await nextOf(client, 'user'), { meta: { id: String(alice.user.id), is_deleted: false }, data: { name: 'Alice Liddell' } })

  await call(svc, alice, 'DELETE', `/stream/0/posts/${post.id}`)
  t.match(await nextOf(client, 'post'), { meta: { id: post.id, is_deleted: true, suppress_notifications_all: true }, data: { id: post.id } })

  const { access_token } = await svc.domain.auth.tokens.issueUserToken(svc.app, alice.user, ['basic', 'stream'])
  frame = await nextOf(client, 'token')
  t.match(frame, {
    meta: { user_id: String(alice.user.id), is_deleted: false },
    data: { scopes: ['basic', 'stream'], client_id: svc.app.client_id, app: { name: 'Test Client' }, user: { username: 'alice' } },
  })
  await svc.call('DELETE', '/stream/0/token', { token: access_token })
  frame = await nextOf(client, 'token')
  t.match(frame.meta, { user_id: String(alice.user.id), is_deleted: true })
  t.notOk(frame.data, 'a deauthorization carries no data')
})

t.test('an app sees private activity only of users who authorized it', async (t) => {
  const { svc } = await listeningInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const { app } = await svc.domain.auth.apps.create({ name: 'Stranger', redirect_uris: ['http://stranger.example/cb'] })
  const { access_token: strangerToken } = await svc.domain.auth.tokens.issueAppToken(app)
  const client = await readChunked((await appStream(svc, strangerToken)).endpoint)
  t.teardown(() => client.close())

  await call(svc, bob, 'POST', '/stream/0/users/@alice/mute')
  await call(svc, bob, 'POST', '/stream/0/users/@alice/block')
  await call(svc, alice, 'PATCH', '/stream/0/users/me', { name: 'Alice L' })
  const channel = await call(svc, alice, 'POST', '/stream/0/channels', { type: 'com.example.chat' })
  await call(svc, alice, 'POST', `/stream/0/channels/${channel.id}/messages`, { text: 'secret' })
  await call(svc, alice, 'POST', '/stream/0/posts', { text: 'public' })
  const frame = await nextOf(client, 'post')
  t.equal(frame.data.text, 'public')
  t.same(
    client.frames.map((f) => f.meta?.type),
    ['post'],
    'mutes, blocks, profile updates and private channels of users who never authorized the app stay out',
  )
  t.same(await client.quiet(200), [])
  t.ok(alice && bob)
})

t.test('object_types narrow what a stream carries', async (t) => {
  const { svc } = await listeningInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const client = await readChunked((await appStream(svc, svc.appToken, { object_types: ['user_follow'] })).endpoint)
  t.teardown(() => client.close())
  await call(svc, alice, 'POST', '/stream/0/posts', { text: 'not carried' })
  await call(svc, bob, 'POST', '/stream/0/users/@alice/follow')
  const frame = await client.next()
  t.equal(frame.meta.type, 'user_follow')
  t.same(await client.quiet(200), [])
})

t.test('suppress_notifications lists who muted or blocked the actor, or does not follow a bot', async (t) => {
  const { svc } = await listeningInstance(t)
  const [alice, bob, carol, dave] = await svc.people('alice', 'bob', 'carol', 'dave')
  const robo = await svc.person('robo', { type: 'bot' })
  await call(svc, bob, 'POST', '/stream/0/users/@alice/mute')
  await call(svc, dave, 'POST', '/stream/0/users/@alice/block')
  await call(svc, carol, 'POST', '/stream/0/users/@robo/follow')
  const client = await readChunked((await appStream(svc, svc.appToken, { object_types: ['post', 'star', 'user_follow'] })).endpoint)
  t.teardown(() => client.close())

  await call(svc, alice, 'POST', '/stream/0/posts', { text: '@bob @carol @dave hello' })
  let frame = await nextOf(client, 'post')
  t.same([...frame.meta.suppress_notifications].sort(), [String(bob.user.id), String(dave.user.id)].sort(), 'bob muted alice, dave blocked her')
  t.equal(frame.meta.suppress_notifications_all, false)

  const bobs = await call(svc, bob, 'POST', '/stream/0/posts', { text: 'a post of bob' })
  const carols = await call(svc, carol, 'POST', '/stream/0/posts', { text: 'a post of carol' })
  await call(svc, robo, 'POST', '/stream/0/posts', { text: 'beep', reply_to: bobs.id })
  frame = await nextOf(client, 'post', (f) => f.data.text === 'beep')
  t.same(frame.meta.suppress_notifications, [String(bob.user.id)], 'a bot notifies only its followers')
  await call(svc, robo, 'POST', '/stream/0/posts', { text: 'boop', reply_to: carols.id })
  frame = await nextOf(client, 'post', (f) => f.data.text === 'boop')
  t.same(frame.meta.suppress_notifications, [], 'carol follows the bot')

  await call(svc, bob, 'POST', '/stream/0/users/@carol/follow')
  frame = await nextOf(client, 'user_follow')
  t.same(frame.meta.suppress_notifications, [])
})

t.test('the endpoint URL is the credential; a bearer of the app is accepted, another is not', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const { endpoint } = await appStream(svc, svc.appToken)
  const withBearer = await readChunked(endpoint, { authorization: `Bearer ${svc.appToken}` })
  t.equal(withBearer.status, 200)
  withBearer.close()
  const forged = await readChunked(endpoint.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))
  t.equal(forged.status, 404)
  forged.close()
  const unknown = await readChunked(`${base}/channel/1/nonsense`)
  t.equal(unknown.status, 404)
  unknown.close()
  const alice = await svc.person('alice')
  const { app } = await svc.domain.auth.apps.create({ name: 'Other', redirect_uris: ['http://other.example/cb'] })
  const { access_token: other } = await svc.domain.auth.tokens.issueAppToken(app)
  const wrong = await readChunked(endpoint, { authorization: `Bearer ${other}` })
  t.equal(wrong.status, 403)
  wrong.close()
  t.ok(alice)
  await svc.call('DELETE', '/stream/0/streams', { token: svc.appToken })
  const gone = await readChunked(endpoint)
  t.equal(gone.status, 404, 'a deleted stream URL never works again')
  gone.close()
})

t.test('events wait for a consumer; purge=1 skips them; auto_delete=1 deletes the stream at disconnect', async (t) => {
  const { svc } = await listeningInstance(t)
  const alice = await svc.person('alice')
  const { id, endpoint } = await appStream(svc, svc.appToken, { object_types: ['post'] })
  await call(svc, alice, 'POST', '/stream/0/posts', { text: 'one' })
  await call(svc, alice, 'POST', '/stream/0/posts', { text: 'two' })
  let client = await readChunked(endpoint)
  t.same([(await client.next()).data.text, (await client.next()).data.text], ['one', 'two'], 'queued before any consumer came')
  t.ok(appConsumerConnected(svc, id), 'the server counts the consumer while it is connected')
  client.close()
  await waitUntil(() => !appConsumerConnected(svc, id), 'the server to see the consumer leave')
  await call(svc, alice, 'POST', '/stream/0/posts', { text: 'three' })
  client = await readChunked(endpoint)
  t.equal((await client.next()).data.text, 'three', 'queued while the consumer was away; nothing repeated')
  client.close()
  await waitUntil(() => !appConsumerConnected(svc, id), 'the server to see the consumer leave')
  await call(svc, alice, 'POST', '/stream/0/posts', { text: 'stale' })
  client = await readChunked(`${endpoint}?purge=1&auto_delete=1`)
  await call(svc, alice, 'POST', '/stream/0/posts', { text: 'fresh' })
  t.equal((await client.next()).data.text, 'fresh', 'purge dropped what was queued')
  client.close()
  await waitUntil(async () => (await svc.call('GET', `/stream/0/streams/${id}`, { token: svc.appToken })).status !== 200, 'the stream to go')
  t.equal((await svc.call('GET', `/stream/0/streams/${id}`, { token: svc.appToken })).status, 404, 'auto_delete removed the stream')
})

t.test('a second consumer replaces the first, which is told why', async (t) => {
  const { svc } = await listeningInstance(t)
  const { endpoint } = await appStream(svc, svc.appToken)
  const first = await readChunked(endpoint)
  const second = await readChunked(endpoint)
  t.teardown(() => second.close())
  t.match(await first.next(), { control: { type: 'disconnect', message: /another consumer/ } })
  await first.closed
})

t.test('deleting a stream disconnects its consumer with a control message', async (t) => {
  const { svc } = await listeningInstance(t)
  const { id, endpoint } = await appStream(svc, svc.appToken)
  const client = await readChunked(endpoint)
  await svc.call('DELETE', `/stream/0/streams/${id}`, { token: svc.appToken })
  t.match(await client.next(), { control: { type: 'disconnect', message: /deleted/ } })
  await client.closed
})

t.test('a filter narrows the stream, and a PUT of the filter changes it at once', async (t) => {
  const { svc } = await listeningInstance(t)
  const alice = await svc.person('alice')
  const filter = await call(svc, alice, 'POST', '/stream/0/filters', {
    match_policy: 'include_any',
    clauses: [{ object_type: 'post', operator: 'matches', field: '/data/text', value: 'hello' }],
  })
  const client = await readChunked((await appStream(svc, svc.appToken, { object_types: ['post'], filter_id: filter.id })).endpoint)
  t.teardown(() => client.close())
  await call(svc, alice, 'POST', '/stream/0/posts', { text: 'goodbye' })
  await call(svc, alice, 'POST', '/stream/0/posts', { text: 'hello world' })
  t.equal((await client.next()).data.text, 'hello world')
  await call(svc, alice, 'PUT', `/stream/0/filters/${filter.id}`, {
    match_policy: 'include_any',
    clauses: [{ object_type: 'post', operator: 'one_of', field: '/data/user/id', value: '$authorized_userids' }],
  })
  await call(svc, alice, 'POST', '/stream/0/posts', { text: 'anything from alice' })
  t.equal((await client.next()).data.text, 'anything from alice', 'the new criteria apply to the next event')
  t.same(await client.quiet(100), [])
})

t.test('stopping the server ends a connected consumer at once, told why, without holding up the stop', async (t) => {
  const { svc } = await listeningInstance(t)
  const { endpoint } = await appStream(svc, svc.appToken)
  const client = await readChunked(endpoint)
  // Held up, the stream would end only when hapi's timeout cut it, without a last line saying why.
  const started = Date.now()
  await svc.server.stop({ timeout: 60_000 })
  // Held up, the stop would last its whole 60 s timeout.
  t.ok(Date.now() - started < 30_000, `the stop did not wait for the stream (took ${Date.now() - started} ms)`)
  await client.closed
  t.match(client.frames.at(-1), { control: { type: 'disconnect', message: /shutting down.*resume/ } })
})

t.test('posts created in one burst reach two streams each once, in order, on lines of their own', async (t) => {
  const { svc } = await listeningInstance(t)
  const alice = await svc.person('alice')
  const clients = await Promise.all([0, 1].map(async () => readChunked((await appStream(svc, svc.appToken, { object_types: ['post'] })).endpoint)))
  t.teardown(() => clients.forEach((c) => c.close()))
  // Committed together, these go out in one turn of the event loop and leave the sink as one chunk.
  const posts = await Promise.all(Array.from({ length: 30 }, (_, i) => call(svc, alice, 'POST', '/stream/0/posts', { text: `burst ${i}` })))
  const ids = posts.map((p) => Number(p.id)).sort((a, b) => a - b)
  for (const client of clients) {
    const frames: Frame[] = []
    for (let i = 0; i < ids.length; i++) frames.push(await client.next())
    t.same(
      frames.map((f) => Number(f.meta.id)),
      ids,
      'every post once, in the order of the log',
    )
    t.ok(
      frames.every((f) => f.data.id === f.meta.id && f.data.text === posts.find((p) => p.id === f.meta.id).text),
      'each line holds its own post',
    )
  }
})

t.test('carol removed from a private channel: an app only she authorized sees nothing more of it, queued events included', async (t) => {
  const { svc } = await listeningInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const { app } = await svc.domain.auth.apps.create({ name: 'Carols Client', redirect_uris: ['http://carol.example/cb'] })
  const carolUser = await svc.domain.users.accounts.create({ username: 'carol', password: 'correct horse', name: 'Carol' })
  const { access_token: carolToken } = await svc.domain.auth.tokens.issueUserToken(app, carolUser, [
    'basic',
    'stream',
    'messages',
    'public_messages',
    'write_post',
  ])
  const carol = { user: carolUser, token: carolToken, auth: { authorization: `Bearer ${carolToken}` } }
  const { access_token: appToken } = await svc.domain.auth.tokens.issueAppToken(app)
  const { id, endpoint } = await appStream(svc, appToken, { object_types: ['post', 'message', 'channel', 'channel_subscription', 'stream_marker'] })

  const channel = await call(svc, alice, 'POST', '/stream/0/channels', {
    type: 'com.example.chat',
    writers: { user_ids: ['@bob', '@carol'] },
    auto_subscribe: true,
  })
  let client = await readChunked(endpoint)
  const before = await call(svc, alice, 'POST', `/stream/0/channels/${channel.id}/messages`, { text: 'carol is here' })
  const seen = await nextOf(client, 'message')
  t.equal(seen.meta.id, before.id, 'through carol, the app reads the channel')
  t.ok(seen.meta.subscribed_user_ids.includes(String(carol.user.id)))
  client.close()
  await waitUntil(() => !appConsumerConnected(svc, id), 'the server to see the consumer leave')

  // While nobody reads the stream: a message carol could read, then she is removed.
  await call(svc, alice, 'POST', `/stream/0/channels/${channel.id}/messages`, { text: 'queued while carol was in' })
  await call(svc, alice, 'PATCH', `/stream/0/channels/${channel.id}`, { writers: { user_ids: ['@bob'] } })
  await call(svc, alice, 'POST', `/stream/0/channels/${channel.id}/messages`, { text: 'carol is gone' })
  await call(svc, bob, 'POST', '/stream/0/posts/marker', { name: `channel:${channel.id}`, id: before.id })
  await call(svc, carol, 'POST', '/stream/0/posts', { text: 'the end' })

  client = await readChunked(endpoint)
  t.teardown(() => client.close())
  const sentinel = await nextOf(client, 'post')
  t.equal(sentinel.data.text, 'the end')
  t.same(
    client.frames.filter((f) => f.meta?.type !== 'post').map((f) => `${f.meta.type}:${f.meta.is_deleted}`),
    [],
    'nothing of the channel after her removal, decided when delivered: no message, channel, subscription or marker',
  )
})

t.test('channel markers reach an app only through a user who can read the channel', async (t) => {
  const { svc } = await listeningInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const { app } = await svc.domain.auth.apps.create({ name: 'Bobs Client', redirect_uris: ['http://bob.example/cb'] })
  await svc.domain.auth.tokens.issueUserToken(app, bob.user, ['basic', 'public_messages'])
  const { access_token: appToken } = await svc.domain.auth.tokens.issueAppToken(app)
  const client = await readChunked((await appStream(svc, appToken, { object_types: ['post', 'stream_marker'] })).endpoint)
  t.teardown(() => client.close())
  const channel = await call(svc, alice, 'POST', '/stream/0/channels', { type: 'com.example.chat', readers: { user_ids: ['@bob'] } })
  const message = await call(svc, alice, 'POST', `/stream/0/channels/${channel.id}/messages`, { text: 'private' })
  await call(svc, bob, 'POST', '/stream/0/posts/marker', { name: `channel:${channel.id}`, id: message.id })
  await call(svc, bob, 'POST', '/stream/0/posts', { text: 'the end' })
  t.equal((await nextOf(client, 'post')).data.text, 'the end')
  t.same(
    client.frames.map((f) => f.meta.type),
    ['post'],
    'bob let the app see public channels only: his marker in a private channel stays out',
  )
})
