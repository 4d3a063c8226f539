/**
 * The address svc gives itself in every URL it writes, in the origin its
 * own web client may return to, and in its cookies' Secure flag: its
 * `public_url` when set; else the request's Host, but only a name of this
 * machine or one the operator allowed; forwarded headers only from the
 * operator's proxies. Mallory writes whatever headers she likes.
 */
import t from 'tap'
import { networkInterfaces } from 'node:os'
import { makeInstance, type Instance } from '../fixtures/instance.js'

/** What mallory (or a proxy) may send: Host and forwarded headers, from an address. */
interface Sent {
  host?: string
  ip?: string
  headers?: Record<string, string>
}

const get = (svc: Instance, url: string, sent: Sent = {}) =>
  svc.server.inject({ url, remoteAddress: sent.ip, headers: { ...(sent.host ? { host: sent.host } : {}), ...sent.headers } })

const canonicalOf = async (svc: Instance, sent: Sent = {}): Promise<string> =>
  JSON.parse((await get(svc, '/stream/0/users/@alice', sent)).payload).data.canonical_url

/** The status of svc web's sign-in page asked to return to `redirect`. */
const webSignIn = async (svc: Instance, redirect: string, sent: Sent = {}): Promise<number> => {
  const web = await svc.domain.auth.apps.ensureWebClient()
  const query = new URLSearchParams({ client_id: web.client_id, response_type: 'token', redirect_uri: redirect, scope: 'basic' })
  return (await get(svc, `/oauth/authenticate?${query}`, sent)).statusCode
}

/** The session cookie the sign-in page of the test app sets. */
const cookieOf = async (svc: Instance, sent: Sent = {}): Promise<string> => {
  const query = new URLSearchParams({ client_id: svc.app.client_id, response_type: 'code', redirect_uri: 'http://client.example/callback', scope: 'basic' })
  return String((await get(svc, `/oauth/authenticate?${query}`, sent)).headers['set-cookie'])
}

t.test('a Host that names neither this machine nor an allowed name never reaches a URL svc writes', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const hello = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'hello' } })).body.data
  const mallory: Sent = { host: 'evil.example', headers: { 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil.example' } }
  t.equal(await canonicalOf(svc, mallory), 'http://127.0.0.1:0/@alice', "svc's own address instead")
  t.equal(await canonicalOf(svc, { host: 'evil.example:8080' }), 'http://127.0.0.1:0/@alice', 'with a port too')
  const post = JSON.parse((await get(svc, `/stream/0/posts/${hello.id}`, mallory)).payload).data
  t.equal(post.canonical_url, `http://127.0.0.1:0/@alice/post/${hello.id}`)
  const avatar = await get(svc, '/users/@alice/avatar', mallory)
  t.equal(avatar.statusCode, 302)
  t.match(avatar.headers.location, /^http:\/\/127\.0\.0\.1:0\//, 'the avatar redirect stays home')
  const page = await get(svc, '/@alice', mallory)
  t.equal(page.statusCode, 200)
  t.notMatch(page.payload, /evil\.example|javascript:/, 'nor does any link of her page')
  t.match(page.payload, 'href="http://127.0.0.1:0/people/alice"')
  const stream = await svc.server.inject({
    method: 'POST',
    url: '/stream/0/streams',
    headers: { host: 'evil.example', authorization: `Bearer ${svc.appToken}` },
    payload: { object_types: ['post'], type: 'long_poll' },
  })
  t.match(JSON.parse(stream.payload).data.endpoint, /^http:\/\/127\.0\.0\.1:0\/channel\/1\//, "an app stream's endpoint too")
  t.equal(await webSignIn(svc, 'http://evil.example/', mallory), 400, 'svc web may not be sent to her host after sign-in')
  t.equal(await webSignIn(svc, 'javascript://evil.example/', mallory), 400)
  t.equal(await webSignIn(svc, 'http://127.0.0.1:0/', mallory), 200, "only to svc's own root")
})

t.test("svc answers as this machine's own names, on any port", async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const own = ['localhost', 'localhost:8080', '127.0.0.1:9', '127.1.2.3:8080', '[::1]:8080', 'LOCALHOST:3000']
  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && !i.internal && i.family === 'IPv4')
  if (external) own.push(`${external.address}:8080`)
  for (const host of own) t.equal(await canonicalOf(svc, { host }), `http://${host.toLowerCase()}/@alice`, host)
  t.equal(await webSignIn(svc, 'http://localhost:8080/', { host: 'localhost:8080' }), 200, 'svc web signs in at http://localhost:PORT')
  for (const host of ['localhost.evil.example', '127.0.0.1.evil.example', 'example.localhost']) {
    t.equal(await canonicalOf(svc, { host }), 'http://127.0.0.1:0/@alice', `not ${host}`)
  }
})

t.test('allowed_hosts: the names the operator gave, a name without a port on any port', async (t) => {
  const svc = await makeInstance(t, { allowed_hosts: ['svc.example', 'social.example:8443'] })
  await svc.person('alice')
  for (const host of ['svc.example', 'svc.example:8080', 'SVC.Example', 'social.example:8443']) {
    t.equal(await canonicalOf(svc, { host }), `http://${host.toLowerCase()}/@alice`, host)
  }
  for (const host of ['social.example', 'social.example:8444', 'www.svc.example', 'evil.example']) {
    t.equal(await canonicalOf(svc, { host }), 'http://127.0.0.1:0/@alice', `not ${host}`)
  }
  t.equal(await webSignIn(svc, 'http://svc.example/', { host: 'svc.example' }), 200, 'svc web signs in at an allowed name')
  t.equal(await webSignIn(svc, 'http://svc.example/', { host: 'evil.example' }), 400, 'but only when the request came to it')
})

t.test('with public_url every URL is it, whatever Host or proxy headers say', async (t) => {
  const svc = await makeInstance(t, { public_url: 'https://svc.example/', trusted_proxies: ['loopback'] })
  await svc.person('alice')
  const sent: Sent = { host: 'localhost:8080', headers: { 'x-forwarded-proto': 'http', 'x-forwarded-host': 'localhost:9999' } }
  t.equal(await canonicalOf(svc, sent), 'https://svc.example/@alice')
  t.equal(await webSignIn(svc, 'https://svc.example/', sent), 200, 'svc web returns to the public address')
  t.equal(await webSignIn(svc, 'http://localhost:8080/', sent), 400, 'and nowhere else')
  t.match(await cookieOf(svc, sent), /; Secure/, 'an https address: Secure cookies')
})

t.test("a trusted proxy's X-Forwarded-Proto and -Host are believed, http(s) and allowed names only; no one else's are", async (t) => {
  const svc = await makeInstance(t, { trusted_proxies: ['loopback', '192.0.2.1'], allowed_hosts: ['svc.example'] })
  await svc.person('alice')
  const proxied = (headers: Record<string, string>, ip = '127.0.0.1'): Sent => ({ ip, host: '127.0.0.1:8080', headers })
  t.equal(await canonicalOf(svc, proxied({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'svc.example' })), 'https://svc.example/@alice')
  t.equal(await canonicalOf(svc, proxied({ 'x-forwarded-proto': 'HTTPS, http' }, '192.0.2.1')), 'https://127.0.0.1:8080/@alice', 'the first proxy’s word')
  t.equal(await canonicalOf(svc, proxied({ 'x-forwarded-proto': 'javascript' })), 'http://127.0.0.1:8080/@alice', 'no other scheme')
  t.equal(await canonicalOf(svc, proxied({ 'x-forwarded-host': 'evil.example' })), 'http://127.0.0.1:0/@alice', 'a forwarded host must be allowed too')
  t.equal(await webSignIn(svc, 'https://svc.example/', proxied({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'svc.example' })), 200)
  t.match(await cookieOf(svc, proxied({ 'x-forwarded-proto': 'https' })), /; Secure/, 'reached over https through the proxy: Secure')
  t.notMatch(await cookieOf(svc, proxied({ 'x-forwarded-proto': 'http' })), /Secure/)

  const mallory = proxied({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'svc.example' }, '203.0.113.9')
  t.equal(await canonicalOf(svc, mallory), 'http://127.0.0.1:8080/@alice', 'from an address that is no proxy: her own Host, still checked')
  t.equal(await webSignIn(svc, 'https://svc.example/', mallory), 400)
  t.notMatch(await cookieOf(svc, mallory), /Secure/)
})

t.test('without trusted proxies, no forwarded header is believed, even from this machine', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const sent: Sent = { host: 'localhost:8080', headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'svc.example' } }
  t.equal(await canonicalOf(svc, sent), 'http://localhost:8080/@alice')
  t.notMatch(await cookieOf(svc, sent), /Secure/)
})
