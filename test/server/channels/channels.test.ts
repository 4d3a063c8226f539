import t from 'tap'
import { openChannel, sendMessage } from '../../fixtures/channels.js'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'

const chat = (svc: Instance, owner: Person, body: Record<string, unknown> = {}) =>
  svc.call('POST', '/stream/0/channels', { token: owner.token, payload: { type: 'com.example.chat', ...body } })

t.test('alice creates a channel, owns it and is subscribed to it', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const res = await chat(svc, alice, {
    writers: { user_ids: ['@bob', alice.user.id] },
    readers: { public: true },
    annotations: [{ type: 'com.example.topic', value: { name: 'tea' } }],
  })
  t.equal(res.status, 200)
  const c = res.body.data
  t.equal(c.type, 'com.example.chat')
  t.equal(c.owner.username, 'alice')
  t.same(c.writers.user_ids, [String(bob.user.id)], 'the owner is never listed; @bob resolved to his id')
  t.equal(c.readers.public, true)
  t.equal(c.you_subscribed, true)
  t.equal(c.you_can_edit, true)
  t.equal(c.editors.you, true)
  t.same(c.counts, { messages: 0, subscribers: 1 })
  t.notOk('annotations' in c, 'annotations only when asked for')
  const again = await svc.call('GET', `/channels/${c.id}?include_channel_annotations=1`, { token: bob.token })
  t.same(again.body.data.annotations, [{ type: 'com.example.topic', value: { name: 'tea' } }])
  t.equal(again.body.data.writers.you, true)
  t.equal(again.body.data.you_can_edit, false)
  t.equal(again.body.data.you_subscribed, false)
})

t.test('channel creation refuses pm, reserved and malformed types, clashing ACLs and unknown users', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  for (const body of [
    { type: 'svc.core.pm' },
    { type: 'svc.core.secret' },
    { type: 'not a type' },
    { readers: { public: true, user_ids: ['@bob'] } },
    { writers: { public: true } },
    { editors: { any_user: true } },
    { writers: { user_ids: ['@nobody'] } },
    { annotations: [{ type: 'com.example.big', value: { blob: 'x'.repeat(9000) } }] },
  ]) {
    const res = await chat(svc, alice, body)
    t.equal(res.status, 400, JSON.stringify(body).slice(0, 60))
    t.match(res.body.meta.error_message, /^Bad Request: /)
  }
  t.equal((await svc.call('POST', '/channels', { token: alice.token, payload: {} })).status, 400, 'type is required')
})

t.test('channels need a user token with a messaging scope to be created', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice', { scopes: ['basic', 'stream'] })
  t.equal((await chat(svc, alice)).status, 403)
  t.equal((await svc.call('POST', '/channels', { token: svc.appToken, payload: { type: 'com.example.chat' } })).status, 403)
  t.equal((await svc.call('POST', '/channels', { payload: { type: 'com.example.chat' } })).status, 401)
})

t.test('a private channel is hidden from bob until alice lets him read it', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const id = (await chat(svc, alice)).body.data.id
  t.equal((await svc.call('GET', `/channels/${id}`, { token: bob.token })).status, 404)
  t.same((await svc.call('GET', `/channels?ids=${id},999`, { token: bob.token })).body.data, [], 'unknown and unauthorised ids are left out')
  const patched = await svc.call('PATCH', `/channels/${id}`, { token: alice.token, payload: { readers: { user_ids: ['@bob'] } } })
  t.equal(patched.status, 200)
  t.same(patched.body.data.readers.user_ids, [String(bob.user.id)])
  const seen = await svc.call('GET', `/channels/${id}`, { token: bob.token })
  t.equal(seen.body.data.readers.you, true)
  t.equal(seen.body.data.writers.you, false)
})

t.test('only the owner edits, PUT behaves like PATCH, and immutable ACLs stay put', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const id = (await chat(svc, alice, { readers: { any_user: true, immutable: true }, writers: { user_ids: ['@bob'] } })).body.data.id
  t.equal((await svc.call('PATCH', `/channels/${id}`, { token: bob.token, payload: { annotations: [] } })).status, 403, 'a writer is not an editor')
  t.equal((await svc.call('PUT', `/channels/${id}`, { token: alice.token, payload: { readers: { public: true } } })).status, 400, 'readers are immutable')
  const put = await svc.call('PUT', `/channels/${id}?include_annotations=1`, {
    token: alice.token,
    payload: { annotations: [{ type: 'com.example.topic', value: { name: 'coffee' } }], writers: { user_ids: [] }, type: 'com.example.other' },
  })
  t.equal(put.status, 200)
  t.equal(put.body.data.type, 'com.example.chat', 'the type is not updatable')
  t.same(put.body.data.writers.user_ids, [])
  t.equal(put.body.data.annotations[0].value.name, 'coffee')
})

t.test('alice deactivates her channel for good: everyone unsubscribed, hidden from lists, no new messages', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const id = (await chat(svc, alice, { readers: { any_user: true }, writers: { any_user: true } })).body.data.id
  await svc.call('POST', `/channels/${id}/subscribe`, { token: bob.token })
  t.equal((await svc.call('DELETE', `/channels/${id}`, { token: bob.token })).status, 403, 'bob is not the owner')
  const res = await svc.call('DELETE', `/channels/${id}`, { token: alice.token })
  t.equal(res.status, 200)
  t.equal(res.body.data.is_inactive, true)
  t.equal(res.body.data.counts.subscribers, 0)
  t.equal((await svc.call('GET', `/channels/${id}`, { token: bob.token })).body.data.is_inactive, true, 'still there when asked by id')
  t.same((await svc.call('GET', '/users/me/channels', { token: alice.token })).body.data, [])
  t.equal((await svc.call('GET', '/users/me/channels?include_inactive=1', { token: alice.token })).body.data.length, 1)
  t.same((await svc.call('GET', '/channels', { token: bob.token })).body.data, [], 'gone from the inbox')
  const msg = await svc.call('POST', `/channels/${id}/messages`, { token: alice.token, payload: { text: 'hello?' } })
  t.equal(msg.status, 400)
  t.equal((await svc.call('POST', `/channels/${id}/subscribe`, { token: bob.token })).status, 400)
})

t.test('/users/me/channels lists the channels alice created, newest first', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const first = (await chat(svc, alice)).body.data.id
  const second = (await chat(svc, alice, { type: 'com.example.notes' })).body.data.id
  await chat(svc, bob)
  const res = await svc.call('GET', '/users/me/channels', { token: alice.token })
  t.same(
    res.body.data.map((c: { id: string }) => c.id),
    [second, first],
  )
  t.equal(res.body.meta.more, false)
  const typed = await svc.call('GET', '/users/me/channels?channel_types=com.example.notes&count=1', { token: alice.token })
  t.same(
    typed.body.data.map((c: { id: string }) => c.id),
    [second],
  )
})

t.test('GET /channels is the inbox: subscribed channels, latest message first, with unread counts', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const quiet = (await chat(svc, alice, { writers: { user_ids: ['@bob'] } })).body.data.id
  const busy = (await chat(svc, alice, { writers: { user_ids: ['@bob'] } })).body.data.id
  await svc.call('POST', `/channels/${quiet}/messages`, { token: bob.token, payload: { text: 'first' } })
  await svc.call('POST', `/channels/${busy}/messages`, { token: bob.token, payload: { text: 'second' } })
  await svc.call('POST', '/channels/pm/messages', { token: bob.token, payload: { text: 'psst', destinations: ['@alice'] } })
  const res = await svc.call('GET', '/channels', { token: alice.token })
  t.equal(res.status, 200)
  t.same(
    res.body.data.slice(1).map((c: { id: string }) => c.id),
    [busy, quiet],
  )
  t.equal(res.body.data[0].type, 'svc.core.pm')
  t.same(res.body.meta.unread_counts, { 'svc.core.pm': 1, 'svc.core.broadcast': 0, 'com.example.chat': 2 })
  t.ok(res.body.data.every((c: { has_unread: boolean }) => c.has_unread))
  const page = await svc.call('GET', '/channels?count=2', { token: alice.token })
  t.equal(page.body.meta.more, true)
  const rest = await svc.call('GET', `/channels?count=2&before_id=${page.body.meta.min_id}`, { token: alice.token })
  t.same(
    rest.body.data.map((c: { id: string }) => c.id),
    [quiet],
  )
  t.equal((await svc.call('GET', '/channels', { token: svc.appToken })).status, 403, 'an app has no inbox')
})

t.test('unread state follows alice’s marker, and include_read=0 keeps only unread channels', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const id = (await chat(svc, alice, { writers: { user_ids: ['@bob'] } })).body.data.id
  const own = await svc.call('POST', `/channels/${id}/messages`, { token: alice.token, payload: { text: 'mine' } })
  t.equal((await svc.call('GET', `/channels/${id}`, { token: alice.token })).body.data.has_unread, true, 'sending does not move the marker')
  await svc.call('POST', '/posts/marker', { token: alice.token, payload: { name: `channel:${id}`, id: own.body.data.id } })
  const read = await svc.call('GET', `/channels/${id}?include_marker=1`, { token: alice.token })
  t.equal(read.body.data.has_unread, false)
  t.equal(read.body.data.marker.last_read_id, own.body.data.id)
  t.same((await svc.call('GET', '/channels?include_read=0', { token: alice.token })).body.data, [])
  await svc.call('POST', `/channels/${id}/messages`, { token: bob.token, payload: { text: 'news' } })
  t.equal((await svc.call('GET', '/channels?include_read=0', { token: alice.token })).body.data.length, 1)
})

t.test('num_unread counts pm and broadcast channels; marking broadcasts read zeroes theirs', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const news = (await svc.call('POST', '/channels', { token: bob.token, payload: { type: 'svc.core.broadcast', readers: { public: true } } })).body.data.id
  await svc.call('POST', `/channels/${news}/subscribe`, { token: alice.token })
  await svc.call('POST', `/channels/${news}/messages`, { token: bob.token, payload: { text: 'issue 1' } })
  await svc.call('POST', '/channels/pm/messages', { token: bob.token, payload: { text: 'hi', destinations: [alice.user.id] } })
  t.equal((await svc.call('GET', '/users/me/channels/pm/num_unread', { token: alice.token })).body.data, 1)
  t.equal((await svc.call('GET', '/users/me/channels/broadcast/num_unread', { token: alice.token })).body.data, 1)
  t.equal((await svc.call('DELETE', '/users/me/channels/broadcast/num_unread', { token: alice.token })).body.data, 0)
  t.equal((await svc.call('GET', '/users/me/channels/broadcast/num_unread', { token: alice.token })).body.data, 0)
  t.equal((await svc.call('GET', '/users/me/channels/pm/num_unread', { token: alice.token })).body.data, 1, 'pm untouched')
  const publicOnly = await svc.person('carol', { scopes: ['public_messages'] })
  t.equal((await svc.call('GET', '/users/me/channels/pm/num_unread', { token: publicOnly.token })).status, 403, 'needs the messages scope')
})

t.test('a broadcast channel has at most one writer', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  await svc.person('carol')
  const res = await svc.call('POST', '/channels', { token: alice.token, payload: { type: 'svc.core.broadcast', writers: { user_ids: ['@bob', '@carol'] } } })
  t.equal(res.status, 400)
})

t.test('robo the bot opens channels only with users who follow it', async (t) => {
  const svc = await makeInstance(t)
  const robo = await svc.person('robo', { type: 'bot' })
  const alice = await svc.person('alice')
  await svc.person('bob')
  await svc.store.transact((tx) => tx.follows.insert({ user_id: alice.user.id, target_id: robo.user.id, created_at: '2026-01-01T00:00:00Z' }))
  t.equal((await chat(svc, robo, { writers: { user_ids: ['@alice'] } })).status, 200)
  t.equal((await chat(svc, robo, { writers: { user_ids: ['@bob'] } })).status, 403)
})

t.test('channel search finds readable channels by metadata text, type and privacy', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const meta = (title: string, tags: string[]) => [{ type: 'svc.core.channel.metadata', value: { title, description: 'a place', tags } }]
  const tea = (await chat(svc, alice, { readers: { public: true }, annotations: meta('Tea lovers', ['tea']) })).body.data.id
  const secret = (await chat(svc, alice, { annotations: meta('Secret tea club', ['tea']) })).body.data.id
  await chat(svc, alice, { readers: { public: true }, annotations: meta('Coffee', ['coffee']) })
  const bobs = await svc.call('GET', '/channels/search?q=tea', { token: bob.token })
  t.same(
    bobs.body.data.map((c: { id: string }) => c.id),
    [tea],
    'bob cannot find the private channel',
  )
  const alices = await svc.call('GET', '/channels/search?q=tea&order=id', { token: alice.token })
  t.same(
    alices.body.data.map((c: { id: string }) => c.id),
    [secret, tea],
  )
  t.same(
    (await svc.call('GET', '/channels/search?tags=tea&is_private=1', { token: alice.token })).body.data.map((c: { id: string }) => c.id),
    [secret],
  )
  t.equal((await svc.call('GET', '/channels/search?order=loudest', { token: alice.token })).status, 400)
})

t.test('a public_messages token sees public channels only', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const open = (await chat(svc, alice, { readers: { any_user: true } })).body.data.id
  const closed = (await chat(svc, alice)).body.data.id
  const limited = await svc.domain.auth.tokens.issueUserToken(svc.app, alice.user, ['public_messages'])
  const res = await svc.call('GET', `/channels?ids=${open},${closed}`, { token: limited.access_token })
  t.same(
    res.body.data.map((c: { id: string }) => c.id),
    [open],
  )
  t.equal((await svc.call('GET', `/channels/${closed}`, { token: limited.access_token })).status, 404)
})

t.test('an app token sees public channels and private ones a reader authorised it for with messages', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const open = (await chat(svc, alice, { readers: { public: true } })).body.data.id
  const closed = (await chat(svc, alice)).body.data.id
  const res = await svc.call('GET', `/channels?ids=${open},${closed}`, { token: svc.appToken })
  t.same(
    res.body.data.map((c: { id: string }) => c.id),
    [open, closed],
    'alice authorised the test app with messages',
  )
  const { app } = await svc.domain.auth.apps.create({ name: 'Other', redirect_uris: ['http://other.example/cb'] })
  const other = await svc.domain.auth.tokens.issueAppToken(app)
  const seen = await svc.call('GET', `/channels?ids=${open},${closed}`, { token: other.access_token })
  t.same(
    seen.body.data.map((c: { id: string }) => c.id),
    [open],
  )
})

t.test('a replacement value naming no file of the caller is dropped, so its token is never stored', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await chat(svc, alice, {
    annotations: [{ type: 'com.example.cover', value: { '+svc.core.file': { file_id: '1', file_token: 'secret', format: 'url' } } }],
  })
  t.equal(res.status, 200)
  const stored = await svc.store.read.channels.get(Number(res.body.data.id))
  t.same(stored?.annotations, [{ type: 'com.example.cover', value: {} }])
})

t.test('include_recent_message embeds the latest message; recent_message_id is always there', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const id = (await chat(svc, alice)).body.data.id
  const msg = (await svc.call('POST', `/channels/${id}/messages`, { token: alice.token, payload: { text: 'latest news' } })).body.data
  const plain = await svc.call('GET', `/channels/${id}`, { token: alice.token })
  t.equal(plain.body.data.recent_message_id, msg.id)
  t.notOk('recent_message' in plain.body.data)
  const full = await svc.call('GET', `/channels/${id}?include_recent_message=1`, { token: alice.token })
  t.equal(full.body.data.recent_message.text, 'latest news')
  t.equal(full.body.data.counts.messages, 1)
})

t.test('bob writing into an existing PM channel by its id resubscribes alice', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const pm = (await svc.call('POST', '/channels/pm/messages', { token: alice.token, payload: { text: 'hi', destinations: ['@bob'] } })).body.data.channel_id
  await svc.call('DELETE', `/channels/${pm}/subscribe`, { token: alice.token })
  t.equal((await svc.call('POST', `/channels/${pm}/messages`, { token: bob.token, payload: { text: 'hello back' } })).status, 200)
  t.equal((await svc.call('GET', `/channels/${pm}`, { token: alice.token })).body.data.you_subscribed, true)
})

t.test('the inbox needs a messaging scope', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice', { scopes: ['basic', 'stream'] })
  const res = await svc.call('GET', '/channels', { token: alice.token })
  t.equal(res.status, 403)
  t.equal(res.body.meta.error_slug, 'insufficient-scope')
})

t.test('auto_subscribe on create and on update subscribes the people on the ACLs', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const created = await chat(svc, alice, { writers: { user_ids: ['@bob'] }, auto_subscribe: true })
  t.equal(created.body.data.counts.subscribers, 2)
  const seenByBob = await svc.call('GET', `/channels/${created.body.data.id}`, { token: bob.token })
  t.equal(seenByBob.body.data.you_subscribed, true)
  const updated = await svc.call('PUT', `/channels/${created.body.data.id}`, {
    token: alice.token,
    payload: { readers: { user_ids: ['@carol'] }, auto_subscribe: true },
  })
  t.equal(updated.status, 200)
  t.equal(updated.body.data.counts.subscribers, 3)
  t.equal((await svc.call('POST', '/channels', { token: alice.token, payload: { type: 'com.example.chat', auto_subscribe: 'often' } })).status, 400)
  t.equal((await svc.call('GET', `/channels/${created.body.data.id}`, { token: carol.token })).body.data.you_subscribed, true)
})

t.test('GET /channels takes a repeated ids key as one list', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const first = (await chat(svc, alice)).body.data.id
  const second = (await chat(svc, alice)).body.data.id
  const third = (await chat(svc, alice)).body.data.id
  const res = await svc.call('GET', `/channels?ids=${first},${second}&ids=${third}`, { token: alice.token })
  t.equal(res.status, 200)
  t.same(res.body.data.map((c: { id: string }) => c.id).sort(), [first, second, third].sort())
})

t.test('channel_types may be repeated too, as client libraries send a list', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const chatRoom = (await chat(svc, alice)).body.data.id
  const notes = (await chat(svc, alice, { type: 'com.example.notes' })).body.data.id
  await chat(svc, alice, { type: 'com.example.diary' })
  const res = await svc.call('GET', '/users/me/channels?channel_types=com.example.chat&channel_types=com.example.notes', { token: alice.token })
  t.equal(res.status, 200)
  t.same(
    res.body.data.map((c: { id: string }) => c.id),
    [notes, chatRoom],
  )
})

t.test('channel search takes repeated tags as one list, every tag required', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const meta = (title: string, tags: string[]) => [{ type: 'svc.core.channel.metadata', value: { title, description: 'a place', tags } }]
  const green = (await chat(svc, alice, { readers: { public: true }, annotations: meta('Green tea', ['tea', 'green']) })).body.data.id
  await chat(svc, alice, { readers: { public: true }, annotations: meta('Black tea', ['tea', 'black']) })
  for (const query of ['tags=tea&tags=green', 'tags=tea,green']) {
    const res = await svc.call('GET', `/channels/search?${query}`, { token: alice.token })
    t.equal(res.status, 200, query)
    t.same(
      res.body.data.map((c: { id: string }) => c.id),
      [green],
      query,
    )
  }
})

t.test('channel_types filters the inbox too', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  await openChannel(svc, alice)
  const pm = await sendMessage(svc, bob, 'pm', { text: 'psst', destinations: ['@alice'] })
  const res = await svc.call('GET', '/channels?channel_types=svc.core.pm,com.example.other', { token: alice.token })
  t.same(
    res.body.data.map((c: { id: string }) => c.id),
    [pm.channel_id],
  )
})

t.test('deactivation: an editor cannot, a PM channel cannot be, messages stay readable, search hides it unless include_inactive=1', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const meta = [{ type: 'svc.core.channel.metadata', value: { title: 'Tea room', description: 'about tea' } }]
  const c = await openChannel(svc, alice, { editors: { user_ids: ['@bob'] }, readers: { public: true }, annotations: meta })
  const m = await sendMessage(svc, bob, c.id, { text: 'kept' })
  t.equal((await svc.call('DELETE', `/channels/${c.id}`, { token: bob.token })).status, 403, 'editors cannot deactivate')
  const pm = await sendMessage(svc, alice, 'pm', { text: 'hi', destinations: ['@bob'] })
  const refused = await svc.call('DELETE', `/channels/${pm.channel_id}`, { token: alice.token })
  t.equal(refused.status, 400)
  t.equal(refused.body.meta.error_message, 'Bad Request: private message channels cannot be deactivated')
  t.equal((await svc.call('DELETE', `/channels/${c.id}`, { token: alice.token })).body.data.is_inactive, true)
  const again = await svc.call('DELETE', `/channels/${c.id}`, { token: alice.token })
  t.equal(again.status, 200, 'deactivating twice answers the channel again')
  t.equal(again.body.data.is_inactive, true)
  t.equal((await svc.call('PATCH', `/channels/${c.id}`, { token: alice.token, payload: { annotations: [] } })).status, 400, 'irreversible: no more edits')
  const messages = await svc.call('GET', `/channels/${c.id}/messages`, { token: bob.token })
  t.same(
    messages.body.data.map((x: { id: string }) => x.id),
    [m.id],
    'messages are kept',
  )
  t.same((await svc.call('GET', '/channels/search?q=tea', { token: bob.token })).body.data, [])
  t.same(
    (await svc.call('GET', '/channels/search?q=tea&include_inactive=1', { token: bob.token })).body.data.map((x: { id: string }) => x.id),
    [c.id],
  )
})

t.test('deactivating asks for a user token but no messaging scope: the owner may use any of her tokens', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const c = await openChannel(svc, alice)
  const basic = await svc.domain.auth.tokens.issueUserToken(svc.app, alice.user, ['basic'])
  const res = await svc.call('DELETE', `/channels/${c.id}`, { token: basic.access_token })
  t.equal(res.status, 200)
  t.equal(res.body.data.is_inactive, true)
  t.equal((await svc.call('DELETE', `/channels/${c.id}`, { token: svc.appToken })).status, 403, 'an app token is refused')
})
