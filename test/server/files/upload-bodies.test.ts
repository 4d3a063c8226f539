import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'
import { fetchBytes, multipartOf, putRaw, upload } from '../../fixtures/files.js'

const sha1 = (data: Buffer | string): string => createHash('sha1').update(data).digest('hex')
const leftUploads = (dir: string): string[] => readdirSync(join(dir, 'files', '.uploads'))

t.test('an access_token form field before the first file part authenticates a multipart upload; after it, too late', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const first = await upload(svc, undefined, [
    { name: 'access_token', data: alice.token },
    { name: 'type', data: 'com.example.form' },
    { name: 'content', data: 'first', filename: 'a.txt', type: 'text/plain' },
  ])
  t.equal(first.status, 200)
  t.match(first.body.data, { user: { username: 'alice' }, sha1: sha1('first'), complete: true })
  const last = await upload(svc, undefined, [
    { name: 'type', data: 'com.example.form' },
    { name: 'content', data: 'last', filename: 'b.txt', type: 'text/plain' },
    { name: 'access_token', data: alice.token },
  ])
  t.equal(last.status, 401, 'a file part is never written for a caller not yet known')
  t.match(last.body.meta.error_message, /no token was provided/, 'the token after the file part is never read')
  t.same(leftUploads(svc.dir), [], 'no temporary upload is left')
})

t.test('a multipart upload with a wrong access_token form field is refused and stores nothing', async (t) => {
  const svc = await makeInstance(t)
  const res = await upload(svc, undefined, [
    { name: 'access_token', data: 'not-a-token' },
    { name: 'type', data: 'com.example.form' },
    { name: 'content', data: 'bytes', filename: 'a.txt', type: 'text/plain' },
  ])
  t.equal(res.status, 401)
  t.equal(res.body.meta.code, 401)
  t.same(leftUploads(svc.dir), [], 'the part written before the token was checked is removed')
})

t.test('PUT /files/{id}/content answers 204 with no body, and the file is complete', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await svc.call('POST', '/files', { token: alice.token, payload: { type: 'com.example.doc' } })
  const data = Buffer.alloc(3 * 1024 * 1024 + 17, 7)
  const put = await putRaw(svc, alice.token, `/files/${made.body.data.id}/content`, data, 'application/octet-stream', { 'x-svc-filename': 'big.bin' })
  t.equal(put.status, 204)
  t.equal(put.body, '')
  const read = await svc.call('GET', `/files/${made.body.data.id}`, { token: alice.token })
  t.match(read.body.data, { complete: true, size: data.length, sha1: sha1(data), name: 'big.bin' })
  t.equal(sha1((await fetchBytes(svc, read.body.data.url)).bytes), sha1(data), 'the bytes stored are the bytes sent')
})

t.test('a multipart body without its closing boundary gets a 400 and leaves no temporary file', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const body = multipartOf([
    { name: 'type', data: 'com.example.cut' },
    { name: 'content', data: Buffer.alloc(200_000, 1), filename: 'cut.bin', type: 'application/octet-stream' },
  ])
  const cut = body.payload.subarray(0, body.payload.length - 100)
  const res = await svc.server.inject({ method: 'POST', url: '/files', headers: { ...body.headers, ...alice.auth }, payload: cut })
  t.equal(res.statusCode, 400)
  t.match(JSON.parse(res.payload).meta, { code: 400, error_message: /multipart body could not be read/ })
  t.same(leftUploads(svc.dir), [])
})

t.test('a file part over max_file_size is refused with 507 while it streams', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.big' },
    { name: 'content', data: Buffer.alloc(svc.domain.config.limits.max_file_size + 1), filename: 'big.bin', type: 'application/octet-stream' },
  ])
  t.equal(res.status, 507)
  t.same(leftUploads(svc.dir), [])
})
