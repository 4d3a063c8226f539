/** A post's canonical_url, opened in a browser: the post's page. */
import t from 'tap'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'

const post = async (svc: Instance, who: Person, payload: Record<string, unknown>) => (await svc.call('POST', '/posts', { token: who.token, payload })).body.data

const page = (svc: Instance, url: string) => svc.server.inject(new URL(url, 'http://127.0.0.1:0').pathname)

t.test('the canonical_url GET /posts/{id} hands out answers the post page: author, html, time and counts', async (t) => {
  const svc = await makeInstance(t, { public_url: 'https://svc.example' })
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const hello = await post(svc, alice, { text: 'hello #tea with @bob' })
  await post(svc, bob, { text: 'hi back', reply_to: hello.id })
  await svc.call('POST', `/posts/${hello.id}/star`, { token: bob.token })
  const { canonical_url, html, created_at } = (await svc.call('GET', `/posts/${hello.id}`)).body.data
  t.equal(canonical_url, `https://svc.example/@alice/post/${hello.id}`)

  const res = await page(svc, canonical_url)
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], 'text/html; charset=utf-8')
  t.equal(res.headers['content-security-policy'], "default-src 'none'; img-src https://svc.example; style-src 'unsafe-inline'; frame-ancestors 'none'")
  t.ok(html.includes('data-hashtag-name="tea"'), 'the API marks the entities')
  t.ok(
    res.payload.includes('<p class="text">hello <a href="https://svc.example/explore/tag/tea">#tea</a> with <a href="https://svc.example/@bob">@bob</a></p>'),
    'the page links them: the tag to its page in the web client, the mention to its public page',
  )
  t.match(
    res.payload,
    /<a href="https:\/\/svc\.example\/@alice"><strong>Alice<\/strong><\/a> <a href="https:\/\/svc\.example\/@alice" class="muted">@alice<\/a>/,
  )
  t.match(res.payload, /<img src="https:\/\/svc\.example\/images\/default-avatar\.png\?w=48&amp;h=48"/)
  t.ok(res.payload.includes(`<time datetime="${created_at}">${created_at.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC')}</time>`))
  t.match(res.payload, /1 reply · 1 star · 0 reposts/)
  t.notMatch(res.payload, /In reply to/)
})

t.test('a reply links to the post it answers, or says it is not shown once deleted', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const hello = await post(svc, alice, { text: 'hello' })
  const reply = await post(svc, bob, { text: 'hi back', reply_to: hello.id })
  const res = await page(svc, reply.canonical_url)
  t.match(res.payload, new RegExp(`In reply to <a href="http://127\\.0\\.0\\.1:0/@alice/post/${hello.id}">Alice \\(@alice\\)</a>`))
  t.match(res.payload, /0 replies · 0 stars · 0 reposts/)
  await svc.call('DELETE', `/posts/${hello.id}`, { token: alice.token })
  const after = await page(svc, reply.canonical_url)
  t.equal(after.statusCode, 200)
  t.match(after.payload, /In reply to a post not shown here/)
})

t.test('a name and a text holding markup are shown as text', async (t) => {
  const svc = await makeInstance(t)
  const mallory = await svc.person('mallory')
  await svc.call('PATCH', '/users/me', { token: mallory.token, payload: { name: '<script>alert(1)</script>' } })
  const bad = await post(svc, mallory, { text: '<script>alert("hi")</script> & more' })
  const res = await page(svc, bad.canonical_url)
  t.equal(res.statusCode, 200)
  t.notMatch(res.payload, /<script/)
  t.match(res.payload, /<strong>&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/strong>/)
  t.match(res.payload, /&lt;script&gt;alert\(&quot;hi&quot;\)&lt;\/script&gt; &amp; more/)
  t.match(res.payload, /<title>&lt;script&gt;alert\(1\)&lt;\/script&gt; \(@mallory\): &lt;script&gt;/)
})

t.test('deleted, machine-only and unknown posts answer a 404 page, as unknown users do', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const gone = await post(svc, alice, { text: 'soon gone' })
  await svc.call('DELETE', `/posts/${gone.id}`, { token: alice.token })
  const machine = await post(svc, alice, { machine_only: true, annotations: [{ type: 'com.example.x', value: { a: 1 } }] })
  for (const url of [`/@alice/post/${gone.id}`, `/@alice/post/${machine.id}`, '/@alice/post/999999']) {
    const res = await svc.server.inject(url)
    t.equal(res.statusCode, 404, url)
    t.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    t.match(res.payload, /<h1>Not found<\/h1><p class="error">post \d+ not found<\/p>/)
  }
  const bad = await svc.server.inject('/@alice/post/abc')
  t.equal(bad.statusCode, 400)
  t.equal(bad.headers['content-type'], 'text/html; charset=utf-8')
})

t.test('another username or a repost leads on to the post at its own address', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const hello = await post(svc, alice, { text: 'hello' })
  const repost = (await svc.call('POST', `/posts/${hello.id}/repost`, { token: bob.token })).body.data
  t.equal(repost.canonical_url, `http://127.0.0.1:0/@bob/post/${repost.id}`)
  for (const url of [`/@bob/post/${hello.id}`, `/@nobody/post/${hello.id}`, new URL(repost.canonical_url).pathname]) {
    const res = await svc.server.inject(url)
    t.equal(res.statusCode, 302, url)
    t.equal(res.headers.location, `http://127.0.0.1:0/@alice/post/${hello.id}`)
  }
  t.equal((await svc.server.inject(`/@ALICE/post/${hello.id}`)).statusCode, 200, 'any case, as user pages')
})

t.test('the page reads as nobody: a viewer blocked by the author still sees it', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const hello = await post(svc, alice, { text: 'hello' })
  await svc.call('POST', `/users/${bob.user.id}/block`, { token: alice.token })
  t.equal((await svc.call('GET', `/posts/${hello.id}`, { token: bob.token })).status, 404, 'the API hides it from bob')
  const res = await svc.server.inject({ url: `/@alice/post/${hello.id}`, headers: bob.auth })
  t.equal(res.statusCode, 200, 'the page takes no token')
})

t.test('the page counts against the same per-address page bucket as the user page, not the API calls', async (t) => {
  const rate_limits = {
    enabled: true,
    authenticated: { limit: 6, window_s: 3600 },
    write: { limit: 3, window_s: 60 },
    unauthenticated: { limit: 3, window_s: 60 },
    pages: { limit: 3, window_s: 60 },
  }
  const svc = await makeInstance(t, { rate_limits })
  const alice = await svc.person('alice')
  const hello = await post(svc, alice, { text: 'hello' })
  const fromIp = (url: string) => svc.server.inject({ url, remoteAddress: '198.51.100.7' })
  t.equal((await fromIp('/@alice')).statusCode, 200)
  const first = await fromIp(`/@alice/post/${hello.id}`)
  t.equal(first.statusCode, 200)
  t.notOk('x-ratelimit-remaining' in first.headers, 'a page reports no API bucket')
  await fromIp('/@alice')
  const refused = await fromIp(`/@alice/post/${hello.id}`)
  t.equal(refused.statusCode, 429)
  t.match(refused.headers['content-type'], /^text\/html/, 'refused with a page')
  t.equal((await fromIp('/stream/0/users/@alice')).headers['x-ratelimit-remaining'], '2', "the address's API calls are untouched")
})
