import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'

t.test('alice posts with JSON and anyone reads the post back', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  const res = await svc.call('POST', '/stream/0/posts', {
    token: alice.token,
    payload: { text: 'hi @bob #Svc', annotations: [{ type: 'com.example.mood', value: { mood: 'good' } }] },
  })
  t.equal(res.status, 200)
  const post = res.body.data
  t.match(post, {
    text: 'hi @bob #Svc',
    thread_id: post.id,
    num_replies: 0,
    num_stars: 0,
    num_reposts: 0,
    you_starred: false,
    you_reposted: false,
    machine_only: false,
    user: { username: 'alice' },
    source: { name: 'Test Client', client_id: svc.app.client_id },
  })
  t.notOk('reply_to' in post, 'no reply_to key on a root post')
  t.notOk('annotations' in post, 'annotations only when asked for')
  t.equal(
    post.html,
    '<span itemscope="https://app.net/schemas/Post">hi <span data-mention-id="2" data-mention-name="bob" itemprop="mention">@bob</span> <span data-hashtag-name="svc" itemprop="hashtag">#Svc</span></span>',
  )
  const read = await svc.call('GET', `/posts/${post.id}?include_post_annotations=1`)
  t.same(read.body.data.annotations, [{ type: 'com.example.mood', value: { mood: 'good' } }])
  t.notOk('you_starred' in read.body.data, 'anonymous readers get no personal flags')
  t.notOk('html' in (await svc.call('GET', `/posts/${post.id}?include_html=0`)).body.data)
})

t.test('bob replies with a form post and the thread counts it', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const root = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'root' } })).body.data
  const res = await svc.server.inject({
    method: 'POST',
    url: '/posts',
    headers: { ...bob.auth, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `text=re%3A+root&reply_to=${root.id}`,
  })
  const reply = JSON.parse(res.payload).data
  t.match(reply, { text: 're: root', reply_to: root.id, thread_id: root.id })
  t.equal((await svc.call('GET', `/posts/${root.id}`)).body.data.num_replies, 1)
})

t.test('user-given links with parse_links, and markdown links', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const custom = await svc.call('POST', '/posts', {
    token: alice.token,
    payload: { text: 'see here and example.com', entities: { links: [{ pos: 4, len: 4, url: 'https://svc.example/x' }], parse_links: true } },
  })
  t.equal(custom.status, 200)
  t.same(
    custom.body.data.entities.links.map((l: { url: string }) => l.url),
    ['https://svc.example/x', 'http://example.com'],
  )
  const md = await svc.call('POST', '/posts', {
    token: alice.token,
    payload: { text: 'read [the docs](https://svc.example/docs)', entities: { parse_markdown_links: true } },
  })
  t.equal(md.body.data.entities.links[0].url, 'https://svc.example/docs')
  t.notMatch(md.body.data.text, /\]\(/)
})

t.test('bad posts are 400s that say Bad Request', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  for (const payload of [
    { text: 'x'.repeat(257) },
    {},
    { text: 'hi', reply_to: 'abc' },
    { text: 'hi', annotations: [{ type: 'svc.core.nope', value: {} }] },
    { text: 'hi', annotations: 'no' },
  ]) {
    const res = await svc.call('POST', '/posts', { token: alice.token, payload })
    t.equal(res.status, 400, JSON.stringify(payload).slice(0, 60))
    t.match(res.body.meta.error_message, /^Bad Request: /)
  }
})

t.test('creating needs a user token with write_post', async (t) => {
  const svc = await makeInstance(t)
  const reader = await svc.person('alice', { scopes: ['basic', 'stream'] })
  t.equal((await svc.call('POST', '/posts', { payload: { text: 'hi' } })).status, 401)
  t.equal((await svc.call('POST', '/posts', { token: svc.appToken, payload: { text: 'hi' } })).status, 403)
  t.equal((await svc.call('POST', '/posts', { token: reader.token, payload: { text: 'hi' } })).status, 403)
})

t.test('GET /posts answers the known ids in order and needs a token', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const a = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'a' } })).body.data
  const b = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'b' } })).body.data
  t.equal((await svc.call('GET', `/posts?ids=${a.id}`)).status, 401)
  const res = await svc.call('GET', `/posts?ids=${b.id},999,${a.id}`, { token: svc.appToken })
  t.same(
    res.body.data.map((p: { text: string }) => p.text),
    ['b', 'a'],
  )
  t.equal((await svc.call('GET', '/posts/999')).status, 404)
})

t.test('alice deletes her post: it keeps its place but loses its text', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const post = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'oops #tag' } })).body.data
  t.equal((await svc.call('DELETE', `/posts/${post.id}`, { token: bob.token })).status, 403)
  const res = await svc.call('DELETE', `/posts/${post.id}`, { token: alice.token })
  t.equal(res.status, 200)
  const gone = res.body.data
  t.match(gone, {
    id: post.id,
    is_deleted: true,
    deleted: '1',
    entities: { mentions: [], hashtags: [], links: [] },
    user: { username: 'alice' },
    thread_id: post.id,
  })
  t.notOk('text' in gone)
  t.notOk('html' in gone)
  const read = await svc.call('GET', `/posts/${post.id}`)
  t.equal(read.body.data.is_deleted, true, 'deleted posts still answer lookups')
  t.equal((await svc.call('GET', '/users/@alice')).body.data.counts.posts, 0)
})

t.test('more than 200 ids is a 400', async (t) => {
  const svc = await makeInstance(t)
  const ids = Array.from({ length: 201 }, (_, i) => i + 1).join(',')
  const res = await svc.call('GET', `/posts?ids=${ids}`, { token: svc.appToken })
  t.equal(res.status, 400)
  t.match(res.body.meta.error_message, /^Bad Request: /)
})

t.test("include_annotations shows post and user annotations; include_post_annotations only the post's", async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  // Profile editing is another part of the API; alice's annotations are set on her row here.
  await svc.store.transact((tx) => tx.users.put({ ...alice.user, annotations: [{ type: 'com.example.bio', value: { x: 1 } }] }))
  const post = (
    await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'annotated', annotations: [{ type: 'com.example.tag', value: { y: 2 } }] } })
  ).body.data
  const all = (await svc.call('GET', `/posts/${post.id}?include_annotations=1`)).body.data
  t.same(all.annotations, [{ type: 'com.example.tag', value: { y: 2 } }])
  t.same(all.user.annotations, [{ type: 'com.example.bio', value: { x: 1 } }])
  const postOnly = (await svc.call('GET', `/posts/${post.id}?include_post_annotations=1`)).body.data
  t.ok(postOnly.annotations)
  t.notOk('annotations' in postOnly.user)
  const userOnly = (await svc.call('GET', `/posts/${post.id}?include_user_annotations=1`)).body.data
  t.notOk('annotations' in userOnly)
  t.ok(userOnly.user.annotations)
})

t.test('a machine-only post over HTTP, hidden from lists unless include_machine=1', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await svc.call('POST', '/posts', {
    token: alice.token,
    payload: { machine_only: true, annotations: [{ type: 'com.example.sync', value: { v: 1 } }] },
  })
  t.equal(res.status, 200)
  t.match(res.body.data, { machine_only: true, text: '' })
  t.same((await svc.call('GET', '/users/@alice/posts')).body.data, [])
  t.equal((await svc.call('GET', '/users/@alice/posts?include_machine=1')).body.data.length, 1)
  const empty = await svc.call('POST', '/posts', { token: alice.token, payload: { machine_only: true } })
  t.equal(empty.status, 400)
})

t.test('GET /posts takes a repeated ids key as one list', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const a = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'a' } })).body.data
  const b = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'b' } })).body.data
  const c = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'c' } })).body.data
  const res = await svc.call('GET', `/posts?ids=${c.id}&ids=${a.id},999&ids=${b.id}`, { token: svc.appToken })
  t.equal(res.status, 200)
  t.same(
    res.body.data.map((p: { text: string }) => p.text),
    ['c', 'a', 'b'],
  )
})

t.test('post text is at most 256 code points; annotations at most 8192 bytes', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  t.equal((await svc.call('POST', '/posts', { token: alice.token, payload: { text: '😊'.repeat(256) } })).status, 200)
  const long = await svc.call('POST', '/posts', { token: alice.token, payload: { text: '😊'.repeat(257) } })
  t.equal(long.status, 400)
  t.match(long.body.meta.error_message, /^Bad Request: .*256/)
  const annotation = (bytes: number) => {
    const empty = JSON.stringify([{ type: 'com.example.big', value: { v: '' } }]).length
    return [{ type: 'com.example.big', value: { v: 'x'.repeat(bytes - empty) } }]
  }
  t.equal((await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'fits', annotations: annotation(8192) } })).status, 200)
  const big = await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'too big', annotations: annotation(8193) } })
  t.equal(big.status, 400)
  t.match(big.body.meta.error_message, /^Bad Request: .*8192/)
})
