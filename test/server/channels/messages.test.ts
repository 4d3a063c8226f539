import t from 'tap'
import { sendMessage } from '../../fixtures/channels.js'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'
import { keys } from '../../fixtures/shapes.js'

const MESSAGE_KEYS = ['channel_id', 'created_at', 'entities', 'html', 'id', 'machine_only', 'num_replies', 'source', 'text', 'thread_id', 'user']

const room = async (svc: Instance, owner: Person, body: Record<string, unknown> = {}): Promise<string> =>
  (await svc.call('POST', '/channels', { token: owner.token, payload: { type: 'com.example.chat', ...body } })).body.data.id

const send = (svc: Instance, who: Person, channel: string, payload: Record<string, unknown>) =>
  svc.call('POST', `/stream/0/channels/${channel}/messages`, { token: who.token, payload })

t.test('bob writes in alice’s channel; text is parsed for mentions, hashtags and links', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const id = await room(svc, alice, { writers: { user_ids: ['@bob'] } })
  const res = await send(svc, bob, id, { text: 'hi @alice, see #tea at example.com' })
  t.equal(res.status, 200)
  const m = res.body.data
  t.equal(m.channel_id, id)
  t.equal(m.user.username, 'bob')
  t.equal(m.thread_id, m.id)
  t.equal(m.num_replies, 0)
  t.equal(m.entities.mentions[0].name, 'alice')
  t.equal(m.entities.hashtags[0].name, 'tea')
  t.equal(m.entities.links[0].url, 'http://example.com')
  t.match(m.html, /^<span itemscope="https:\/\/app.net\/schemas\/Post">/)
  t.same(m.source, { client_id: svc.app.client_id, link: svc.app.link, name: 'Test Client' })
})

t.test('readers cannot write, strangers cannot even see the channel', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const id = await room(svc, alice, { readers: { user_ids: ['@bob'] } })
  t.equal((await send(svc, bob, id, { text: 'may I?' })).status, 403)
  t.equal((await send(svc, carol, id, { text: 'hello' })).status, 404)
  const mine = await send(svc, alice, id, { text: 'only me' })
  t.equal((await svc.call('GET', `/channels/${id}/messages`, { token: bob.token })).body.data[0].id, mine.body.data.id, 'bob reads')
  t.equal((await svc.call('GET', `/channels/${id}/messages`, { token: carol.token })).status, 404)
  t.equal((await svc.call('GET', `/channels/${id}/messages/${mine.body.data.id}`, { token: carol.token })).status, 404)
})

t.test('message input limits: 2048 characters, 8192 bytes of annotations, replies within the channel', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const id = await room(svc, alice)
  const other = await room(svc, alice)
  t.equal((await send(svc, alice, id, { text: 'é'.repeat(2048) })).status, 200)
  t.equal((await send(svc, alice, id, { text: 'x'.repeat(2049) })).status, 400)
  t.equal((await send(svc, alice, id, { text: '' })).status, 400)
  t.equal((await send(svc, alice, id, { text: 'big', annotations: [{ type: 'com.example.blob', value: { x: 'y'.repeat(8200) } }] })).status, 400)
  const elsewhere = await send(svc, alice, other, { text: 'over there' })
  const res = await send(svc, alice, id, { text: 'reply', reply_to: elsewhere.body.data.id })
  t.equal(res.status, 400)
  t.match(res.body.meta.error_message, /^Bad Request: /)
  t.equal((await send(svc, alice, id, { text: 'x', reply_to: 'abc' })).status, 400)
})

t.test('replies join the thread and count on their parent', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const id = await room(svc, alice)
  const root = (await send(svc, alice, id, { text: 'root' })).body.data
  const reply = (await send(svc, alice, id, { text: 'reply', reply_to: root.id })).body.data
  const deeper = (await send(svc, alice, id, { text: 'deeper', reply_to: reply.id })).body.data
  t.equal(reply.reply_to, root.id)
  t.equal(deeper.thread_id, root.id)
  t.equal((await svc.call('GET', `/channels/${id}/messages/${root.id}`, { token: alice.token })).body.data.num_replies, 1)
})

t.test('machine_only messages carry annotations only, and never in a PM', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  const id = await room(svc, alice)
  const note = [{ type: 'com.example.ping', value: { n: 1 } }]
  const res = await send(svc, alice, id, { machine_only: true, annotations: note })
  t.equal(res.status, 200)
  t.equal(res.body.data.machine_only, true)
  t.equal((await send(svc, alice, id, { machine_only: true })).status, 400, 'needs an annotation')
  t.equal((await send(svc, alice, 'pm', { machine_only: true, annotations: note, destinations: ['@bob'] })).status, 400)
  const list = await svc.call('GET', `/channels/${id}/messages`, { token: alice.token })
  t.same(list.body.data, [], 'machine-only messages are left out of lists by default')
  const withMachine = await svc.call('GET', `/channels/${id}/messages?include_machine=1&include_annotations=1`, { token: alice.token })
  t.same(withMachine.body.data[0].annotations, note)
})

t.test('a channel’s messages come newest first with meta.marker named for the channel', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const id = await room(svc, alice)
  const ids: string[] = []
  for (const text of ['one', 'two', 'three']) ids.push((await send(svc, alice, id, { text })).body.data.id)
  const res = await svc.call('GET', `/channels/${id}/messages?count=2`, { token: alice.token })
  t.same(
    res.body.data.map((m: { id: string }) => m.id),
    [ids[2], ids[1]],
  )
  t.equal(res.body.meta.more, true)
  t.same(res.body.meta.marker, { name: `channel:${id}` })
  t.equal(res.body.data[0].pagination_id, ids[2])
  await svc.call('POST', '/posts/marker', { token: alice.token, payload: { name: `channel:${id}`, id: ids[1] } })
  const after = await svc.call('GET', `/channels/${id}/messages?since_id=last_read`, { token: alice.token })
  t.same(
    after.body.data.map((m: { id: string }) => m.id),
    [ids[2]],
  )
  t.equal(after.body.meta.marker!.last_read_id, ids[1])
  t.equal((await svc.call('GET', `/channels/${id}/messages`, { token: svc.appToken })).status, 403, 'a user token lists messages')
})

t.test('only the creator deletes a message, even after losing access; it comes back stripped', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const id = await room(svc, alice, { writers: { user_ids: ['@bob'] } })
  const msg = (await send(svc, bob, id, { text: 'regret' })).body.data
  t.equal((await svc.call('DELETE', `/channels/${id}/messages/${msg.id}`, { token: alice.token })).status, 403, 'the owner is not the creator')
  await svc.call('PATCH', `/channels/${id}`, { token: alice.token, payload: { writers: { user_ids: [] } } })
  t.equal((await svc.call('GET', `/channels/${id}`, { token: bob.token })).status, 404, 'bob lost access')
  t.equal((await svc.call('GET', `/channels/${id}/messages/${msg.id}`, { token: bob.token })).status, 200, 'the creator still sees his message')
  const res = await svc.call('DELETE', `/channels/${id}/messages/${msg.id}`, { token: bob.token })
  t.equal(res.status, 200)
  t.equal(res.body.data.is_deleted, true)
  t.notOk('text' in res.body.data)
  t.notOk('html' in res.body.data)
  t.same(res.body.data.entities, { mentions: [], hashtags: [], links: [] })
  t.equal((await svc.call('DELETE', `/channels/${id}/messages/${msg.id}`, { token: bob.token })).status, 200, 'deleting twice answers it again')
  t.equal((await svc.call('DELETE', `/channels/${id}/messages/999`, { token: bob.token })).status, 404)
  const list = await svc.call('GET', `/channels/${id}/messages?include_deleted=0`, { token: alice.token })
  t.same(list.body.data, [])
})

t.test('GET /channels/messages answers the visible messages across channels', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const open = await room(svc, alice, { readers: { any_user: true } })
  const closed = await room(svc, alice)
  const a = (await send(svc, alice, open, { text: 'public' })).body.data.id
  const b = (await send(svc, alice, closed, { text: 'private' })).body.data.id
  const res = await svc.call('GET', `/channels/messages?ids=${a},${b},999`, { token: bob.token })
  t.same(
    res.body.data.map((m: { id: string }) => m.id),
    [a],
  )
  const ids = Array.from({ length: 201 }, (_, i) => i + 1).join(',')
  t.equal((await svc.call('GET', `/channels/messages?ids=${ids}`, { token: bob.token })).status, 400)
})

t.test('/users/me/messages lists alice’s own messages across channels', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const first = (await send(svc, alice, await room(svc, alice), { text: 'one' })).body.data.id
  const second = (await send(svc, alice, 'pm', { text: 'two', destinations: ['@bob'] })).body.data.id
  await send(svc, bob, 'pm', { text: 'not mine', destinations: ['@alice'] })
  const res = await svc.call('GET', '/users/me/messages', { token: alice.token })
  t.same(
    res.body.data.map((m: { id: string }) => m.id),
    [second, first],
  )
})

t.test('a public_messages token cannot send or read private messages', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice', { scopes: ['public_messages'] })
  await svc.person('bob')
  const res = await send(svc, alice, 'pm', { text: 'hi', destinations: ['@bob'] })
  t.equal(res.status, 403)
  const open = await room(svc, alice, { readers: { public: true } })
  t.equal((await send(svc, alice, open, { text: 'in public' })).status, 200)
})

t.test('anyone may read a message of a public channel by id, even without a token', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const open = await room(svc, alice, { readers: { public: true } })
  const msg = (await send(svc, alice, open, { text: 'hello world' })).body.data.id
  const res = await svc.call('GET', `/channels/${open}/messages/${msg}`, { token: svc.appToken })
  t.equal(res.body.data.text, 'hello world')
  t.equal((await svc.call('GET', `/channels/${open}/messages/${msg}`)).status, 401, 'the endpoint takes any token, not none')
  t.equal((await svc.call('GET', `/channels/999/messages/${msg}`, { token: alice.token })).status, 404, 'the message must be in that channel')
})

t.test('GET /channels/messages takes a repeated ids key as one list', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const open = await room(svc, alice, { readers: { any_user: true } })
  const closed = await room(svc, alice)
  const a = (await send(svc, alice, open, { text: 'one' })).body.data.id
  const b = (await send(svc, alice, open, { text: 'two' })).body.data.id
  const hidden = (await send(svc, alice, closed, { text: 'private' })).body.data.id
  const res = await svc.call('GET', `/channels/messages?ids=${a}&ids=${hidden},${b}`, { token: bob.token })
  t.equal(res.status, 200)
  t.same(res.body.data.map((m: { text: string }) => m.text).sort(), ['one', 'two'])
})

t.test('a message carries exactly the listed fields; destinations are input only', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const m = await sendMessage(svc, alice, 'pm', { text: 'hi #tea', destinations: [bob.user.id], annotations: [{ type: 'com.example.x', value: { a: 1 } }] })
  t.same(keys(m), MESSAGE_KEYS, 'no annotations unless asked, no reply_to on a root, no is_deleted on a live message')
  t.match(m, { id: /^\d+$/, channel_id: /^\d+$/, thread_id: m.id, machine_only: false, num_replies: 0, text: 'hi #tea' })
  t.same(m.entities.hashtags, [{ pos: 3, len: 4, name: 'tea' }])
  t.same(keys(m.source), ['client_id', 'link', 'name'])
  const page = await svc.call('GET', `/channels/${m.channel_id}/messages?include_annotations=1`, { token: bob.token })
  t.same(keys(page.body.data[0]), [...MESSAGE_KEYS, 'annotations', 'pagination_id'].sort())
  t.same(page.body.data[0].annotations, [{ type: 'com.example.x', value: { a: 1 } }])
  t.equal(page.body.data[0].pagination_id, m.id)
})
