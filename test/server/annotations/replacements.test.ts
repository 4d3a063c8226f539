import t from 'tap'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'
import { flatImage } from '../../fixtures/images.js'
import { fetchBytes, upload } from '../../fixtures/files.js'
import { openChannel, sendMessage } from '../../fixtures/channels.js'

const HOUR_MS = 60 * 60_000

async function imageFile(svc: Instance, who: Person, isPublic = false) {
  const made = await upload(svc, who.token, [
    { name: 'type', data: 'com.example.photo' },
    ...(isPublic ? [{ name: 'public', data: '1' }] : []),
    { name: 'content', data: await flatImage(1200, 800), filename: 'beach.png', type: 'image/png' },
  ])
  return made.body.data
}

async function textFile(svc: Instance, who: Person) {
  const made = await upload(svc, who.token, [
    { name: 'type', data: 'com.example.notes' },
    { name: 'content', data: 'minutes', filename: 'minutes.txt', type: 'text/plain' },
  ])
  return made.body.data
}

const post = (svc: Instance, who: Person, annotations: unknown) =>
  svc.call('POST', '/stream/0/posts?include_post_annotations=1', { token: who.token, payload: { text: 'look', annotations } })

t.test('a post with +svc.core.file in url format stores the file id, read token and a working url', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = await textFile(svc, alice)
  const res = await post(svc, alice, [
    { type: 'com.example.attached', value: { note: 'kept', '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'url' } } },
  ])
  t.equal(res.status, 200)
  const value = res.body.data.annotations[0].value
  t.equal(value.note, 'kept', 'other keys of the value are kept')
  t.equal(value.file_id, file.id)
  t.type(value.file_token_read, 'string')
  t.notOk('+svc.core.file' in value)
  t.match(value.url, /^http/, 'the url is absolute')
  t.ok(Date.parse(value.url_expires) - Date.now() >= HOUR_MS, 'a private file is reached through a url living at least an hour')
  const got = await fetchBytes(svc, value.url)
  t.equal(got.status, 200)
  t.equal(got.bytes.toString(), 'minutes')
  t.notOk(JSON.stringify(res.body).includes(file.file_token), 'the write token is not in the answer')
  const again = await svc.call('GET', `/stream/0/posts/${res.body.data.id}?include_annotations=1`, { token: alice.token })
  t.same(again.body.data.annotations, res.body.data.annotations, 'the stored value is what was answered')
})

t.test('a public file in a public post gets a permanent url', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = await imageFile(svc, alice, true)
  const res = await post(svc, alice, [
    { type: 'com.example.attached', value: { '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'url' } } },
  ])
  const value = res.body.data.annotations[0].value
  t.match(value.url, /\/files\/\d+\/content\?file_token=/)
  t.notOk('url_expires' in value)
  t.equal((await fetchBytes(svc, value.url)).status, 200)
})

t.test('a post with +svc.core.file in metadata format holds the File without annotations, source and user', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = await imageFile(svc, alice)
  const res = await post(svc, alice, [
    { type: 'com.example.attached', value: { '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'metadata' } } },
  ])
  const value = res.body.data.annotations[0].value
  t.match(value, {
    file_id: file.id,
    id: file.id,
    kind: 'image',
    mime_type: 'image/png',
    sha1: file.sha1,
    size: file.size,
    type: 'com.example.photo',
    public: false,
  })
  t.same(value.image_info, { width: 1200, height: 800 })
  t.same(value.derived_files.image_thumb_200s.image_info, { width: 200, height: 200 })
  t.match(value.derived_files.image_thumb_200s.url, /^http/)
  for (const k of ['annotations', 'source', 'user', 'file_token']) t.notOk(k in value, `${k} is left out`)
})

t.test('svc.core.oembed from an image file is a photo with both thumbnails and an immediate url', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = await imageFile(svc, alice, true)
  const res = await post(svc, alice, [
    {
      type: 'svc.core.oembed',
      value: { provider_name: 'Mine', width: 1, type: 'rich', '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'oembed' } },
    },
  ])
  t.equal(res.status, 200, JSON.stringify(res.body.meta))
  const value = res.body.data.annotations[0].value
  t.match(value, { version: '1.0', type: 'photo', width: 1200, height: 800, provider_name: 'Mine', file_id: file.id })
  const large = file.derived_files.image_thumb_960r.image_info
  t.match(value, { thumbnail_width: 200, thumbnail_height: 200, thumbnail_large_width: large.width, thumbnail_large_height: large.height })
  t.match(value.url, /\/files\/\d+\/content\?file_token=/, 'a public parent gets the permanent url')
  t.ok(Date.parse(value.url_immediate_expires) - Date.now() >= HOUR_MS)
  for (const url of [value.thumbnail_url, value.thumbnail_large_url, value.url_immediate]) t.equal((await fetchBytes(svc, url)).status, 200, url)
})

t.test('svc.core.oembed from a file that is not an image is a link', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = await textFile(svc, alice)
  const res = await post(svc, alice, [
    { type: 'svc.core.oembed', value: { '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'oembed' } } },
  ])
  t.equal(res.status, 200, JSON.stringify(res.body.meta))
  const value = res.body.data.annotations[0].value
  t.match(value, { version: '1.0', type: 'link', file_id: file.id })
  t.notOk('thumbnail_url' in value)
})

t.test('a message with svc.core.attachments lists its files, with short-lived urls', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const one = await textFile(svc, alice)
  const two = await imageFile(svc, alice, true)
  const channel = await openChannel(svc, alice)
  const list = [one, two].map((f) => ({ file_id: f.id, file_token: f.file_token, format: 'metadata' }))
  const sent = await svc.call('POST', `/stream/0/channels/${channel.id}/messages?include_message_annotations=1`, {
    token: alice.token,
    payload: { text: 'files', annotations: [{ type: 'svc.core.attachments', value: { '+svc.core.file_list': list } }] },
  })
  t.equal(sent.status, 200, JSON.stringify(sent.body.meta))
  const value = sent.body.data.annotations[0].value
  t.notOk('+svc.core.file_list' in value)
  t.same(
    value['svc.core.file_list'].map((f: { file_id: string }) => f.file_id),
    [one.id, two.id],
  )
  t.ok(value['svc.core.file_list'].every((f: { url_expires?: string }) => typeof f.url_expires === 'string'))
  t.notOk(JSON.stringify(sent.body).includes(one.file_token) || JSON.stringify(sent.body).includes(two.file_token))
})

t.test('a wrong or foreign token grants nothing and leaks nothing', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const mine = await textFile(svc, alice)
  const theirs = await textFile(svc, bob)
  const res = await post(svc, alice, [
    { type: 'com.example.a', value: { '+svc.core.file': { file_id: mine.id, file_token: 'not-the-token', format: 'url' } } },
    { type: 'com.example.b', value: { '+svc.core.file': { file_id: theirs.id, file_token: theirs.file_token, format: 'url' } } },
    { type: 'com.example.c', value: { '+svc.core.file': { file_id: '99999', file_token: 'x', format: 'url' } } },
  ])
  t.equal(res.status, 200)
  for (const a of res.body.data.annotations) t.same(a.value, {}, `${a.type} holds nothing about the file`)
  const text = JSON.stringify(res.body)
  t.notOk(text.includes(theirs.file_token) || text.includes('not-the-token'), 'no token is echoed')
  const message = await sendMessage(svc, alice, (await openChannel(svc, alice)).id, {
    text: 'x',
    annotations: [{ type: 'com.example.a', value: { '+svc.core.file': { file_id: theirs.id, file_token: theirs.file_token, format: 'metadata' } } }],
  })
  t.notOk(JSON.stringify(message).includes(theirs.file_token))
})

t.test('+svc.core.user in basic format answers id, username, name and avatar_image', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const res = await post(svc, alice, [
    { type: 'svc.core.phototag', value: { x: 10, y: 20, '+svc.core.user': { user_id: '@bob', format: 'basic' } } },
    { type: 'com.example.me', value: { '+svc.core.user': { user_id: 'me', format: 'basic' } } },
    { type: 'com.example.nobody', value: { '+svc.core.user': { user_id: '@nobody', format: 'basic' } } },
  ])
  t.equal(res.status, 200, JSON.stringify(res.body.meta))
  const [tag, me, nobody] = res.body.data.annotations.map((a: { value: Record<string, any> }) => a.value)
  t.same(Object.keys(tag).sort(), ['avatar_image', 'id', 'name', 'username', 'x', 'y'])
  t.match(tag, { id: String(bob.user.id), username: 'bob', x: 10, y: 20 })
  t.match(tag.avatar_image.url, /^http.*\/images\//)
  t.equal(me.id, String(alice.user.id))
  t.same(nobody, {}, 'an unknown user is not filled in')
})

t.test('+svc.core.user in full format answers the User', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const res = await post(svc, alice, [{ type: 'com.example.who', value: { '+svc.core.user': { user_id: bob.user.id, format: 'full' } } }])
  const value = res.body.data.annotations[0].value
  t.match(value, { id: String(bob.user.id), username: 'bob', type: 'human', description: { text: String } })
  t.match(value.canonical_url, /^http.*\/@bob$/)
  t.match(value.cover_image.url, /^http/)
})

t.test('a user profile takes a file through +svc.core.file with a permanent url for a public file', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = await imageFile(svc, alice, true)
  const res = await svc.call('PATCH', '/stream/0/users/me?include_user_annotations=1', {
    token: alice.token,
    payload: { annotations: [{ type: 'com.example.banner', value: { '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'url' } } }] },
  })
  t.equal(res.status, 200, JSON.stringify(res.body.meta))
  const value = res.body.data.annotations.find((a: { type: string }) => a.type === 'com.example.banner').value
  t.equal(value.file_id, file.id)
  t.match(value.url, /^http.*\/files\/\d+\/content\?file_token=/)
  t.notOk(JSON.stringify(res.body).includes(file.file_token))
})

t.test('a channel readable by anyone takes a file with a permanent url, a private one with a short-lived url', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = await imageFile(svc, alice, true)
  const annotations = [{ type: 'com.example.logo', value: { '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'url' } } }]
  const open = await svc.call('POST', '/stream/0/channels?include_channel_annotations=1', {
    token: alice.token,
    payload: { type: 'com.example.chat', readers: { public: true }, annotations },
  })
  t.equal(open.status, 200, JSON.stringify(open.body.meta))
  t.match(open.body.data.annotations[0].value.url, /^http.*\/files\/\d+\/content\?file_token=/)
  const closed = await svc.call('POST', '/stream/0/channels?include_channel_annotations=1', {
    token: alice.token,
    payload: { type: 'com.example.chat', annotations },
  })
  const value = closed.body.data.annotations[0].value
  t.match(value.url, /^http.*\/files-content\//)
  t.type(value.url_expires, 'string')
  t.notOk(JSON.stringify(closed.body).includes(file.file_token))
})

t.test("a file's own annotations take replacement values too", async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const photo = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.photo' },
    { name: 'content', data: await flatImage(20, 10), filename: 'a.png', type: 'image/png' },
  ])
  const made = await svc.call('POST', '/stream/0/files', {
    token: alice.token,
    payload: {
      type: 'com.example.album',
      annotations: [
        { type: 'com.example.cover', value: { '+svc.core.file': { file_id: photo.body.data.id, file_token: photo.body.data.file_token, format: 'url' } } },
      ],
    },
  })
  t.equal(made.status, 200)
  const got = await svc.call('GET', `/stream/0/files/${made.body.data.id}?include_annotations=1`, { token: alice.token })
  const value = got.body.data.annotations[0].value
  t.equal(value.file_id, photo.body.data.id)
  t.match(value.url, /^http/)
  t.notOk(JSON.stringify(got.body).includes(photo.body.data.file_token), 'the write token is not stored')
})
