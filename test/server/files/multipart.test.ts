import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import t from 'tap'
import { makeInstance, type Instance } from '../../fixtures/instance.js'
import { fetchBytes, multipartOf, type Part } from '../../fixtures/files.js'

const sha1 = (data: Buffer | string): string => createHash('sha1').update(data).digest('hex')
const leftUploads = (dir: string): string[] => readdirSync(join(dir, 'files', '.uploads'))

/** `body` in pieces of 1 to 7 bytes, as a slow client might send it. */
function trickle(body: Buffer): Readable {
  const pieces: Buffer[] = []
  for (let at = 0, i = 0; at < body.length; i++) {
    const size = (i % 7) + 1
    pieces.push(body.subarray(at, at + size))
    at += size
  }
  return Readable.from(pieces)
}

/** `POST /files` with a multipart body of `parts`, sent a few bytes at a time. */
async function trickleUpload(svc: Instance, token: string, parts: readonly Part[]) {
  const body = multipartOf(parts)
  const res = await svc.server.inject({
    method: 'POST',
    url: '/files',
    headers: { ...body.headers, authorization: `Bearer ${token}` },
    payload: trickle(body.payload),
  })
  return { status: res.statusCode, body: JSON.parse(res.payload) }
}

t.test('a multipart body sent a few bytes at a time is stored as sent, base64 parts decoded', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  // Bytes that look like a boundary's start must stay content.
  const content = Buffer.from('line\r\n--not-the-boundary\r\n\r\n-- end')
  const res = await trickleUpload(svc, alice.token, [
    { name: 'type', data: 'com.example.trickle' },
    { name: 'content', data: content, filename: 'x.bin', type: 'application/octet-stream' },
    {
      name: 'notes',
      data: Buffer.from('decoded across chunks')
        .toString('base64')
        .replace(/(.{4})/g, '$1\r\n'),
      filename: 'e.txt',
      type: 'text/plain',
      encoding: 'base64',
    },
  ])
  t.equal(res.status, 200)
  t.match(res.body.data, { type: 'com.example.trickle', name: 'x.bin', sha1: sha1(content), size: content.length, complete: true })
  t.match(res.body.data.derived_files.notes, { name: 'e.txt', mime_type: 'text/plain', sha1: sha1('decoded across chunks') })
  const got = await fetchBytes(svc, res.body.data.derived_files.notes.url)
  t.equal(got.bytes.toString(), 'decoded across chunks')
  t.same(leftUploads(svc.dir), [], 'no temporary upload is left')
})

t.test('a content part without a filename is the file, however it is typed', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const data = Buffer.alloc(100 * 1024, 'a')
  const res = await trickleUpload(svc, alice.token, [
    { name: 'type', data: 'com.example.bare' },
    { name: 'content', data, type: 'text/plain' },
  ])
  t.equal(res.status, 200)
  t.match(res.body.data, { size: data.length, sha1: sha1(data), mime_type: 'text/plain', complete: true })
})

t.test('a form field over 64 KB is refused with 400 and stores nothing', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await trickleUpload(svc, alice.token, [
    { name: 'content', data: 'bytes', filename: 'a.txt', type: 'text/plain' },
    { name: 'type', data: 'x'.repeat(64 * 1024 + 1) },
  ])
  t.equal(res.status, 400)
  t.match(res.body.meta, { code: 400, error_message: /at most 65536 bytes/ })
  t.same(leftUploads(svc.dir), [], 'the file part before the field is removed')
})

t.test('a multipart body of more parts than a file can have is refused with 400', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const parts = Array.from({ length: 100 }, (_, i) => ({ name: `f${i}`, data: 'x' }))
  const res = await trickleUpload(svc, alice.token, [{ name: 'content', data: 'bytes', filename: 'a.txt' }, ...parts])
  t.equal(res.status, 400)
  t.match(res.body.meta.error_message, /at most \d+ parts/)
  t.same(leftUploads(svc.dir), [])
})

t.test('a multipart body without a boundary is refused with 400', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await svc.server.inject({
    method: 'POST',
    url: '/files',
    headers: { 'content-type': 'multipart/form-data', ...alice.auth },
    payload: 'whatever',
  })
  t.equal(res.statusCode, 400)
  t.equal(JSON.parse(res.payload).meta.code, 400)
})
