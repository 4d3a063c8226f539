/**
 * A real `svc serve` with no public URL, as a new operator runs it: it
 * answers as http://127.0.0.1:PORT and http://localhost:PORT, never as a
 * Host a visitor made up; and a visitor reloading the web client does not
 * spend the API calls of their address.
 */
import t from 'tap'
import { request } from 'node:http'
import { serve, svcJson, tempDir } from '../fixtures/svc-process.js'

/** A GET with the Host header of our choosing (fetch will not send one); answers status, headers and body. */
const get = (url: string, host?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> =>
  new Promise((resolve, reject) => {
    const req = request(url, { headers: host ? { host } : {} }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })

t.test('svc serve answers as its own addresses, never as a Host mallory wrote, and the web client’s files cost no API calls', async (t) => {
  const dir = tempDir(t)
  const server = await serve(dir, [], { SVC_RATE_LIMIT: 'on' })
  t.teardown(() => server.stop())
  await svcJson(['user', 'create', '--username', 'alice', '--password', 'correct horse', '--data-dir', dir])
  const port = new URL(server.url).port
  const canonical = async (host?: string) => JSON.parse((await get(`${server.url}/stream/0/users/@alice`, host)).body).data.canonical_url

  t.equal(await canonical(), `http://127.0.0.1:${port}/@alice`)
  t.equal(await canonical(`localhost:${port}`), `http://localhost:${port}/@alice`)
  t.equal(await canonical('evil.example'), `http://127.0.0.1:${port}/@alice`, "mallory's Host is not svc's address")
  const avatar = await get(`${server.url}/users/@alice/avatar`, 'evil.example')
  t.match(avatar.headers.location, new RegExp(`^http://127\\.0\\.0\\.1:${port}/`))

  const page = await get(`${server.url}/`)
  t.equal(page.status, 200)
  t.match(page.headers['content-security-policy'], `connect-src 'self' ws://127.0.0.1:${port}`)
  const files = [...page.body.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1])
  t.ok(files.length >= 2, 'the page names its script and stylesheet')
  for (let reload = 0; reload < 20; reload++) {
    for (const path of ['/', ...files]) t.equal((await get(`${server.url}${path}`)).status, 200, `reload ${reload + 1}: ${path}`)
  }
  const api = await get(`${server.url}/stream/0/users/@alice`)
  t.equal(api.status, 200)
  t.equal(api.headers['x-ratelimit-remaining'], '46', 'only the four API calls counted')
  t.equal(api.headers['x-content-type-options'], 'nosniff')
})
