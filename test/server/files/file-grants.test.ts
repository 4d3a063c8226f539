import t from 'tap'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'
import { fetchBytes, upload } from '../../fixtures/files.js'
import { openChannel, sendMessage } from '../../fixtures/channels.js'
import { listeningInstance, openWebSocket, readChunked } from '../../fixtures/streams.js'

async function privateFile(svc: Instance, who: Person) {
  const made = await upload(svc, who.token, [
    { name: 'type', data: 'com.example.notes' },
    { name: 'content', data: 'minutes', filename: 'minutes.txt', type: 'text/plain' },
  ])
  return made.body.data
}

async function publicFile(svc: Instance, who: Person, type = 'com.example.notes') {
  const made = await upload(svc, who.token, [
    { name: 'type', data: type },
    { name: 'public', data: '1' },
    { name: 'content', data: 'open', filename: 'open.txt', type: 'text/plain' },
  ])
  return made.body.data
}

const attached = (file: { id: string; file_token: string }) => [
  { type: 'com.example.attached', value: { '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'url' } } },
]

async function postWith(svc: Instance, who: Person, file: { id: string; file_token: string }) {
  const res = await svc.call('POST', '/stream/0/posts?include_post_annotations=1', { token: who.token, payload: { text: 'look', annotations: attached(file) } })
  return { id: res.body.data.id as string, value: res.body.data.annotations[0].value }
}

/** A user token of another app than the test client's. */
async function otherAppToken(svc: Instance, who: Person): Promise<string> {
  const { app } = await svc.domain.auth.apps.create({ name: 'Other Client', redirect_uris: ['http://other.example/callback'] })
  return (await svc.domain.auth.tokens.issueUserToken(app, who.user, ['basic', 'stream'])).access_token
}

t.test('the read token in a post’s annotation reads the private file for anyone who can see the post', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const file = await privateFile(svc, alice)
  const { value } = await postWith(svc, alice, file)
  t.match(value.file_token_read, /^p\d+\./, 'the token names the post')
  const other = await otherAppToken(svc, bob)
  for (const [who, token] of [
    ['anonymous', undefined],
    ['bob', bob.token],
    ['bob through another app', other],
  ] as const) {
    const res = await svc.call('GET', `/stream/0/files/${file.id}?file_token=${value.file_token_read}`, { token })
    t.equal(res.status, 200, `${who} reads the file`)
    t.equal(res.body.data.file_token_read, value.file_token_read, `${who} is shown the read token used`)
    const bytes = await fetchBytes(svc, `/stream/0/files/${file.id}/content?file_token=${value.file_token_read}`, token)
    t.equal(bytes.bytes.toString(), 'minutes', `${who} reads the content`)
  }
})

t.test('a post’s read token is refused once the post is deleted', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = await privateFile(svc, alice)
  const { id, value } = await postWith(svc, alice, file)
  t.equal((await svc.call('GET', `/stream/0/files/${file.id}?file_token=${value.file_token_read}`)).status, 200)
  t.equal((await svc.call('DELETE', `/stream/0/posts/${id}`, { token: alice.token })).status, 200)
  const res = await svc.call('GET', `/stream/0/files/${file.id}?file_token=${value.file_token_read}`)
  t.equal(res.status, 404)
  t.equal(res.body.meta.code, 404)
  const content = await svc.server.inject({ method: 'GET', url: `/stream/0/files/${file.id}/content?file_token=${value.file_token_read}` })
  t.equal(content.statusCode, 404, 'nor does it reach the content')
})

t.test('a read token edited to name another post is refused', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = await privateFile(svc, alice)
  const a = await postWith(svc, alice, file)
  const b = await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: 'another' } })
  const forged = String(a.value.file_token_read).replace(/^p\d+/, `p${b.body.data.id}`)
  t.not(forged, a.value.file_token_read)
  t.equal((await svc.call('GET', `/stream/0/files/${file.id}?file_token=${forged}`)).status, 404)
  t.equal((await svc.call('GET', `/stream/0/files/${file.id}?file_token=${a.value.file_token_read}`)).status, 200, 'the token as given still works')
})

t.test('a post’s read token does not read another file', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const [one, two] = [await privateFile(svc, alice), await privateFile(svc, alice)]
  const { value } = await postWith(svc, alice, one)
  t.equal((await svc.call('GET', `/stream/0/files/${two.id}?file_token=${value.file_token_read}`)).status, 404)
})

t.test('a message attachment’s read token works only for who may read the channel', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  const file = await privateFile(svc, alice)
  const channel = await openChannel(svc, alice, { writers: { user_ids: [String(bob.user.id)] } })
  const message = await sendMessage(svc, alice, channel.id, { text: 'see', annotations: attached(file) })
  const got = await svc.call('GET', `/stream/0/channels/${channel.id}/messages/${message.id}?include_message_annotations=1`, { token: bob.token })
  t.equal(got.status, 200)
  const token = got.body.data.annotations[0].value.file_token_read
  t.match(token, new RegExp(`^m${message.id}\\.`), 'the token names the message')
  t.equal((await svc.call('GET', `/stream/0/files/${file.id}?file_token=${token}`, { token: bob.token })).status, 200, 'bob, a reader, reads it')
  t.equal((await svc.call('GET', `/stream/0/files/${file.id}?file_token=${token}`, { token: carol.token })).status, 404, 'carol does not')
  t.equal((await svc.call('GET', `/stream/0/files/${file.id}?file_token=${token}`)).status, 404, 'nor does an anonymous call')
})

t.test('a private channel’s annotation hands out a token bound to the channel', async (t) => {
  const svc = await makeInstance(t)
  const [alice, carol] = await svc.people('alice', 'carol')
  const file = await privateFile(svc, alice)
  const channel = await openChannel(svc, alice, { annotations: attached(file) })
  const got = await svc.call('GET', `/stream/0/channels/${channel.id}?include_channel_annotations=1`, { token: alice.token })
  const token = got.body.data.annotations.find((a: { type: string }) => a.type === 'com.example.attached').value.file_token_read
  t.match(token, new RegExp(`^c${channel.id}\\.`))
  t.equal((await svc.call('GET', `/stream/0/files/${file.id}?file_token=${token}`, { token: alice.token })).status, 200)
  t.equal((await svc.call('GET', `/stream/0/files/${file.id}?file_token=${token}`, { token: carol.token })).status, 404)
})

t.test('a profile annotation hands out a token bound to the user, refused once the account is deleted', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const file = await privateFile(svc, alice)
  const res = await svc.call('PATCH', '/stream/0/users/me?include_user_annotations=1', { token: alice.token, payload: { annotations: attached(file) } })
  t.equal(res.status, 200, JSON.stringify(res.body.meta))
  const token = res.body.data.annotations[0].value.file_token_read
  t.match(token, new RegExp(`^u${alice.user.id}\\.`))
  t.equal((await svc.call('GET', `/stream/0/files/${file.id}?file_token=${token}`, { token: bob.token })).status, 200)
  await svc.domain.users.moderation.deleteUser(alice.user.id)
  t.equal((await svc.call('GET', `/stream/0/files/${file.id}?file_token=${token}`, { token: bob.token })).status, 404)
})

t.test('a mark written by a client is not rendered into a token', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const file = await privateFile(svc, alice)
  const res = await svc.call('POST', '/stream/0/posts?include_post_annotations=1', {
    token: bob.token,
    payload: {
      text: 'x',
      annotations: [{ type: 'com.example.steal', value: { file_token_read: `svc-file:token:${file.id}::`, url: `svc-file:token:${file.id}::` } }],
    },
  })
  t.equal(res.status, 200)
  t.same(res.body.data.annotations[0].value, {}, 'unsealed marks are dropped')
})

t.test('a public file’s own read token and url_permanent still read it, while it stays public', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = await publicFile(svc, alice)
  t.match(file.file_token_read, new RegExp(`^f${file.id}\\.`))
  t.equal((await fetchBytes(svc, file.url_permanent)).bytes.toString(), 'open')
  const res = await svc.call('GET', `/stream/0/files/${file.id}?file_token=${file.file_token_read}`)
  t.equal(res.body.data.file_token_read, file.file_token_read)
  await svc.call('PATCH', `/stream/0/files/${file.id}`, { token: alice.token, payload: { public: false } })
  t.equal((await svc.call('GET', `/stream/0/files/${file.id}?file_token=${file.file_token_read}`)).status, 404, 'refused once private')
})

t.test('a post event in a user stream carries the file’s url but no read token', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const alice = await svc.person('alice')
  const file = await privateFile(svc, alice)
  const stream = await openWebSocket(base, alice.token, 'include_post_annotations=1')
  t.teardown(() => stream.close())
  await svc.call('GET', `/stream/0/users/me/posts?connection_id=${stream.connectionId}`, { token: alice.token })
  const { value } = await postWith(svc, alice, file)
  t.type(value.file_token_read, 'string', 'the REST answer has the token')
  const frame = await stream.next()
  const streamed = frame.data[0].annotations[0].value
  t.equal(streamed.file_id, file.id)
  t.match(streamed.url, /\/files-content\//, 'the address stays')
  t.notOk('file_token_read' in streamed, 'the stream has no token')
})

/** Everything a presentation says about files that could reach their bytes. */
const fileAddresses = (value: unknown): string[] => JSON.stringify(value).match(/\/files(-content)?\/\d+[^"]*|file_token_read|\/f\/\w+/g) ?? []

t.test('a deleted post shows nothing of its attachment that reaches the bytes, to anyone', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const file = await privateFile(svc, alice)
  const { id } = await postWith(svc, alice, file)
  t.equal((await svc.call('DELETE', `/stream/0/posts/${id}`, { token: alice.token })).status, 200)
  for (const [who, token] of [
    ['anonymous', undefined],
    ['bob', bob.token],
    ['alice', alice.token],
  ] as const) {
    const res = await svc.call('GET', `/stream/0/posts/${id}?include_annotations=1`, { token })
    t.equal(res.status, 200)
    t.equal(res.body.data.is_deleted, true)
    t.equal(res.body.data.annotations[0].type, 'com.example.attached', `${who}: the annotation is still there`)
    t.same(fileAddresses(res.body.data), [], `${who}: no address, no token`)
  }
})

t.test('a deleted message shows nothing of its attachment that reaches the bytes', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const file = await privateFile(svc, alice)
  const pm = await sendMessage(svc, alice, 'pm', { text: 'see', destinations: [String(bob.user.id)], annotations: attached(file) })
  const url = `/stream/0/channels/${pm.channel_id}/messages/${pm.id}?include_message_annotations=1`
  t.not(fileAddresses((await svc.call('GET', url, { token: bob.token })).body.data), [], 'while it stands, bob gets the attachment')
  t.equal((await svc.call('DELETE', `/stream/0/channels/${pm.channel_id}/messages/${pm.id}`, { token: alice.token })).status, 200)
  const res = await svc.call('GET', url, { token: bob.token })
  t.equal(res.status, 200)
  t.equal(res.body.data.is_deleted, true)
  t.same(fileAddresses(res.body.data), [], 'no address, no token')
})

t.test('a deactivated channel shows nothing of its attachment that reaches the bytes', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = await privateFile(svc, alice)
  const channel = await openChannel(svc, alice, { annotations: attached(file) })
  t.equal((await svc.call('DELETE', `/stream/0/channels/${channel.id}`, { token: alice.token })).status, 200)
  const res = await svc.call('GET', `/stream/0/channels/${channel.id}?include_channel_annotations=1`, { token: alice.token })
  t.equal(res.body.data.is_inactive, true)
  t.same(fileAddresses(res.body.data.annotations), [])
})

t.test('a profile’s read token dies once alice takes the file out of her profile', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const [file, next] = [await privateFile(svc, alice), await privateFile(svc, alice)]
  const res = await svc.call('PATCH', '/stream/0/users/me?include_user_annotations=1', { token: alice.token, payload: { annotations: attached(file) } })
  const token = res.body.data.annotations[0].value.file_token_read
  t.equal((await svc.call('GET', `/stream/0/files/${file.id}?file_token=${token}`)).status, 200, 'while the profile carries it')
  const swapped = await svc.call('PATCH', '/stream/0/users/me?include_user_annotations=1', { token: alice.token, payload: { annotations: attached(next) } })
  t.equal((await svc.call('GET', `/stream/0/files/${file.id}?file_token=${token}`)).status, 404, 'replaced by another file: refused')
  t.equal((await fetchBytes(svc, `/stream/0/files/${file.id}/content?file_token=${token}`)).status, 404, 'nor does it reach the content')
  const nextToken = swapped.body.data.annotations[0].value.file_token_read
  t.equal((await svc.call('GET', `/stream/0/files/${next.id}?file_token=${nextToken}`)).status, 200, 'the new one’s token works')
  await svc.call('PATCH', '/stream/0/users/me', { token: alice.token, payload: { annotations: [{ type: 'com.example.attached' }] } })
  t.equal((await svc.call('GET', `/stream/0/files/${next.id}?file_token=${nextToken}`)).status, 404, 'the annotation removed: refused')
})

t.test('a channel’s or a public file’s read token dies once its annotations drop the file', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = await privateFile(svc, alice)
  const channel = await openChannel(svc, alice, { annotations: attached(file), readers: { public: true } })
  const got = await svc.call('GET', `/stream/0/channels/${channel.id}?include_channel_annotations=1`, { token: alice.token })
  const channelToken = got.body.data.annotations.find((a: { type: string }) => a.type === 'com.example.attached').value.file_token_read
  const cover = await publicFile(svc, alice, 'com.example.album')
  const album = await svc.call('PATCH', `/stream/0/files/${cover.id}?include_annotations=1`, {
    token: alice.token,
    payload: { annotations: attached(file) },
  })
  const fileToken = album.body.data.annotations[0].value.file_token_read
  t.match(fileToken, new RegExp(`^f${cover.id}\\.`))
  for (const token of [channelToken, fileToken]) t.equal((await svc.call('GET', `/stream/0/files/${file.id}?file_token=${token}`)).status, 200)
  await svc.call('PUT', `/stream/0/channels/${channel.id}`, { token: alice.token, payload: { annotations: [{ type: 'com.example.attached' }] } })
  await svc.call('PATCH', `/stream/0/files/${cover.id}`, { token: alice.token, payload: { annotations: [{ type: 'com.example.attached' }] } })
  for (const token of [channelToken, fileToken])
    t.equal((await svc.call('GET', `/stream/0/files/${file.id}?file_token=${token}`)).status, 404, token.slice(0, 1))
})

t.test('a public post in a user stream names a public file by an address that carries no token', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const alice = await svc.person('alice')
  const file = await publicFile(svc, alice, 'com.example.photo')
  const stream = await openWebSocket(base, alice.token, 'include_post_annotations=1')
  t.teardown(() => stream.close())
  await svc.call('GET', `/stream/0/users/me/posts?connection_id=${stream.connectionId}`, { token: alice.token })
  const annotations = [
    { type: 'com.example.url', value: { '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'url' } } },
    { type: 'com.example.meta', value: { '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'metadata' } } },
  ]
  const res = await svc.call('POST', '/stream/0/posts?include_post_annotations=1', { token: alice.token, payload: { text: 'look', annotations } })
  t.match(res.body.data.annotations[0].value.url, /file_token=/, 'the REST answer keeps its permanent address')
  const frame = await stream.next()
  const [url, meta] = frame.data[0].annotations.map((a: { value: Record<string, string> }) => a.value)
  for (const address of [url.url, meta.url_permanent]) {
    t.match(address, /\/f\/[0-9a-z]+$/, 'the short address')
    t.notMatch(address, /token/)
    t.equal((await fetchBytes(svc, address)).bytes.toString(), 'open', `${address} reads the file`)
  }
})

t.test('file events name a public file by an address that carries no token', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const alice = await svc.person('alice')
  const stream = await openWebSocket(base, alice.token)
  t.teardown(() => stream.close())
  await svc.call('GET', `/stream/0/users/me/files?connection_id=${stream.connectionId}`, { token: alice.token })
  const app = (await svc.call('POST', '/stream/0/streams', { token: svc.appToken, payload: { object_types: ['file'], type: 'long_poll' } })).body.data
  const appClient = await readChunked(app.endpoint)
  t.teardown(() => appClient.close())
  await publicFile(svc, alice, 'com.example.photo')
  const [user, appFrame] = [(await stream.next()).data[0], (await appClient.next()).data]
  for (const [where, data] of [
    ['user stream', user],
    ['app stream', appFrame],
  ]) {
    t.match(data.url_permanent, /\/f\/[0-9a-z]+\.txt$/, `${where}: the short address`)
    t.same(
      fileAddresses(data).filter((a) => a.includes('token')),
      [],
      `${where}: no token anywhere`,
    )
  }
})
