/**
 * Channel and message annotations over HTTP: when they are shown, how an
 * update changes them, the metadata types each kind of channel takes, and
 * the annotations the server keeps on broadcast channels and their messages.
 */
import t from 'tap'
import { openChannel, sendMessage } from '../../fixtures/channels.js'
import { makeInstance } from '../../fixtures/instance.js'

t.test('include_channel_annotations shows the channel’s annotations only; include_annotations shows those of the recent message too', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const c = await openChannel(svc, alice, { annotations: [{ type: 'com.example.topic', value: { t: 'tea' } }] })
  await sendMessage(svc, alice, c.id, { text: 'one', annotations: [{ type: 'com.example.mood', value: { m: 'calm' } }] })
  const channelOnly = (await svc.call('GET', `/channels/${c.id}?include_channel_annotations=1&include_recent_message=1`, { token: alice.token })).body.data
  t.same(channelOnly.annotations, [{ type: 'com.example.topic', value: { t: 'tea' } }])
  t.notOk('annotations' in channelOnly.recent_message)
  const all = (await svc.call('GET', `/channels/${c.id}?include_annotations=1&include_recent_message=1`, { token: alice.token })).body.data
  t.same(all.annotations, [{ type: 'com.example.topic', value: { t: 'tea' } }])
  t.same(all.recent_message.annotations, [{ type: 'com.example.mood', value: { m: 'calm' } }])
})

t.test('an annotation update touches only the types it names; a type without a value removes it', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const c = await openChannel(svc, alice, {
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
  const [alice, bob] = await svc.people('alice', 'bob')
  const news = await openChannel(svc, alice, {
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
  const m = await sendMessage(svc, alice, news.id, {
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
  const room = await openChannel(svc, alice)
  const news = await openChannel(svc, alice, { type: 'svc.core.broadcast' })
  const post = (channel: string, subject: string) =>
    svc.call('POST', `/channels/${channel}/messages`, {
      token: alice.token,
      payload: { text: 'hi', annotations: [{ type: 'svc.core.broadcast.message.metadata', value: { subject } }] },
    })
  t.equal((await post(room.id, 'Hello')).status, 400)
  t.equal((await post(news.id, 'x'.repeat(129))).status, 400)
  t.equal((await post(news.id, 'x'.repeat(128))).status, 200)
})
