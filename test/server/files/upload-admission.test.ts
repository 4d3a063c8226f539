/**
 * Upload bodies are paid for before they are read: the caller is known, has
 * room for what the body says it holds, and is within the bounds of uploads
 * at once, or the answer comes before a byte of the body is stored. Whatever
 * way a request ends, its temporary files go with it. Real sockets, as a
 * client cut off in the middle of a body is not something inject can do.
 */
import http from 'node:http'
import type { Socket } from 'node:net'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { UPLOADS_PER_USER } from '../../../data/index.js'
import type { Instance } from '../../fixtures/instance.js'
import { multipartOf } from '../../fixtures/files.js'
import { listeningInstance, waitUntil } from '../../fixtures/streams.js'

const MB = 1024 * 1024
const leftUploads = (svc: Instance): string[] => readdirSync(join(svc.dir, 'files', '.uploads'))

interface Answer {
  status: number
  body: any
}

/** A request whose body is written only as far as `first`: the rest is for the story to send, or never. */
function openUpload(base: string, path: string, headers: Record<string, string | number>, first: Buffer, method = 'POST') {
  const req = http.request(`${base}${path}`, { method, headers })
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString()
        let body: unknown = text
        try {
          body = JSON.parse(text)
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, body })
      })
    })
    req.on('error', reject)
  })
  // The story ends the request its own way; a reset socket is part of some stories.
  answer.catch(() => undefined)
  req.write(first)
  return { req, answer }
}

/** The answer, or a failure when none comes within `ms` (the server would be waiting for the body). */
const within = <T>(answer: Promise<T>, ms = 5000): Promise<T> =>
  Promise.race([answer, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))])

/** A multipart upload of `size` bytes of content, cut in two: the head (fields and the start of the content) and the rest. */
function bigUpload(size: number, fields: { name: string; data: string }[] = [], head = MB) {
  const body = multipartOf([...fields, { name: 'type', data: 'com.example.big' }, { name: 'content', data: Buffer.alloc(size, 7), filename: 'big.bin' }])
  return { headers: { ...body.headers, 'content-length': body.payload.length }, head: body.payload.subarray(0, head), rest: body.payload.subarray(head) }
}

t.test('an upload without a token is refused with 401 before its body is read, and nothing of it is written', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const body = bigUpload(50 * MB)
  const { req, answer } = openUpload(base, '/stream/0/files', body.headers, body.head)
  t.teardown(() => req.destroy())
  const got = await within(answer)
  t.equal(got.status, 401)
  t.equal(got.body.meta.code, 401)
  t.same(leftUploads(svc), [], 'not a byte of it was stored')

  const raw = openUpload(base, '/stream/0/files/1/content', { 'content-type': 'application/octet-stream', 'content-length': 50 * MB }, Buffer.alloc(MB), 'PUT')
  t.teardown(() => raw.req.destroy())
  t.equal((await within(raw.answer)).status, 401, 'nor a raw body')
  t.same(leftUploads(svc), [])
})

t.test('an access_token field after the first file part comes too late: 401, and the part is never written', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const alice = await svc.person('alice')
  const body = multipartOf([
    { name: 'type', data: 'com.example.form' },
    { name: 'content', data: Buffer.alloc(2 * MB, 1), filename: 'a.bin' },
    { name: 'access_token', data: alice.token },
  ])
  const res = await fetch(`${base}/stream/0/files`, { method: 'POST', headers: body.headers, body: new Uint8Array(body.payload) })
  t.equal(res.status, 401)
  t.match(((await res.json()) as any).meta.error_message, /no token was provided/, 'a token after the file part is never read')
  t.same(leftUploads(svc), [])
})

t.test('an upload that says it is larger than the storage alice has left is refused with 507 before its body is read', async (t) => {
  const { svc, base } = await listeningInstance(t, { limits: { following: 100, max_file_size: 4 * MB, storage: 5 * MB } })
  const alice = await svc.person('alice')
  const first = multipartOf([
    { name: 'type', data: 'com.example.big' },
    { name: 'content', data: Buffer.alloc(3 * MB, 1), filename: 'a.bin' },
  ])
  t.equal(
    (await fetch(`${base}/stream/0/files`, { method: 'POST', headers: { ...first.headers, ...alice.auth }, body: new Uint8Array(first.payload) })).status,
    200,
  )
  // 2 MB left, and a body of 3.5 MB: more than that with room for its framing.
  const body = bigUpload(3.5 * MB)
  const multipart = openUpload(base, '/stream/0/files', { ...body.headers, ...alice.auth }, Buffer.alloc(0))
  t.teardown(() => multipart.req.destroy())
  const got = await within(multipart.answer)
  t.equal(got.status, 507)
  t.match(got.body.meta.error_message, /not enough storage/)

  const made = await svc.call('POST', '/stream/0/files', { token: alice.token, payload: { type: 'com.example.doc' } })
  const raw = openUpload(
    base,
    `/stream/0/files/${made.body.data.id}/content`,
    { 'content-type': 'application/octet-stream', 'content-length': 3 * MB, ...alice.auth },
    Buffer.alloc(0),
    'PUT',
  )
  t.teardown(() => raw.req.destroy())
  t.equal((await within(raw.answer)).status, 507, 'a raw body too')
  t.same(leftUploads(svc), [])
})

t.test('a body that goes on past what it may hold is stopped as soon as it does', async (t) => {
  const { svc, base } = await listeningInstance(t, { limits: { following: 100, max_file_size: 4 * MB, storage: 5 * MB } })
  const alice = await svc.person('alice')
  const made = await svc.call('POST', '/stream/0/files', { token: alice.token, payload: { type: 'com.example.doc' } })
  // Chunked: no Content-Length to refuse it by.
  const raw = openUpload(
    base,
    `/stream/0/files/${made.body.data.id}/content`,
    { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked', ...alice.auth },
    Buffer.alloc(5 * MB),
    'PUT',
  )
  t.teardown(() => raw.req.destroy())
  const got = await within(raw.answer)
  t.equal(got.status, 507)
  await waitUntil(() => leftUploads(svc).length === 0, 'the temporary file to go', 5000)
})

t.test('an upload cut off in the middle of its body leaves no temporary file behind', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const alice = await svc.person('alice')
  const body = bigUpload(8 * MB, [], 3 * MB)
  const multipart = openUpload(base, '/stream/0/files', { ...body.headers, ...alice.auth }, body.head)
  await waitUntil(() => leftUploads(svc).length === 1, 'the upload to start', 5000)
  multipart.req.destroy()
  await waitUntil(() => leftUploads(svc).length === 0, 'the cut upload to be removed', 5000)

  const made = await svc.call('POST', '/stream/0/files', { token: alice.token, payload: { type: 'com.example.doc' } })
  const raw = openUpload(
    base,
    `/stream/0/files/${made.body.data.id}/content`,
    { 'content-type': 'application/octet-stream', 'content-length': 8 * MB, ...alice.auth },
    Buffer.alloc(3 * MB),
    'PUT',
  )
  await waitUntil(() => leftUploads(svc).length === 1, 'the raw upload to start', 5000)
  raw.req.destroy()
  await waitUntil(() => leftUploads(svc).length === 0, 'the cut raw upload to be removed', 5000)
})

t.test('an upload that outlives Node’s request timeout leaves no temporary file behind', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const alice = await svc.person('alice')
  const sockets: Socket[] = []
  svc.server.listener.on('connection', (socket: Socket) => sockets.push(socket))
  const body = bigUpload(8 * MB, [], 2 * MB)
  const slow = openUpload(base, '/stream/0/files', { ...body.headers, ...alice.auth }, body.head)
  t.teardown(() => slow.req.destroy())
  await waitUntil(() => leftUploads(svc).length === 1, 'the upload to start', 5000)
  // What Node does once `requestTimeout` (or `headersTimeout`) passes: the error on the server's socket, which it then destroys.
  // (Node reads the timeouts when the server is made, which svc's server does not let a test choose.)
  sockets[sockets.length - 1].emit('error', Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }))
  await waitUntil(() => leftUploads(svc).length === 0, 'the timed-out upload to be removed', 5000)
})

t.test(`alice may have ${UPLOADS_PER_USER} uploads under way at once; one more is refused with 429 before its body is read`, async (t) => {
  const { svc, base } = await listeningInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const open: (ReturnType<typeof openUpload> & { rest: Buffer })[] = []
  for (let i = 0; i < UPLOADS_PER_USER; i++) {
    const body = bigUpload(2 * MB, [], MB)
    open.push({ ...openUpload(base, '/stream/0/files', { ...body.headers, ...alice.auth }, body.head), rest: body.rest })
  }
  t.teardown(() => open.forEach((u) => u.req.destroy()))
  await waitUntil(() => leftUploads(svc).length === UPLOADS_PER_USER, 'her uploads to be under way', 5000)
  const another = bigUpload(2 * MB, [], 0)
  const refused = openUpload(base, '/stream/0/files', { ...another.headers, ...alice.auth }, Buffer.alloc(0))
  t.teardown(() => refused.req.destroy())
  const got = await within(refused.answer)
  t.equal(got.status, 429)
  t.match(got.body.meta.error_message, /uploads at once/)
  t.equal(leftUploads(svc).length, UPLOADS_PER_USER, 'the one more wrote nothing')

  const bobs = bigUpload(1000)
  const ok = openUpload(base, '/stream/0/files', { ...bobs.headers, ...bob.auth }, Buffer.concat([bobs.head, bobs.rest]))
  ok.req.end()
  t.equal((await within(ok.answer)).status, 200, 'bob’s upload is his own business')

  for (const u of open) u.req.end(u.rest)
  for (const u of open) t.equal((await within(u.answer)).status, 200, 'alice’s uploads finish')
  const again = bigUpload(1000)
  const next = openUpload(base, '/stream/0/files', { ...again.headers, ...alice.auth }, Buffer.concat([again.head, again.rest]))
  next.req.end()
  t.equal((await within(next.answer)).status, 200, 'then alice uploads again')
  t.same(leftUploads(svc), [])
})
