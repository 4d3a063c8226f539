import t from 'tap'
import { injectionOf, remoteServer, type RemoteActor } from '../fixtures/remote-actor.js'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { makeInstance, type Instance } from '../fixtures/instance.js'
import { ROOT } from '../project-root.js'
import type { Viewer } from '../../data/index.js'
import { rateLimitOffIn } from '../../bin/environment.js'
import { memoryLimiter, RateLimiters } from '../../server/rate-limits/rate-limiters.js'

/** Small limits so a test can run a bucket dry: 6 calls an hour per token, 3 writes a minute, 4 unauthenticated calls and 5 pages a minute per IP. */
const SMALL = {
  enabled: true,
  authenticated: { limit: 6, window_s: 3600 },
  write: { limit: 3, window_s: 60 },
  unauthenticated: { limit: 4, window_s: 60 },
  pages: { limit: 5, window_s: 60 },
  federation: { limit: 2, window_s: 60 },
}

const limited = (t: Parameters<typeof makeInstance>[0], rate_limits: typeof SMALL = SMALL, config: Record<string, unknown> = {}) =>
  makeInstance(t, { rate_limits, ...config })

const rateHeaders = (res: { headers: Record<string, unknown> }) => ({
  limit: res.headers['x-ratelimit-limit'],
  remaining: res.headers['x-ratelimit-remaining'],
  reset: res.headers['x-ratelimit-reset'],
})

const fromIp = (svc: Instance, ip: string, url: string) => svc.server.inject({ method: 'GET', url, remoteAddress: ip })

t.test("a GET with alice's token reports her token's hourly bucket", async (t) => {
  const svc = await limited(t)
  const alice = await svc.person('alice')
  const first = await svc.call('GET', '/stream/0/users/me', { token: alice.token })
  t.equal(first.status, 200)
  t.same(rateHeaders(first), { limit: '6', remaining: '5', reset: '3600' })
  const second = await svc.call('GET', '/posts/stream/global', { token: alice.token })
  t.equal(second.headers['x-ratelimit-remaining'], '4', 'every authenticated call counts, whatever the route')
  t.ok(Number(second.headers['x-ratelimit-reset']) <= 3600 && Number(second.headers['x-ratelimit-reset']) >= 1, 'seconds until the window ends, not an epoch')
})

t.test('a write reports the write bucket and counts against the hourly one too', async (t) => {
  const svc = await limited(t)
  const alice = await svc.person('alice')
  const post = await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'hello' } })
  t.equal(post.status, 200)
  t.same(rateHeaders(post), { limit: '3', remaining: '2', reset: '60' })
  const del = await svc.call('DELETE', `/posts/${post.body.data.id}`, { token: alice.token })
  t.same(rateHeaders(del), { limit: '3', remaining: '1', reset: '60' }, 'DELETE is a write')
  const read = await svc.call('GET', '/users/me', { token: alice.token })
  t.same(rateHeaders(read), { limit: '6', remaining: '3', reset: '3600' }, 'both writes came off the hourly bucket')
})

t.test('unauthenticated calls count per client IP', async (t) => {
  const svc = await limited(t)
  await svc.person('alice')
  const one = await fromIp(svc, '203.0.113.1', '/users/@alice')
  t.equal(one.statusCode, 200)
  t.same(rateHeaders(one), { limit: '4', remaining: '3', reset: '60' })
  t.equal((await fromIp(svc, '203.0.113.1', '/posts/stream/global')).headers['x-ratelimit-remaining'], '2')
  t.equal((await fromIp(svc, '203.0.113.2', '/users/@alice')).headers['x-ratelimit-remaining'], '3', 'another address has its own bucket')
})

t.test('over the limit: a 429 in the envelope with Retry-After, before the handler runs', async (t) => {
  const svc = await limited(t)
  const alice = await svc.person('alice')
  for (const text of ['one', 'two', 'three']) t.equal((await svc.call('POST', '/posts', { token: alice.token, payload: { text } })).status, 200)
  const refused = await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: 'four' } })
  t.equal(refused.status, 429)
  t.equal(refused.body.meta.code, 429)
  t.match(refused.body.meta.error_message, /rate limit/i)
  t.equal(refused.headers['retry-after'], refused.headers['x-ratelimit-reset'])
  t.ok(Number(refused.headers['retry-after']) >= 1 && Number(refused.headers['retry-after']) <= 60)
  t.same(rateHeaders(refused), { limit: '3', remaining: '0', reset: refused.headers['retry-after'] })
  const stream = await svc.call('GET', `/users/${alice.user.id}/posts`, { token: alice.token })
  t.same(
    stream.body.data.map((p: { text: string }) => p.text),
    ['three', 'two', 'one'],
    'the refused post was never made',
  )
  t.equal(stream.headers['x-ratelimit-remaining'], '2', 'reads go on; the refused call cost nothing')
})

t.test('an IP that ran dry gets 429s; so does its token endpoint, as an OAuth error', async (t) => {
  const svc = await limited(t)
  for (let i = 0; i < 4; i++) t.equal((await fromIp(svc, '198.51.100.7', '/stream/0/config')).statusCode, 200)
  const refused = await fromIp(svc, '198.51.100.7', '/stream/0/config')
  t.equal(refused.statusCode, 429)
  t.equal(JSON.parse(refused.payload).meta.code, 429)
  t.type(refused.headers['retry-after'], 'string')
  const grant = await svc.server.inject({
    method: 'POST',
    url: '/oauth/access_token',
    remoteAddress: '198.51.100.7',
    payload: { grant_type: 'client_credentials', client_id: svc.app.client_id, client_secret: 'x' },
  })
  t.equal(grant.statusCode, 429)
  t.equal(JSON.parse(grant.payload).error, 'temporarily_unavailable')
  t.type(grant.headers['retry-after'], 'string')
  t.equal((await fromIp(svc, '198.51.100.8', '/stream/0/config')).statusCode, 200, 'the next address is unaffected')
})

t.test('alice and bob have separate buckets, and an authenticated call leaves the IP bucket alone', async (t) => {
  const svc = await limited(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  for (let i = 0; i < 6; i++) await svc.call('GET', '/users/me', { token: alice.token })
  t.equal((await svc.call('GET', '/users/me', { token: alice.token })).status, 429)
  const bobs = await svc.call('GET', '/users/me', { token: bob.token })
  t.equal(bobs.status, 200)
  t.equal(bobs.headers['x-ratelimit-remaining'], '5')
  t.equal((await svc.call('GET', '/users/@alice')).headers['x-ratelimit-remaining'], '3', 'the IP bucket only counts unauthenticated calls')
})

t.test('errors carry the headers too, and a bad token counts against the IP', async (t) => {
  const svc = await limited(t)
  const alice = await svc.person('alice')
  const missing = await svc.call('GET', '/users/999', { token: alice.token })
  t.equal(missing.status, 404)
  t.equal(missing.headers['x-ratelimit-remaining'], '5')
  const unknownPath = await svc.call('GET', '/stream/0/nowhere', { token: alice.token })
  t.equal(unknownPath.status, 404)
  t.equal(unknownPath.headers['x-ratelimit-remaining'], '4')
  const bad = await svc.call('GET', '/users/me', { token: 'made-up' })
  t.equal(bad.status, 401)
  t.same(rateHeaders(bad), { limit: '4', remaining: '3', reset: '60' })
  const noToken = await svc.call('GET', '/users/me')
  t.equal(noToken.status, 401)
  t.equal(noToken.headers['x-ratelimit-remaining'], '2')
  const malformed = await svc.server.inject({
    method: 'POST',
    url: '/posts',
    headers: { ...alice.auth, 'content-type': 'application/json' },
    payload: '{"text":',
  })
  t.equal(malformed.statusCode, 400)
  t.same(rateHeaders(malformed), { limit: '3', remaining: '2', reset: '60' }, "a body that did not parse still counts against alice's write bucket")
})

t.test('avatar and cover redirects and other unlimited routes are never limited', async (t) => {
  const svc = await limited(t)
  await svc.person('alice')
  svc.server.route({
    method: 'GET',
    path: '/test/unlimited',
    options: { plugins: { svc: { token: 'none', unlimited: true } } },
    handler: () => ({ meta: { code: 200 }, data: 'ok' }),
  })
  for (let i = 0; i < 6; i++) {
    for (const url of ['/users/@alice/avatar', '/stream/0/users/@alice/cover', '/test/unlimited']) {
      const res = await fromIp(svc, '192.0.2.9', url)
      t.not(res.statusCode, 429, url)
      t.notOk('x-ratelimit-limit' in res.headers, `${url} has no rate headers`)
    }
  }
  t.equal((await fromIp(svc, '192.0.2.9', '/users/@alice')).headers['x-ratelimit-remaining'], '3', 'none of them counted')
})

t.test('with rate limits disabled in the config: no headers and no 429', async (t) => {
  const svc = await limited(t, { ...SMALL, enabled: false })
  const alice = await svc.person('alice')
  for (let i = 0; i < 5; i++) {
    const write = await svc.call('POST', '/posts', { token: alice.token, payload: { text: `post ${i}` } })
    t.equal(write.status, 200)
    t.notOk('x-ratelimit-limit' in write.headers)
    t.equal((await fromIp(svc, '203.0.113.5', '/users/@alice')).statusCode, 200)
  }
})

t.test('SVC_RATE_LIMIT=off turns rate limiting off; unset or anything else leaves it to the config', async (t) => {
  for (const value of ['off', 'OFF', ' off ', '0', 'false']) t.ok(rateLimitOffIn({ SVC_RATE_LIMIT: value }), value)
  for (const value of [undefined, '', 'on', '1', 'true', 'of']) t.notOk(rateLimitOffIn({ SVC_RATE_LIMIT: value }), String(value))
})

t.test('the limiters: the tighter bucket is reported, a refused call costs nothing, and an ended window starts afresh', async (t) => {
  const limiters = new RateLimiters({
    enabled: true,
    authenticated: { limit: 3, window_s: 3600 },
    write: { limit: 1, window_s: 2 },
    unauthenticated: SMALL.unauthenticated,
    pages: SMALL.pages,
  })
  const alice = { token: { id: 7 } } as unknown as Viewer
  t.match(await limiters.take('GET', alice, '203.0.113.1'), { limit: 3, remaining: 2, reset_s: 3600, refused: false })
  t.match(await limiters.take('POST', alice, '203.0.113.1'), { limit: 1, remaining: 0, reset_s: 2, refused: false }, 'the tighter bucket is reported')
  t.match(await limiters.take('POST', alice, '203.0.113.1'), { limit: 1, remaining: 0, reset_s: 2, refused: true })
  t.match(
    await limiters.take('GET', alice, '203.0.113.1'),
    { limit: 3, remaining: 0, refused: false },
    'the refused write did not count against the hourly bucket',
  )
  await new Promise((resolve) => setTimeout(resolve, 2100))
  t.match(
    await limiters.take('DELETE', alice, '203.0.113.1'),
    { limit: 3, remaining: 0, refused: true },
    'the write window started afresh, the hourly one is full',
  )
  t.match(await limiters.take('GET', { token: { id: 8 } } as unknown as Viewer, '203.0.113.1'), { limit: 3, remaining: 2 }, 'bob has buckets of his own')
})

t.test('the limiters are built in one place, so another store can stand in for memory', async (t) => {
  const made: string[] = []
  const limiters = new RateLimiters(SMALL, (bucket, window) => {
    made.push(`${bucket} ${window.limit}/${window.window_s}s`)
    return memoryLimiter(bucket, window)
  })
  t.same(made, ['token 6/3600s', 'write 3/60s', 'ip 4/60s', 'page 5/60s', 'server 2/60s'])
  t.match(await limiters.take('GET', {}, '198.51.100.1'), { limit: 4, remaining: 3 })
})

const inject = (svc: Instance, url: string, options: { ip?: string; headers?: Record<string, string> } = {}) =>
  svc.server.inject({ method: 'GET', url, remoteAddress: options.ip ?? '203.0.113.20', headers: options.headers })

t.test('a visitor reloading the web client never spends the API calls of their address: its files are not counted', async (t) => {
  const svc = await limited(t)
  await svc.person('alice')
  const files = readdirSync(join(ROOT, 'dist', 'web', 'assets')).filter((f) => !f.endsWith('.map'))
  t.ok(files.length >= 2, 'the built script and stylesheet')
  for (let reload = 0; reload < 4; reload++) {
    t.equal((await inject(svc, '/')).statusCode, 200, `reload ${reload + 1}: the page`)
    for (const file of files) {
      const res = await inject(svc, `/assets/${file}`)
      t.equal(res.statusCode, 200, `reload ${reload + 1}: ${file}`)
      t.notOk('x-ratelimit-limit' in res.headers, 'a file reports no bucket')
    }
  }
  const api = await inject(svc, '/stream/0/users/@alice')
  t.equal(api.statusCode, 200)
  t.same(rateHeaders(api), { limit: '4', remaining: '3', reset: '60' }, "the address's API calls are all still there")
})

t.test('pages have a bucket of their own per address; over it, a page answers the 429, with Retry-After', async (t) => {
  const svc = await limited(t)
  const alice = await svc.person('alice')
  const web = await svc.domain.auth.apps.ensureWebClient()
  const authorize = `/oauth/authenticate?${new URLSearchParams({ client_id: web.client_id, response_type: 'token', redirect_uri: 'http://127.0.0.1:0/', scope: 'basic' })}`
  for (const url of ['/', '/home', '/@alice', authorize, '/signup']) {
    const res = await inject(svc, url, { headers: alice.auth })
    t.equal(res.statusCode, 200, url)
    t.notOk('x-ratelimit-limit' in res.headers, `${url}: pages report no API bucket`)
  }
  const refused = await inject(svc, '/@alice')
  t.equal(refused.statusCode, 429)
  t.match(refused.headers['content-type'], /^text\/html/, 'a browser gets a page, not JSON')
  t.match(refused.payload, /Too many requests/)
  t.ok(Number(refused.headers['retry-after']) >= 1 && Number(refused.headers['retry-after']) <= 60, 'Retry-After in seconds')
  t.match(refused.headers['content-security-policy'], "frame-ancestors 'none'", 'with the headers of every page')
  t.equal((await inject(svc, '/')).statusCode, 429, "the web client's page is a page too")
  const api = await inject(svc, '/stream/0/users/@alice')
  t.same(rateHeaders(api), { limit: '4', remaining: '3', reset: '60' }, "pages never touch the address's API calls")
  t.equal((await svc.call('GET', '/users/me', { token: alice.token })).headers['x-ratelimit-remaining'], '5', "nor alice's token, though she sent it")
  t.equal((await inject(svc, '/@alice', { ip: '203.0.113.21' })).statusCode, 200, 'the next address has its own pages')
})

t.test("alice's read markers count against her token but not her writes: a quick chat is not cut short", async (t) => {
  const svc = await limited(t, { ...SMALL, authenticated: { limit: 100, window_s: 3600 } })
  const alice = await svc.person('alice')
  const hello = await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'hello' } })
  for (let i = 0; i < 5; i++) {
    for (const path of ['/posts/marker', '/stream/0/posts/marker']) {
      const marker = await svc.call('POST', path, { token: alice.token, payload: { name: 'global', id: hello.body.data.id, percentage: i } })
      t.equal(marker.status, 200, `${path} ${i + 1}`)
      t.equal(marker.headers['x-ratelimit-limit'], '100', 'reported against her calls')
    }
  }
  const reply = await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'still here', reply_to: hello.body.data.id } })
  t.equal(reply.status, 200)
  t.same(rateHeaders(reply), { limit: '3', remaining: '1', reset: '60' }, 'the two posts are her only writes')
  t.equal((await svc.call('GET', '/users/me', { token: alice.token })).headers['x-ratelimit-remaining'], '87', 'every marker was one of her calls')
})

t.test("behind the operator's proxy each visitor's address counts; anyone else's X-Forwarded-For is their own to write, and ignored", async (t) => {
  const svc = await limited(t, SMALL, { trusted_proxies: ['192.0.2.1', '10.0.0.0/8'] })
  await svc.person('alice')
  const viaProxy = (visitor: string, proxy = '192.0.2.1') => inject(svc, '/stream/0/users/@alice', { ip: proxy, headers: { 'x-forwarded-for': visitor } })
  for (let i = 0; i < 4; i++) t.equal((await viaProxy('198.51.100.1')).statusCode, 200)
  t.equal((await viaProxy('198.51.100.1')).statusCode, 429, "bob's address ran dry")
  t.same(rateHeaders(await viaProxy('198.51.100.2')), { limit: '4', remaining: '3', reset: '60' }, 'carol, behind the same proxy, has her own calls')
  t.same(
    rateHeaders(await viaProxy('6.6.6.6, 198.51.100.3')),
    { limit: '4', remaining: '3', reset: '60' },
    'the address the proxy saw, not one the visitor wrote',
  )
  t.equal((await viaProxy('198.51.100.1', '10.1.2.3')).statusCode, 429, 'a chain of trusted proxies: still bob')
  for (let i = 0; i < 4; i++) t.equal((await viaProxy(`192.0.2.${100 + i}`, '203.0.113.66')).statusCode, 200)
  t.equal((await viaProxy('192.0.2.200', '203.0.113.66')).statusCode, 429, 'a visitor who is not a proxy cannot spread calls over made-up addresses')
})

t.test('an IPv6 visitor counts by their /64: the addresses of one network share its calls', async (t) => {
  const svc = await limited(t, SMALL, { trusted_proxies: ['192.0.2.1'] })
  await svc.person('alice')
  const from = (visitor: string) => inject(svc, '/stream/0/users/@alice', { ip: '192.0.2.1', headers: { 'x-forwarded-for': visitor } })
  for (let i = 0; i < 4; i++) t.equal((await from(`2001:db8:1:2::${i + 1}`)).statusCode, 200)
  t.equal((await from('2001:db8:1:2:ffff:ffff:ffff:ffff')).statusCode, 429, 'a fresh address of the same /64 gets no fresh calls')
  t.equal((await from('2001:db8:1:3::1')).statusCode, 200, 'the next /64 is another visitor')
  t.equal((await from('::ffff:198.51.100.9')).statusCode, 200, 'an IPv4-mapped address counts as its IPv4 one')
  t.equal((await from('198.51.100.9')).statusCode, 200)
  t.equal(rateHeaders(await from('198.51.100.9')).remaining, '1', 'one visitor, written either way')
})

t.test("another server's activities count against that server, whatever address they come from; a refusal is a 429 with Retry-After", async (t) => {
  const SITE = 'https://svc.example'
  const svc = await limited(t, SMALL, { public_url: SITE, federation: { allow_private_addresses: true } })
  const alice = await svc.person('alice')
  const [one, two] = [await remoteServer(t), await remoteServer(t)]
  const [bob, carol] = [await one.actor('bob'), await two.actor('carol')]
  const follow = async (who: RemoteActor, n: number, ip: string) => {
    const activity = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${who.id}/follows/${n}`,
      type: 'Follow',
      actor: who.id,
      object: `${SITE}/ap/users/${alice.user.id}`,
    }
    return svc.server.inject({ ...(await injectionOf(await who.signedPost(`${SITE}/ap/inbox`, activity))), remoteAddress: ip })
  }
  t.equal((await follow(bob, 1, '203.0.113.1')).statusCode, 202)
  t.equal((await follow(bob, 2, '203.0.113.2')).statusCode, 202, 'from another address, the same server')
  const refused = await follow(bob, 3, '203.0.113.3')
  t.equal(refused.statusCode, 429, "over his server's limit")
  t.match(refused.headers['retry-after'], /^\d+$/)
  t.equal((await follow(carol, 1, '203.0.113.1')).statusCode, 202, "carol's server has a limit of its own")
})
