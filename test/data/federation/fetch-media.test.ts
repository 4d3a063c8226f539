/**
 * Fetching another server's media stays within its bounds: addresses that
 * are not public are refused unless allowed (the connection is never made),
 * so are schemes other than http(s), more than three redirects, more bytes
 * than allowed (declared or sent) and a server too slow to answer; nothing
 * it began is left in the uploads folder.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { fetchMedia, type MediaFetchOptions } from '../../../data/federation/media/fetch-media.js'
import { FileBytes } from '../../../data/files/file-bytes.js'
import { scratchDir } from '../../fixtures/scratch.js'

async function setUp(t: { teardown(fn: () => unknown): void }) {
  const hits: string[] = []
  const routes = new Map<string, (res: ServerResponse) => void>()
  const server = createServer((req, res) => {
    hits.push(req.url ?? '')
    const route = routes.get(req.url ?? '')
    if (route) route(res)
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const bytes = new FileBytes(scratchDir('svc-media-'))
  const options: MediaFetchOptions = {
    maxBytes: 1000,
    allowPrivateAddress: true,
    timeoutMs: 2000,
    receiver: (max) => bytes.receiver(max, () => new Error('too large')),
  }
  const uploads = () => readdirSync(bytes.uploads)
  return { hits, routes, origin, options, uploads }
}

t.test('an image within the bounds arrives, through a redirect, with its type', async (t) => {
  const { routes, origin, options } = await setUp(t)
  routes.set('/a', (res) => res.writeHead(302, { location: '/b' }).end())
  routes.set('/b', (res) => res.writeHead(200, { 'content-type': 'image/png; charset=binary' }).end(Buffer.alloc(500, 7)))
  const got = await fetchMedia(new URL(`${origin}/a`), options)
  t.equal(got?.contentType, 'image/png')
  t.same(readFileSync(got!.path), Buffer.alloc(500, 7))
})

t.test('a private address is refused unless allowed: no connection is made', async (t) => {
  const { hits, routes, origin, options } = await setUp(t)
  routes.set('/a', (res) => res.writeHead(200).end('x'))
  t.equal(await fetchMedia(new URL(`${origin}/a`), { ...options, allowPrivateAddress: false }), null)
  t.same(hits, [])
})

t.test('other schemes, endless redirects, too many bytes and a hung server get nothing, and leave nothing', async (t) => {
  const { routes, origin, options, uploads } = await setUp(t)
  t.equal(await fetchMedia(new URL('file:///etc/passwd'), options), null)
  for (let i = 0; i < 5; i++) routes.set(`/r${i}`, (res) => res.writeHead(301, { location: `/r${i + 1}` }).end())
  routes.set('/r5', (res) => res.writeHead(200).end('x'))
  t.equal(await fetchMedia(new URL(`${origin}/r0`), options), null, 'more than three redirects')
  routes.set('/declared', (res) => res.writeHead(200, { 'content-length': 5000 }).end(Buffer.alloc(5000)))
  t.equal(await fetchMedia(new URL(`${origin}/declared`), options), null, 'declared too large')
  routes.set('/sent', (res) => {
    res.writeHead(200)
    res.write(Buffer.alloc(800))
    res.end(Buffer.alloc(800))
  })
  t.equal(await fetchMedia(new URL(`${origin}/sent`), options), null, 'sent too large')
  routes.set('/hung', () => undefined)
  t.equal(await fetchMedia(new URL(`${origin}/hung`), { ...options, timeoutMs: 300 }), null, 'too slow')
  routes.set('/missing', (res) => res.writeHead(404).end())
  t.equal(await fetchMedia(new URL(`${origin}/missing`), options), null, 'not found')
  t.same(uploads(), [], 'nothing left in the uploads folder')
})
