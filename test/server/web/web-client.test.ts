/**
 * The web client's page and files as the server answers them: the page at
 * `/` and at the client's own sections, with the instance's settings in it;
 * the built files by their hashed names only; svc's own app signing in only
 * back to the address the request reached.
 */
import t from 'tap'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { makeInstance } from '../../fixtures/instance.js'
import { ROOT } from '../../project-root.js'

const settingsOf = (html: string) => JSON.parse(/<script id="svc-settings" type="application\/json">(.*?)<\/script>/.exec(html)?.[1] ?? 'null')

t.test('the page at / and at each section carries the instance, escaped, and svc web’s client_id', async (t) => {
  const svc = await makeInstance(t, { name: 'Tea </script> & Cake', description: '<b>cosy</b>', open_registration: false })
  const web = await svc.domain.auth.apps.ensureWebClient()
  for (const path of ['/', '/home', '/people/alice', '/thread/12', '/messages/3', '/settings']) {
    const res = await svc.server.inject(path)
    t.equal(res.statusCode, 200, path)
    t.match(res.headers['content-type'], /^text\/html/)
    t.match(res.headers['content-security-policy'], "default-src 'self'")
    t.notMatch(res.headers['content-security-policy'], /unsafe-eval|'unsafe-inline'[^;]*script/, 'no inline or eval scripts allowed')
    t.same(settingsOf(res.payload), { name: 'Tea </script> & Cake', description: '<b>cosy</b>', client_id: web.client_id, registration: 'invite' })
    t.match(res.payload, '<title>Tea &lt;/script&gt; &amp; Cake</title>')
    t.notMatch(res.payload, '<b>cosy</b>', 'the description never as markup')
  }
  const nowhere = await svc.call('GET', '/nowhere')
  t.same([nowhere.status, nowhere.body.meta.code], [404, 404], 'other paths keep their API meaning')
})

t.test('a browser that lands on an address nobody answers gets the client (404) to say so; the API and the server’s pages keep their own 404', async (t) => {
  const svc = await makeInstance(t)
  const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }
  for (const path of ['/search?q=tea', '/notifications', '/notifications/stars']) {
    const res = await svc.server.inject({ url: path, headers: html })
    t.equal(res.statusCode, 200, `${path}: one of the client's own sections`)
    t.ok(settingsOf(res.payload), 'the client page')
  }
  for (const path of ['/nowhere', '/sarch', '/home-town/x?y=1']) {
    const res = await svc.server.inject({ url: path, headers: html })
    t.equal(res.statusCode, 404, path)
    t.match(res.headers['content-type'], /^text\/html/, `${path}: the client page`)
    t.ok(settingsOf(res.payload), 'with the instance in it')
    t.match(res.headers['content-security-policy'], /script-src 'nonce-/, 'under the page’s own policy')
  }
  for (const path of ['/nowhere', '/stream/0/nowhere', '/stream/0/search', '/users/1/nowhere', '/oauth/nowhere', '/assets/nope.js', '/@nobody/post/x/y']) {
    const asked = path === '/nowhere' ? {} : html
    const res = await svc.server.inject({ url: path, headers: asked })
    t.equal(res.statusCode, 404, path)
    t.match(res.headers['content-type'], /^application\/json/, `${path}: JSON`)
    t.equal(JSON.parse(res.payload).meta.code, 404, `${path}: the envelope`)
  }
  const post = await svc.server.inject({ method: 'POST', url: '/nowhere', headers: html })
  t.same([post.statusCode, JSON.parse(post.payload).meta.code], [404, 404], 'only GET asks for a page')
  const wrongMethod = await svc.server.inject({ url: '/posts/1/report', headers: html })
  t.same([wrongMethod.statusCode, wrongMethod.headers.allow], [405, 'POST'], 'an API path read with the wrong method still says which one')
})

t.test('built files are served by their names, cached for good; anything else is refused in the envelope', async (t) => {
  const svc = await makeInstance(t)
  const script = readdirSync(join(ROOT, 'dist', 'web', 'assets')).find((f) => f.endsWith('.js')) as string
  const res = await svc.server.inject(`/assets/${script}`)
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /javascript/)
  t.match(res.headers['cache-control'], /max-age=31536000/)
  for (const [path, status] of [
    ['/assets/nope.js', 404],
    [`/assets/${'a'.repeat(300)}`, 400],
    ['/assets/..%2F..%2Fconfig.json', 400],
    ['/assets/a%20b.js', 400],
  ] as const) {
    const refused = await svc.call('GET', path)
    t.equal(refused.status, status, path)
    t.equal(refused.body.meta.code, status)
  }
})

t.test('svc web signs people in only back to the root of the address the request reached', async (t) => {
  const svc = await makeInstance(t, { allowed_hosts: ['svc.example'] })
  const web = await svc.domain.auth.apps.ensureWebClient()
  t.equal((await svc.domain.auth.apps.ensureWebClient()).id, web.id, 'registered once')
  const authorize = (redirect: string, host = '127.0.0.1:0') =>
    svc.server.inject({
      url: `/oauth/authenticate?${new URLSearchParams({ client_id: web.client_id, response_type: 'token', redirect_uri: redirect, scope: 'basic' })}`,
      headers: { host },
    })
  t.equal((await authorize('http://127.0.0.1:0/')).statusCode, 200, 'its own root: the sign-in page')
  t.equal((await authorize('http://svc.example/', 'svc.example')).statusCode, 200, 'at a name the operator allowed too')
  t.equal((await authorize('http://evil.example/', 'evil.example')).statusCode, 400, 'never at a Host the visitor wrote')
  for (const elsewhere of ['http://evil.example/', 'http://127.0.0.1:0/home', 'http://127.0.0.1:1/', 'https://127.0.0.1:0/']) {
    const res = await authorize(elsewhere)
    t.equal(res.statusCode, 400, `not ${elsewhere}`)
  }
  const other = await svc.server.inject(
    `/oauth/authenticate?${new URLSearchParams({ client_id: svc.app.client_id, response_type: 'token', redirect_uri: 'http://127.0.0.1:0/', scope: 'basic' })}`,
  )
  t.equal(other.statusCode, 400, 'another app may not borrow that rule')
})

const directive = (csp: string, name: string): string | undefined =>
  csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `))

t.test('the page runs only its own scripts, by a nonce new for each answer, and connects only to its own address', async (t) => {
  const svc = await makeInstance(t)
  const [one, two] = [await svc.server.inject('/'), await svc.server.inject('/home')]
  const nonces = [one, two].map((res) => {
    const csp = String(res.headers['content-security-policy'])
    const scripts = directive(csp, 'script-src') ?? ''
    const nonce = /^script-src 'nonce-([A-Za-z0-9+/=]{24})' 'strict-dynamic'$/.exec(scripts)?.[1]
    t.ok(nonce, `script-src names a nonce and no source of its own: ${scripts}`)
    const tags = [...res.payload.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]).filter((tag) => !tag.includes('application/json'))
    t.ok(tags.length >= 1, 'the built page has its script')
    for (const tag of tags) t.match(tag, `nonce="${nonce}"`, 'each of its scripts carries the nonce')
    t.equal(directive(csp, 'connect-src'), "connect-src 'self' ws://127.0.0.1:0", 'its own origin and its own WebSocket, not any ws: or wss: host')
    t.equal(directive(csp, 'frame-ancestors'), "frame-ancestors 'none'")
    t.equal(directive(csp, 'object-src'), "object-src 'none'")
    t.equal(res.headers['x-content-type-options'], 'nosniff')
    t.equal(res.headers['referrer-policy'], 'no-referrer')
    return nonce
  })
  t.not(nonces[0], nonces[1], 'a new nonce for each answer')
  const secure = await makeInstance(t, { public_url: 'https://svc.example' })
  const csp = String((await secure.server.inject({ url: '/', headers: { host: 'evil.example' } })).headers['content-security-policy'])
  t.equal(directive(csp, 'connect-src'), "connect-src 'self' wss://svc.example", 'over https, the secure WebSocket of the public address')
})
