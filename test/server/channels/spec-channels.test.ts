/**
 * The Channel, Message and Stream marker resources, the channel and message
 * endpoints and their state changes, checked statement by statement against
 * the API description: exact keys, ids as strings, token kinds, deactivation,
 * the muted list, annotation updates and the annotations the server keeps on
 * broadcast channels. What channels/messages/markers/subscriptions tests
 * already pin is not repeated here.
 */
import t from 'tap'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'

const chat = async (svc: Instance, owner: Person, body: Record<string, unknown> = {}) =>
  (await svc.call('POST', '/stream/0/channels', { token: owner.token, payload: { type: 'com.example.chat', ...body } })).body.data

const send = async (svc: Instance, who: Person, channel: string, payload: Record<string, unknown>) =>
  (await svc.call('POST', `/stream/0/channels/${channel}/messages`, { token: who.token, payload })).body.data

const keys = (o: object): string[] => Object.keys(o).sort()

const CHANNEL_KEYS = [
  'counts',
  'editors',
  'has_unread',
  'id',
  'is_inactive',
  'owner',
  'readers',
  'type',
  'writers',
  'you_can_edit',
  'you_muted',
  'you_subscribed',
]
const ACL_KEYS = ['any_user', 'immutable', 'public', 'user_ids', 'you']
const MESSAGE_KEYS = ['channel_id', 'created_at', 'entities', 'html', 'id', 'machine_only', 'num_replies', 'source', 'text', 'thread_id', 'user']

t.test('a channel carries exactly the listed fields, ids as strings, optional ones only when they apply', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const c = await chat(svc, alice, { writers: { user_ids: [String(bob.user.id)] } })
  t.same(keys(c), CHANNEL_KEYS, 'no recent_message_id before a message, no annotations unless asked')
  for (const name of ['readers', 'writers', 'editors']) t.same(keys(c[name]), ACL_KEYS, name)
  t.same(c.writers.user_ids, [String(bob.user.id)])
  t.equal(c.owner.id, String(alice.user.id))
  t.same(c.counts, { messages: 0, subscribers: 1 })
  t.equal(c.has_unread, false)
  t.equal(c.is_inactive, false)
  const m = await send(svc, bob, c.id, { text: 'hello' })
  const list = await svc.call('GET', '/users/me/channels', { token: alice.token })
  const listed = list.body.data[0]
  t.same(keys(listed), [...CHANNEL_KEYS, 'pagination_id', 'recent_message_id'].sort())
  t.equal(listed.recent_message_id, m.id)
  t.equal(listed.pagination_id, c.id)
  t.same(list.body.meta, { code: 200, more: false, min_id: c.id, max_id: c.id })
})

t.test('a plain reader sees the subscriber count too, as the counts object promises', async (t) => {
  // The original API showed counts.subscribers to editors only; the description lists it for every channel, and the subscriber list is open to readers anyway.
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const c = await chat(svc, alice, { readers: { any_user: true } })
  const seen = await svc.call('GET', `/channels/${c.id}`, { token: bob.token })
  t.equal(seen.body.data.editors.you, false)
  t.same(seen.body.data.counts, { messages: 0, subscribers: 1 })
})

t.test('a message carries exactly the listed fields; destinations are input only', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const m = await send(svc, alice, 'pm', { text: 'hi #tea', destinations: [bob.user.id], annotations: [{ type: 'com.example.x', value: { a: 1 } }] })
  t.same(keys(m), MESSAGE_KEYS, 'no annotations unless asked, no reply_to on a root, no is_deleted on a live message')
  t.match(m, { id: /^\d+$/, channel_id: /^\d+$/, thread_id: m.id, machine_only: false, num_replies: 0, text: 'hi #tea' })
  t.same(m.entities.hashtags, [{ pos: 3, len: 4, name: 'tea' }])
  t.same(keys(m.source), ['client_id', 'link', 'name'])
  const page = await svc.call('GET', `/channels/${m.channel_id}/messages?include_annotations=1`, { token: bob.token })
  t.same(keys(page.body.data[0]), [...MESSAGE_KEYS, 'annotations', 'pagination_id'].sort())
  t.same(page.body.data[0].annotations, [{ type: 'com.example.x', value: { a: 1 } }])
  t.equal(page.body.data[0].pagination_id, m.id)
})

t.test('a channel marker shows as {name} while unset, then with every marker field; never for an app token', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const c = await chat(svc, alice, { readers: { public: true } })
  const m = await send(svc, alice, c.id, { text: 'one' })
  t.same((await svc.call('GET', `/channels/${c.id}?include_marker=1`, { token: alice.token })).body.data.marker, { name: `channel:${c.id}` })
  await svc.call('POST', '/posts/marker', { token: alice.token, payload: { name: `channel:${c.id}`, id: m.id, percentage: 25 } })
  const marker = (await svc.call('GET', `/channels/${c.id}?include_marker=1`, { token: alice.token })).body.data.marker
  t.same(keys(marker), ['id', 'last_read_id', 'name', 'percentage', 'updated_at', 'version'])
  t.match(marker, {
    id: m.id,
    last_read_id: m.id,
    name: `channel:${c.id}`,
    percentage: 25,
    updated_at: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    version: /^[0-9a-f]+$/,
  })
  t.notOk('marker' in (await svc.call('GET', `/channels/${c.id}`, { token: alice.token })).body.data, 'only with include_marker=1')
  t.notOk('marker' in (await svc.call('GET', `/channels/${c.id}?include_marker=1`, { token: svc.appToken })).body.data, 'user tokens only')
})

t.test('include_channel_annotations shows the channel’s annotations only; include_annotations shows those of the recent message too', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const c = await chat(svc, alice, { annotations: [{ type: 'com.example.topic', value: { t: 'tea' } }] })
  await send(svc, alice, c.id, { text: 'one', annotations: [{ type: 'com.example.mood', value: { m: 'calm' } }] })
  const channelOnly = (await svc.call('GET', `/channels/${c.id}?include_channel_annotations=1&include_recent_message=1`, { token: alice.token })).body.data
  t.same(channelOnly.annotations, [{ type: 'com.example.topic', value: { t: 'tea' } }])
  t.notOk('annotations' in channelOnly.recent_message)
  const all = (await svc.call('GET', `/channels/${c.id}?include_annotations=1&include_recent_message=1`, { token: alice.token })).body.data
  t.same(all.annotations, [{ type: 'com.example.topic', value: { t: 'tea' } }])
  t.same(all.recent_message.annotations, [{ type: 'com.example.mood', value: { m: 'calm' } }])
})

t.test('channel_types filters the inbox too', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await chat(svc, alice)
  const pm = await send(svc, bob, 'pm', { text: 'psst', destinations: ['@alice'] })
  const res = await svc.call('GET', '/channels?channel_types=svc.core.pm,com.example.other', { token: alice.token })
  t.same(
    res.body.data.map((c: { id: string }) => c.id),
    [pm.channel_id],
  )
})

t.test('deactivation: an editor cannot, a PM channel cannot be, messages stay readable, search hides it unless include_inactive=1', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const meta = [{ type: 'svc.core.channel.metadata', value: { title: 'Tea room', description: 'about tea' } }]
  const c = await chat(svc, alice, { editors: { user_ids: ['@bob'] }, readers: { public: true }, annotations: meta })
  const m = await send(svc, bob, c.id, { text: 'kept' })
  t.equal((await svc.call('DELETE', `/channels/${c.id}`, { token: bob.token })).status, 403, 'editors cannot deactivate')
  const pm = await send(svc, alice, 'pm', { text: 'hi', destinations: ['@bob'] })
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
  const c = await chat(svc, alice)
  const basic = await svc.domain.tokens.issueUserToken(svc.app, alice.user, ['basic'])
  const res = await svc.call('DELETE', `/channels/${c.id}`, { token: basic.access_token })
  t.equal(res.status, 200)
  t.equal(res.body.data.is_inactive, true)
  t.equal((await svc.call('DELETE', `/channels/${c.id}`, { token: svc.appToken })).status, 403, 'an app token is refused')
})

t.test('each endpoint refuses the wrong kind of token with 403', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const basic = await svc.person('bob', { scopes: ['basic'] })
  const publicOnly = await svc.person('carol', { scopes: ['public_messages'] })
  const c = await chat(svc, alice, { readers: { public: true } })
  const m = await send(svc, alice, c.id, { text: 'hello' })
  const app = { token: svc.appToken }
  const cases: [string, string, string, unknown?][] = [
    [app.token, 'PATCH', `/channels/${c.id}`, { annotations: [] }],
    [app.token, 'GET', '/users/me/channels'],
    [app.token, 'GET', '/users/me/channels/muted'],
    [app.token, 'POST', `/channels/${c.id}/mute`],
    [app.token, 'GET', '/users/me/channels/broadcast/num_unread'],
    [app.token, 'POST', `/channels/${c.id}/messages`, { text: 'from an app' }],
    [app.token, 'DELETE', `/channels/${c.id}/messages/${m.id}`],
    [app.token, 'GET', '/users/me/messages'],
    [basic.token, 'GET', `/channels/${c.id}`],
    [basic.token, 'GET', '/users/me/channels'],
    [basic.token, 'POST', `/channels/${c.id}/messages`, { text: 'no scope' }],
    [basic.token, 'DELETE', `/channels/${c.id}/messages/${m.id}`],
    [basic.token, 'GET', '/users/me/messages'],
    [publicOnly.token, 'GET', '/users/me/channels/broadcast/num_unread'],
    [publicOnly.token, 'DELETE', '/users/me/channels/broadcast/num_unread'],
  ]
  for (const [token, method, url, payload] of cases) {
    const res = await svc.call(method, url, { token, payload })
    t.equal(res.status, 403, `${method} ${url}`)
    t.equal(res.body.meta.code, 403)
  }
  t.equal((await svc.call('GET', `/channels/${c.id}`, app)).status, 200, 'any token reads a channel')
  t.equal((await svc.call('GET', `/channels/messages?ids=${m.id}`, app)).body.data[0].id, m.id, 'any token reads messages by id')
})

t.test('GET /channels takes at most 200 ids', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',')
  t.equal((await svc.call('GET', `/channels?ids=${ids(200)}`, { token: alice.token })).status, 200)
  const res = await svc.call('GET', `/channels?ids=${ids(201)}`, { token: alice.token })
  t.equal(res.status, 400)
  t.match(res.body.meta.error_message, /^Bad Request: /)
})

t.test('the muted list ignores the channel general parameters', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const c = await chat(svc, alice, { readers: { public: true }, annotations: [{ type: 'com.example.topic', value: { t: 1 } }] })
  await send(svc, alice, c.id, { text: 'hello' })
  await svc.call('POST', `/channels/${c.id}/mute`, { token: bob.token })
  const res = await svc.call(
    'GET',
    '/users/me/channels/muted?channel_types=com.example.other&include_read=0&include_annotations=1&include_recent_message=1&include_marker=1',
    { token: bob.token },
  )
  t.same(
    res.body.data.map((x: { id: string }) => x.id),
    [c.id],
  )
  t.same(keys(res.body.data[0]), [...CHANNEL_KEYS, 'recent_message_id'].sort())
  t.same(res.body.meta, { code: 200 }, 'not paginated')
})

t.test('a client may PUT back the whole channel it fetched, immutable ACLs included, as long as it changes no ACL', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const c = await chat(svc, alice, { readers: { user_ids: ['@bob'], immutable: true }, writers: { any_user: true } })
  const fetched = (await svc.call('GET', `/channels/${c.id}`, { token: alice.token })).body.data
  const put = await svc.call('PUT', `/channels/${c.id}?include_annotations=1`, {
    token: alice.token,
    payload: { ...fetched, annotations: [{ type: 'com.example.topic', value: { t: 'new' } }] },
  })
  t.equal(put.status, 200)
  t.same(put.body.data.readers, { any_user: false, immutable: true, public: false, user_ids: [String(bob.user.id)], you: true })
  t.same(put.body.data.annotations, [{ type: 'com.example.topic', value: { t: 'new' } }])
  const changed = await svc.call('PUT', `/channels/${c.id}`, { token: alice.token, payload: { ...fetched, readers: { ...fetched.readers, user_ids: [] } } })
  t.equal(changed.status, 400)
  t.equal(changed.body.meta.error_message, 'Bad Request: readers of this channel are immutable')
})

t.test('an annotation update touches only the types it names; a type without a value removes it', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const c = await chat(svc, alice, {
    annotations: [
      { type: 'com.example.topic', value: { t: 'tea' } },
      { type: 'com.example.color', value: { c: 'green' } },
      { type: 'com.example.topic', value: { t: 'coffee' } },
    ],
  })
  const created = await svc.call('GET', `/channels/${c.id}?include_channel_annotations=1`, { token: alice.token })
  t.same(
    created.body.data.annotations,
    [
      { type: 'com.example.topic', value: { t: 'coffee' } },
      { type: 'com.example.color', value: { c: 'green' } },
    ],
    'one annotation per type, the last given',
  )
  const res = await svc.call('PATCH', `/channels/${c.id}?include_channel_annotations=1`, {
    token: alice.token,
    payload: {
      annotations: [{ type: 'com.example.color' }, { type: 'com.example.size', value: { s: 3 } }, { type: 'com.example.topic', value: { t: 'mate' } }],
    },
  })
  t.equal(res.status, 200)
  t.same(res.body.data.annotations, [
    { type: 'com.example.topic', value: { t: 'mate' } },
    { type: 'com.example.size', value: { s: 3 } },
  ])
})

t.test('channel metadata types fit their kind of channel and are checked', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const create = (type: string, annotations: unknown[]) => svc.call('POST', '/channels', { token: alice.token, payload: { type, annotations } })
  const refused: [string, unknown[]][] = [
    ['svc.core.broadcast', [{ type: 'svc.core.channel.metadata', value: { title: 'News', description: 'daily' } }]],
    ['com.example.chat', [{ type: 'svc.core.broadcast.metadata', value: { title: 'News' } }]],
    ['com.example.chat', [{ type: 'svc.core.broadcast.freq', value: { avg_freq: 'often', intensity: 1 } }]],
    ['com.example.chat', [{ type: 'svc.core.channel.metadata', value: { title: 'x'.repeat(76), description: 'long title' } }]],
    ['com.example.chat', [{ type: 'svc.core.channel.metadata', value: { title: 'Tags', description: 'too many', tags: ['a', 'b', 'c', 'd'] } }]],
    ['com.example.chat', [{ type: 'svc.core.fallback_url', value: { url: 'not a url' } }]],
    ['svc.core.broadcast', [{ type: 'svc.core.broadcast.metadata', value: { title: 'News', description: 'x'.repeat(1001) } }]],
  ]
  for (const [type, annotations] of refused) {
    const res = await create(type, annotations)
    t.equal(res.status, 400, `${type} ${JSON.stringify(annotations).slice(0, 70)}`)
    t.match(res.body.meta.error_message, /^Bad Request: /)
  }
  const own = await create('com.example.chat', [{ type: 'svc.core.fallback_url', value: { url: 'https://example.com/room' } }])
  t.equal(own.status, 200, 'any channel may name its own fallback URL')
})

t.test('a broadcast channel shows a read-only fallback URL and its publishing frequency; its messages show a fallback URL', async (t) => {
  const svc = await makeInstance(t, { public_url: 'https://svc.example' })
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const news = await chat(svc, alice, {
    type: 'svc.core.broadcast',
    readers: { public: true },
    annotations: [
      { type: 'svc.core.broadcast.metadata', value: { title: 'Tea news', description: 'weekly', tags: ['tea'] } },
      { type: 'svc.core.fallback_url', value: { url: 'https://elsewhere.example' } },
      { type: 'svc.core.broadcast.freq', value: { avg_freq: 'hourly', intensity: 99 } },
    ],
  })
  const code = Number(news.id).toString(36)
  const fresh = (await svc.call('GET', `/channels/${news.id}?include_channel_annotations=1`, { token: bob.token })).body.data
  t.same(
    fresh.annotations,
    [
      { type: 'svc.core.broadcast.metadata', value: { title: 'Tea news', description: 'weekly' } },
      { type: 'svc.core.fallback_url', value: { url: `https://svc.example/c/${code}` } },
      { type: 'svc.core.broadcast.freq', value: { avg_freq: 'Less than one message a month', intensity: 0 } },
    ],
    'the client’s fallback_url, freq and tags are dropped; the server’s are added',
  )
  const m = await send(svc, alice, news.id, {
    text: 'issue 1',
    annotations: [
      { type: 'svc.core.broadcast.message.metadata', value: { subject: 'First issue' } },
      { type: 'svc.core.fallback_url', value: { url: 'https://elsewhere.example/1' } },
    ],
  })
  const withOne = (await svc.call('GET', `/channels/${news.id}?include_annotations=1&include_recent_message=1`, { token: bob.token })).body.data
  t.same(
    withOne.annotations[2],
    { type: 'svc.core.broadcast.freq', value: { avg_freq: 'About 1 message a day', intensity: 1 } },
    'a channel younger than a day counts as one day old',
  )
  t.same(withOne.recent_message.annotations, [
    { type: 'svc.core.broadcast.message.metadata', value: { subject: 'First issue' } },
    { type: 'svc.core.fallback_url', value: { url: `https://svc.example/c/${code}/m/${Number(m.id).toString(36)}` } },
  ])
  t.notOk('annotations' in (await svc.call('GET', `/channels/${news.id}`, { token: bob.token })).body.data, 'annotations only when asked for')
  const stored = await svc.store.read.channels.get(Number(news.id))
  t.same(
    stored?.annotations.map((a) => a.type),
    ['svc.core.broadcast.metadata'],
    'the server-kept annotations are not stored',
  )
  const edited = await svc.call('PATCH', `/channels/${news.id}?include_channel_annotations=1`, {
    token: alice.token,
    payload: { annotations: [{ type: 'svc.core.fallback_url', value: { url: 'https://elsewhere.example' } }] },
  })
  t.equal(edited.body.data.annotations[1].value.url, `https://svc.example/c/${code}`, 'not settable by an update either')
})

t.test('broadcast message metadata belongs to broadcast messages, with a subject of at most 128 characters', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const room = await chat(svc, alice)
  const news = await chat(svc, alice, { type: 'svc.core.broadcast' })
  const post = (channel: string, subject: string) =>
    svc.call('POST', `/channels/${channel}/messages`, {
      token: alice.token,
      payload: { text: 'hi', annotations: [{ type: 'svc.core.broadcast.message.metadata', value: { subject } }] },
    })
  t.equal((await post(room.id, 'Hello')).status, 400)
  t.equal((await post(news.id, 'x'.repeat(129))).status, 400)
  t.equal((await post(news.id, 'x'.repeat(128))).status, 200)
})

t.test('a marker’s percentage is a number: an integer comes back as sent, and so does a fraction', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const whole = await svc.call('POST', '/posts/marker', { token: alice.token, payload: { name: 'unified', id: 4, percentage: 50 } })
  t.equal(whole.body.data.percentage, 50)
  const part = await svc.call('POST', '/posts/marker', { token: alice.token, payload: { name: 'unified', id: 4, percentage: 12.5 } })
  t.equal(part.status, 200)
  t.equal(part.body.data.percentage, 12.5)
  t.equal(part.body.data.last_read_id, '4')
})
