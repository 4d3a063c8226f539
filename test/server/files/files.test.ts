import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'
import { flatImage, sizeOf } from '../../fixtures/images.js'
import { fetchBytes, localPath, multipartOf, putRaw, upload } from '../../fixtures/files.js'

const sha1 = (data: Buffer | string): string => createHash('sha1').update(data).digest('hex')
const storedFiles = (dir: string): string[] => readdirSync(join(dir, 'files')).filter((n) => !n.startsWith('.'))

t.test('a multipart upload makes a complete file whose bytes come back through its url', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const text = 'minutes of the meeting'
  const made = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.notes' },
    { name: 'content', data: text, filename: 'minutes.txt', type: 'text/plain' },
  ])
  t.equal(made.status, 200)
  const file = made.body.data
  t.match(file, { id: /^\d+$/, complete: true, kind: 'other', mime_type: 'text/plain', name: 'minutes.txt', public: false, type: 'com.example.notes' })
  t.equal(file.sha1, sha1(text))
  t.equal(file.size, text.length)
  t.equal(file.total_size, text.length)
  t.type(file.file_token, 'string', 'the write token is shown at creation')
  t.notOk('file_token_read' in file, 'a private file has no read token')
  t.notOk('url_permanent' in file || 'url_short' in file, 'a private file has no permanent address')
  t.equal(file.user.username, 'alice')
  t.equal(file.source.name, 'Test Client')
  t.ok(Date.parse(file.url_expires) - Date.now() >= 60 * 60_000, 'the url lives at least an hour')
  const got = await fetchBytes(svc, file.url)
  t.equal(got.status, 200)
  t.equal(got.bytes.toString(), text)
  t.match(got.type, /^text\/plain/)
  t.equal(got.length, String(text.length))
})

t.test('a part sent in base64 is stored decoded', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bytes = Buffer.from('binary \u0000\u0001 bytes and more to span several groups of four')
  const encoded = bytes.toString('base64').replace(/(.{10})/g, '$1\r\n')
  const body = multipartOf([
    { name: 'type', data: 'com.example.b64' },
    { name: 'content', data: encoded, filename: 'b.bin', type: 'application/octet-stream', encoding: 'base64' },
  ])
  const res = await svc.server.inject({ method: 'POST', url: '/files', headers: { ...body.headers, ...alice.auth }, payload: body.payload })
  t.equal(res.statusCode, 200)
  const file = JSON.parse(res.payload).data
  t.equal(file.size, bytes.length)
  t.equal(file.sha1, sha1(bytes))
  t.equal((await fetchBytes(svc, file.url)).bytes.toString('base64'), bytes.toString('base64'))
})

t.test('metadata may come as a JSON metadata part, annotations included', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await upload(svc, alice.token, [
    {
      name: 'metadata',
      data: JSON.stringify({ type: 'com.example.doc', name: 'Report', annotations: [{ type: 'com.example.tag', value: { v: 1 } }] }),
      type: 'application/json',
    },
    { name: 'content', data: 'x', filename: 'r.bin', type: 'application/octet-stream' },
  ])
  t.equal(made.status, 200)
  t.equal(made.body.data.name, 'Report', 'the metadata name wins over the part filename')
  const read = await svc.call('GET', `/files/${made.body.data.id}?include_file_annotations=1`, { token: alice.token })
  t.same(read.body.data.annotations, [{ type: 'com.example.tag', value: { v: 1 } }])
  t.notOk('file_token' in read.body.data, 'no write token when query parameters are passed')
  const bare = await svc.call('GET', `/files/${made.body.data.id}`, { token: alice.token })
  t.notOk('annotations' in bare.body.data, 'annotations only when asked for')
  t.equal(bare.body.data.file_token, made.body.data.file_token, 'the owner with the files scope and no query parameters sees the write token')
})

t.test('an image root gets image_info and both thumbnails at their sizes, named after the root', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const png = await flatImage(1200, 800)
  const made = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.photo' },
    { name: 'content', data: png, filename: 'beach.png', type: 'image/png' },
  ])
  t.equal(made.status, 200)
  const file = made.body.data
  t.equal(file.kind, 'image', 'kind guessed from the mime type')
  t.same(file.image_info, { width: 1200, height: 800 })
  const square = file.derived_files.image_thumb_200s
  const fit = file.derived_files.image_thumb_960r
  t.same(square.image_info, { width: 200, height: 200 })
  t.same(fit.image_info, { width: 640, height: 427 })
  t.equal(square.name, 'beach_image_thumb_200s.png')
  t.equal(file.total_size, file.size + square.size + fit.size)
  const bytes = await fetchBytes(svc, square.url)
  t.equal(bytes.status, 200)
  t.match(await sizeOf(bytes.bytes), { width: 200, height: 200 })
  t.equal(sha1(bytes.bytes), square.sha1)
  const viaRoute = await fetchBytes(svc, `/files/${file.id}/content/image_thumb_960r`, alice.token)
  t.match(await sizeOf(viaRoute.bytes), { width: 640, height: 427 })
})

t.test('a small image is never enlarged in the 960r thumbnail', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.photo' },
    { name: 'content', data: await flatImage(100, 50), filename: 'tiny.png', type: 'image/png' },
  ])
  t.same(made.body.data.derived_files.image_thumb_960r.image_info, { width: 100, height: 50 })
  t.same(made.body.data.derived_files.image_thumb_200s.image_info, { width: 200, height: 200 })
})

t.test('a file created without content is incomplete until its content is put, once', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await svc.call('POST', '/files', { token: alice.token, payload: { type: 'com.example.doc', kind: 'other', name: 'later.txt' } })
  t.equal(made.status, 200)
  const { id, file_token } = made.body.data
  t.match(made.body.data, { complete: false, total_size: 0 })
  t.notOk('url' in made.body.data)
  const content = await svc.server.inject({ method: 'GET', url: `/files/${id}/content`, headers: alice.auth })
  t.equal(content.statusCode, 204, 'no content yet')
  const put = await putRaw(svc, alice.token, `/files/${id}/content`, 'now', 'text/plain')
  t.equal(put.status, 204, 'the content is set, with no body in the answer')
  t.equal(put.body, '')
  const completed = await svc.call('GET', `/files/${id}`, { token: alice.token })
  t.match(completed.body.data, { complete: true, size: 3, mime_type: 'text/plain', sha1: sha1('now') })
  const again = await putRaw(svc, alice.token, `/files/${id}/content`, 'again', 'text/plain')
  t.equal(again.status, 400)
  t.match(again.body.meta.error_message, /set once/)
  const form = await svc.server.inject({
    method: 'POST',
    url: '/files',
    headers: { ...alice.auth, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'type=com.example.doc&public=1',
  })
  t.equal(form.statusCode, 200, 'form fields make an incomplete file too')
  t.equal(JSON.parse(form.payload).data.public, true)
  t.type(file_token, 'string')
})

t.test('type is required, svc.core is reserved, names are at most 255 characters', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  for (const payload of [
    {},
    { type: 'nodots' },
    { type: 'svc.core.photo' },
    { type: 'com.example.x', name: 'n'.repeat(256) },
    { type: 'com.example.x', kind: 'video' },
  ]) {
    const res = await svc.call('POST', '/files', { token: alice.token, payload })
    t.equal(res.status, 400, JSON.stringify(payload).slice(0, 60))
    t.match(res.body.meta.error_message, /^Bad Request: /)
  }
  const ok = await svc.call('POST', '/files', { token: alice.token, payload: { type: 'com.example.x', name: 'é'.repeat(255) } })
  t.equal(ok.status, 200, '255 characters of any script')
})

t.test('custom derived files: added only while incomplete, immutable, core_ reserved, readable once complete', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await svc.call('POST', '/files', { token: alice.token, payload: { type: 'com.example.doc', name: 'talk.mp3' } })
  const id = made.body.data.id
  const added = await putRaw(svc, alice.token, `/files/${id}/content/transcript`, 'words', 'text/plain', { 'x-svc-filename': 'talk.txt' })
  t.equal(added.status, 200)
  t.match(added.body.data.derived_files.transcript, { name: 'talk.txt', mime_type: 'text/plain', size: 5, sha1: sha1('words') })
  t.notOk('url' in added.body.data.derived_files.transcript, 'no address before the root is complete')
  const early = await svc.server.inject({ method: 'GET', url: `/files/${id}/content/transcript`, headers: alice.auth })
  t.equal(early.statusCode, 204)
  const again = await putRaw(svc, alice.token, `/files/${id}/content/transcript`, 'other', 'text/plain')
  t.equal(again.status, 400)
  t.match(again.body.meta.error_message, /immutable/)
  const reserved = await putRaw(svc, alice.token, `/files/${id}/content/core_preview`, 'x', 'text/plain')
  t.equal(reserved.status, 400)
  t.match(reserved.body.meta.error_message, /reserved/)
  const posted = await upload(
    svc,
    alice.token,
    [{ name: 'content', data: 'wave', filename: 'w.dat', type: 'application/octet-stream' }],
    `/files/${id}/waveform`,
  )
  t.equal(posted.status, 200, 'POST /files/{id}/{key} with multipart')
  t.ok(posted.body.data.derived_files.waveform)
  t.equal(posted.body.data.derived_files.waveform.name, 'w.dat')
  await putRaw(svc, alice.token, `/files/${id}/content`, 'mp3 bytes', 'audio/mpeg')
  const late = await putRaw(svc, alice.token, `/files/${id}/content/late`, 'x', 'text/plain')
  t.equal(late.status, 400, 'no derived file once complete')
  const read = await svc.call('GET', `/files/${id}`, { token: alice.token })
  const got = await fetchBytes(svc, read.body.data.derived_files.transcript.url)
  t.equal(got.bytes.toString(), 'words')
  t.equal(read.body.data.total_size, 5 + 4 + 9)
})

t.test('at most 32 custom derived files', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const parts = Array.from({ length: 33 }, (_, i) => ({ name: `d${i}`, data: 'x', filename: `d${i}.txt`, type: 'text/plain' }))
  const tooMany = await upload(svc, alice.token, [{ name: 'type', data: 'com.example.doc' }, ...parts])
  t.equal(tooMany.status, 400)
  t.match(tooMany.body.meta.error_message, /at most 32/)
  t.same(storedFiles(svc.dir), [], 'nothing kept')
  const fits = await upload(svc, alice.token, [{ name: 'type', data: 'com.example.doc' }, ...parts.slice(0, 32)])
  t.equal(fits.status, 200)
  const more = await putRaw(svc, alice.token, `/files/${fits.body.data.id}/content/d99`, 'x', 'text/plain')
  t.equal(more.status, 400)
  const flood = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.doc' },
    ...Array.from({ length: 100 }, (_, i) => ({ name: `f${i}`, data: 'x', filename: 'f' })),
  ])
  t.equal(flood.status, 400, 'a body of too many parts is refused while it is read')
  // The body parser gives up without removing every part it wrote: the sweep of stale uploads takes them.
  // Parts under way still land after the answer; once they stop, they are stale.
  await new Promise((resolve) => setTimeout(resolve, 300))
  await svc.domain.files.bytes.sweepStaleUploads(0)
  t.same(readdirSync(join(svc.dir, 'files', '.uploads')), [], 'and its parts are not kept')
})

t.test('supplied thumbnails must match their schema and then replace the generated ones', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const root = await flatImage(1000, 1000)
  const wrong = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.photo' },
    { name: 'content', data: root, filename: 'p.png', type: 'image/png' },
    { name: 'image_thumb_200s', data: await flatImage(199, 200), filename: 's.png', type: 'image/png' },
  ])
  t.equal(wrong.status, 400)
  t.match(wrong.body.meta.error_message, /200x200/)
  const tooBig = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.photo' },
    { name: 'image_thumb_960r', data: await flatImage(700, 100), filename: 'r.png', type: 'image/png' },
  ])
  t.equal(tooBig.status, 400)
  t.same(storedFiles(svc.dir), [], 'nothing kept from refused uploads')
  const own = await flatImage(200, 200, 'jpeg')
  const good = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.photo' },
    { name: 'content', data: root, filename: 'p.png', type: 'image/png' },
    { name: 'image_thumb_200s', data: own, filename: 's.jpg', type: 'image/jpeg' },
  ])
  t.equal(good.status, 200)
  t.equal(good.body.data.derived_files.image_thumb_200s.sha1, sha1(own), 'the supplied thumbnail is kept')
  t.same(good.body.data.derived_files.image_thumb_960r.image_info, { width: 640, height: 640 }, 'the other is generated')
})

t.test('over max_file_size or the storage left: 507, nothing kept on disk', async (t) => {
  const svc = await makeInstance(t, { limits: { following: 100, max_file_size: 1000, storage: 1500 } })
  const alice = await svc.person('alice')
  const big = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.doc' },
    { name: 'content', data: Buffer.alloc(1001), filename: 'big.bin', type: 'application/octet-stream' },
  ])
  t.equal(big.status, 507)
  t.match(big.body.meta.error_message, /at most 1000 bytes/)
  const first = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.doc' },
    { name: 'content', data: Buffer.alloc(900), filename: 'a.bin', type: 'application/octet-stream' },
  ])
  t.equal(first.status, 200)
  const token = await svc.call('GET', '/token', { token: alice.token })
  t.same(token.body.data.storage, { available: 600, used: 900 }, 'storage.used is the sum of the files')
  const second = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.doc' },
    { name: 'content', data: Buffer.alloc(700), filename: 'b.bin', type: 'application/octet-stream' },
  ])
  t.equal(second.status, 507)
  t.match(second.body.meta.error_message, /storage/)
  const incomplete = await svc.call('POST', '/files', { token: alice.token, payload: { type: 'com.example.doc' } })
  const raw = await putRaw(svc, alice.token, `/files/${incomplete.body.data.id}/content`, Buffer.alloc(5000), 'application/octet-stream')
  t.equal(raw.status, 507, 'a raw body over the limit is refused while it streams')
  t.equal(storedFiles(svc.dir).length, 1, 'only the first file has bytes')
  t.same(readdirSync(join(svc.dir, 'files', '.uploads')), [], 'no temporary upload is left')
})

t.test('GET /files?ids= answers the viewer’s files among the ids and leaves the rest out', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const mine = await svc.call('POST', '/files', { token: alice.token, payload: { type: 'com.example.a' } })
  const theirs = await svc.call('POST', '/files', { token: bob.token, payload: { type: 'com.example.b' } })
  const res = await svc.call('GET', `/files?ids=${mine.body.data.id},${theirs.body.data.id},999`, { token: alice.token })
  t.equal(res.status, 200)
  t.same(
    res.body.data.map((f: any) => f.id),
    [mine.body.data.id],
  )
  t.notOk('file_token' in res.body.data[0])
  const tooMany = await svc.call('GET', `/files?ids=${Array.from({ length: 201 }, (_, i) => i + 1).join(',')}`, { token: alice.token })
  t.equal(tooMany.status, 400)
})

t.test('/users/me/files pages newest first and honours file_types, include_incomplete and include_private', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const ids: string[] = []
  for (const payload of [{ type: 'com.example.a', public: true }, { type: 'com.example.b' }, { type: 'com.example.a' }]) {
    ids.push((await svc.call('POST', '/files', { token: alice.token, payload })).body.data.id)
  }
  const done = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.a' },
    { name: 'content', data: 'x', filename: 'x.txt', type: 'text/plain' },
  ])
  ids.push(done.body.data.id)
  const all = await svc.call('GET', '/users/me/files', { token: alice.token })
  t.same(
    all.body.data.map((f: any) => f.id),
    [...ids].reverse(),
  )
  t.equal(all.body.meta.more, false)
  const page = await svc.call('GET', '/users/me/files?count=2', { token: alice.token })
  t.same(
    page.body.data.map((f: any) => f.id),
    [ids[3], ids[2]],
  )
  t.equal(page.body.meta.more, true)
  const next = await svc.call('GET', `/users/me/files?count=2&before_id=${page.body.meta.min_id}`, { token: alice.token })
  t.same(
    next.body.data.map((f: any) => f.id),
    [ids[1], ids[0]],
  )
  const typed = await svc.call('GET', '/users/me/files?file_types=com.example.b', { token: alice.token })
  t.same(
    typed.body.data.map((f: any) => f.id),
    [ids[1]],
  )
  const complete = await svc.call('GET', '/users/me/files?include_incomplete=0', { token: alice.token })
  t.same(
    complete.body.data.map((f: any) => f.id),
    [ids[3]],
  )
  const publicOnly = await svc.call('GET', '/users/me/files?include_private=0', { token: alice.token })
  t.same(
    publicOnly.body.data.map((f: any) => f.id),
    [ids[0]],
  )
})

t.test('the upload scopes create files; only the files scope lists and reads them without a token', async (t) => {
  const svc = await makeInstance(t)
  const poster = await svc.person('alice', { scopes: ['basic', 'write_post'] })
  const made = await svc.call('POST', '/files', { token: poster.token, payload: { type: 'com.example.a' } })
  t.equal(made.status, 200, 'write_post may upload')
  const reader = await svc.person('bob', { scopes: ['basic', 'stream'] })
  const refused = await svc.call('POST', '/files', { token: reader.token, payload: { type: 'com.example.a' } })
  t.equal(refused.status, 403)
  const list = await svc.call('GET', '/users/me/files', { token: poster.token })
  t.equal(list.status, 403, 'listing needs the files scope')
  const { id, file_token } = made.body.data
  const without = await svc.call('GET', `/files/${id}`, { token: poster.token })
  t.equal(without.status, 404, 'without the files scope, only the write token reaches it')
  const withToken = await svc.call('GET', `/files/${id}?file_token=${file_token}`, { token: poster.token })
  t.equal(withToken.status, 200)
  t.equal(withToken.body.data.file_token, file_token, 'a write token passed is shown back')
  const put = await putRaw(svc, poster.token, `/files/${id}/content?file_token=${file_token}`, 'hi', 'text/plain')
  t.equal(put.status, 204, 'the write token completes the file')
})

t.test('a write token works across apps of its user only, never for another user or without an access token', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const made = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.a' },
    { name: 'content', data: 'secret', filename: 's.txt', type: 'text/plain' },
  ])
  const { id, file_token } = made.body.data
  const { app: other } = await svc.domain.auth.apps.create({ name: 'Other Client', redirect_uris: ['http://other.example/cb'] })
  const { access_token } = await svc.domain.auth.tokens.issueUserToken(other, alice.user, ['basic', 'write_post'])
  const otherApp = await svc.call('GET', `/files/${id}?file_token=${file_token}`, { token: access_token })
  t.equal(otherApp.status, 200, 'portable across apps')
  const byBob = await svc.call('GET', `/files/${id}?file_token=${file_token}`, { token: bob.token })
  t.equal(byBob.status, 404, 'not across users')
  const anonymous = await svc.call('GET', `/files/${id}?file_token=${file_token}`)
  t.equal(anonymous.status, 404, 'not without an access token')
  const bobPut = await svc.call('PATCH', `/files/${id}?file_token=${file_token}`, { token: bob.token, payload: { name: 'mine' } })
  t.equal(bobPut.status, 404)
  const bare = await svc.call('GET', `/files/${id}`)
  t.equal(bare.status, 401)
})

t.test('public files get a read token, url_permanent and url_short, which stop working once private', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const made = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.a' },
    { name: 'content', data: 'shared', filename: 'shared.txt', type: 'text/plain' },
  ])
  const id = made.body.data.id
  const shared = await svc.call('PATCH', `/files/${id}`, { token: alice.token, payload: { public: true } })
  t.equal(shared.status, 200)
  const file = shared.body.data
  t.type(file.file_token_read, 'string')
  t.match(file.url_short, /\/f\/[0-9a-z]+\.txt$/, 'the short address keeps the extension')
  for (const url of [file.url_permanent, file.url_short]) {
    const got = await fetchBytes(svc, url)
    t.equal(got.status, 200, url)
    t.equal(got.bytes.toString(), 'shared')
  }
  const viaRead = await svc.call('GET', `/files/${id}?file_token=${file.file_token_read}`, { token: bob.token })
  t.equal(viaRead.status, 200, 'a read token works for anyone')
  t.equal(viaRead.body.data.file_token_read, file.file_token_read)
  t.notOk('file_token' in viaRead.body.data, 'never the write token')
  const anonymous = await svc.call('GET', `/files/${id}?file_token=${file.file_token_read}`)
  t.equal(anonymous.status, 200, 'a read token works without an access token')
  t.equal(anonymous.body.data.user.username, 'alice')
  const bobEdit = await svc.call('PATCH', `/files/${id}?file_token=${file.file_token_read}`, { token: bob.token, payload: { name: 'x' } })
  t.equal(bobEdit.status, 403, 'a read token does not write')
  await svc.call('PUT', `/files/${id}`, { token: alice.token, payload: { public: false } })
  for (const url of [file.url_permanent, file.url_short]) t.equal((await fetchBytes(svc, url)).status, 404, `${url} is gone once private`)
  const forged = await fetchBytes(svc, file.url_short.replace(/\/f\/(\w)/, '/f/z'))
  t.equal(forged.status, 404)
})

t.test('signed content addresses expire and cannot be forged', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.a' },
    { name: 'content', data: 'abc', filename: 'a.txt', type: 'text/plain' },
  ])
  const url = new URL(made.body.data.url)
  const sig = url.searchParams.get('sig') as string
  const expires = Number(url.searchParams.get('expires'))
  const get = (path: string) => svc.server.inject({ method: 'GET', url: path })
  t.equal((await get(localPath(url.href))).statusCode, 200)
  t.equal((await get(`/files-content/${made.body.data.id}?expires=${expires + 3600}&sig=${sig}`)).statusCode, 404, 'a later expiry breaks the signature')
  t.equal((await get(`/files-content/${made.body.data.id}?expires=${expires}&sig=${sig.slice(1)}x`)).statusCode, 404, 'a forged signature')
  t.equal((await get(`/files-content/${made.body.data.id}/image_thumb_200s?expires=${expires}&sig=${sig}`)).statusCode, 404, 'another key')
  const signed = svc.domain.files.links.signContent(
    (await svc.domain.files.get({}, Number(made.body.data.id), { file_token: made.body.data.file_token }).catch(() => null))?.file ?? ({} as never),
    undefined,
    Date.now() - 3 * 3600_000,
  )
  t.equal(signed, null, 'anonymous calls get nothing from a write token')
  const past = Math.floor(Date.now() / 1000) - 10
  t.equal((await get(`/files-content/${made.body.data.id}?expires=${past}&sig=${sig}`)).statusCode, 404, 'an expired address')
})

t.test('PUT and PATCH change only name, public and annotations; DELETE removes the file and its bytes', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.a' },
    { name: 'content', data: await flatImage(300, 300), filename: 'p.png', type: 'image/png' },
  ])
  const id = made.body.data.id
  const changed = await svc.call('PUT', `/files/${id}?include_annotations=1`, {
    token: alice.token,
    payload: { name: 'renamed.png', type: 'com.example.other', annotations: [{ type: 'com.example.n', value: { a: 1 } }] },
  })
  t.equal(changed.status, 200)
  t.match(changed.body.data, { name: 'renamed.png', type: 'com.example.a', public: false })
  t.same(changed.body.data.annotations, [{ type: 'com.example.n', value: { a: 1 } }])
  t.equal(changed.body.data.derived_files.image_thumb_200s.name, 'renamed_image_thumb_200s.png')
  t.equal(storedFiles(svc.dir).length, 3)
  const url = changed.body.data.url
  const gone = await svc.call('DELETE', `/files/${id}`, { token: alice.token })
  t.equal(gone.status, 200)
  t.equal(gone.body.data.id, id)
  t.equal((await svc.call('GET', `/files/${id}`, { token: alice.token })).status, 404)
  t.equal((await fetchBytes(svc, url)).status, 404, 'its address is dead')
  t.same(storedFiles(svc.dir), [], 'its bytes and thumbnails are removed')
})
