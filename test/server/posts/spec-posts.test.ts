/**
 * The posts part of the API contract, fact by fact: the Post and Entities
 * objects, the deleted shape, reposts, stars, the post streams with their
 * token rules, the post general parameters' defaults and the post limits.
 */
import t from 'tap'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'

type Post = Record<string, any>

const post = async (svc: Instance, who: Person, payload: Record<string, unknown>): Promise<Post> => {
  const res = await svc.call('POST', '/stream/0/posts', { token: who.token, payload })
  if (res.status !== 200) throw new Error(`post failed: ${JSON.stringify(res.body)}`)
  return res.body.data
}
const texts = (res: { body: { data: Post[] } }) => res.body.data.map((p) => p.text ?? `deleted ${p.id}`)
const keys = (o: object) => Object.keys(o).sort()

const POST_KEYS = [
  'canonical_url',
  'created_at',
  'entities',
  'html',
  'id',
  'machine_only',
  'num_replies',
  'num_reposts',
  'num_stars',
  'source',
  'text',
  'thread_id',
  'user',
]
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/

t.test('a post has the listed fields with their types, ids as strings, and nothing unasked', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const made = await post(svc, alice, { text: 'hello' })
  const seen = (await svc.call('GET', `/stream/0/posts/${made.id}`, { token: bob.token })).body.data
  t.same(keys(seen), [...POST_KEYS, 'you_reposted', 'you_starred'].sort())
  t.match(seen.id, /^\d+$/)
  t.equal(seen.thread_id, seen.id, 'a root post is its own thread, as a string')
  t.match(seen.created_at, ISO)
  t.equal(seen.canonical_url, `http://127.0.0.1:0/@alice/post/${seen.id}`)
  t.same([seen.machine_only, seen.num_replies, seen.num_reposts, seen.num_stars, seen.you_reposted, seen.you_starred], [false, 0, 0, 0, false, false])
  t.same(seen.source, { client_id: svc.app.client_id, link: '', name: 'Test Client' })
  t.equal(seen.user.id, String(alice.user.id))
  const byApp = (await svc.call('GET', `/posts/${made.id}`, { token: svc.appToken })).body.data
  t.same(keys(byApp), POST_KEYS, 'no viewer flags without a user')
})

t.test('a reply names its parent in reply_to and its thread root in thread_id, both strings', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const root = await post(svc, alice, { text: 'root' })
  const reply = await post(svc, bob, { text: 'reply', reply_to: root.id })
  const deeper = await post(svc, alice, { text: 'deeper', reply_to: Number(reply.id) })
  t.same([reply.reply_to, reply.thread_id], [root.id, root.id])
  t.same([deeper.reply_to, deeper.thread_id], [reply.id, root.id])
  t.same(keys(deeper), [...POST_KEYS, 'reply_to', 'you_reposted', 'you_starred'].sort())
  t.equal((await svc.call('GET', `/posts/${root.id}`)).body.data.num_replies, 1, 'only direct replies count')
})

t.test('entities: three lists always, each item with exactly its keys, code point positions, is_leading only on the leading run', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const plain = await post(svc, alice, { text: 'nothing here' })
  t.same(plain.entities, { mentions: [], hashtags: [], links: [] })
  const rich = await post(svc, alice, { text: '@Bob @carol 😊 #Tag app.net and @bob.' })
  t.same(rich.entities, {
    mentions: [
      { pos: 0, len: 4, name: 'bob', id: String(bob.user.id), is_leading: true },
      { pos: 5, len: 6, name: 'carol', id: String(carol.user.id), is_leading: true },
      { pos: 31, len: 4, name: 'bob', id: String(bob.user.id) },
    ],
    hashtags: [{ pos: 14, len: 4, name: 'tag' }],
    links: [{ pos: 19, len: 7, text: 'app.net', url: 'http://app.net' }],
  })
  t.equal(
    rich.html,
    '<span itemscope="https://app.net/schemas/Post">' +
      `<span data-mention-id="${bob.user.id}" data-mention-name="bob" itemprop="mention">@Bob</span> ` +
      `<span data-mention-id="${carol.user.id}" data-mention-name="carol" itemprop="mention">@carol</span> &#128522; ` +
      '<span data-hashtag-name="tag" itemprop="hashtag">#Tag</span> <a href="http://app.net">app.net</a> and ' +
      `<span data-mention-id="${bob.user.id}" data-mention-name="bob" itemprop="mention">@bob</span>.</span>`,
  )
})

t.test('post html escapes &, < and >, keeps quotes, writes \\r\\n as &#13;<br> and non-ASCII as references', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await post(svc, alice, { text: `a & b <i> "q" 'q'\r\nnext line é http://x.example/?a=1&b=2` })
  t.equal(
    made.html,
    `<span itemscope="https://app.net/schemas/Post">a &amp; b &lt;i&gt; "q" 'q'&#13;<br>next line &#233; <a href="http://x.example/?a=1&amp;b=2">http://x.example/?a=1&amp;b=2</a></span>`,
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

t.test('annotations are {type, value} objects, shown only with include_annotations or include_post_annotations', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const made = await post(svc, alice, {
    text: 'note',
    annotations: [
      { type: 'com.example.a', value: { n: 1 } },
      { type: 'com.example.a', value: { n: 2 } },
    ],
  })
  t.notOk('annotations' in made)
  const repost = (await svc.call('POST', `/posts/${made.id}/repost?include_annotations=1`, { token: bob.token })).body.data
  t.same(repost.annotations, [], 'a repost carries none of its own')
  t.same(
    repost.repost_of.annotations,
    [
      { type: 'com.example.a', value: { n: 1 } },
      { type: 'com.example.a', value: { n: 2 } },
    ],
    'the embedded original shows its own',
  )
  t.same(repost.user.annotations, [])
  const listed = await svc.call('GET', '/users/@alice/posts?include_post_annotations=1')
  t.same(listed.body.data[0].annotations, [
    { type: 'com.example.a', value: { n: 1 } },
    { type: 'com.example.a', value: { n: 2 } },
  ])
  t.notOk('annotations' in listed.body.data[0].user)
})

t.test('a deleted post keeps every field but text and html, gains is_deleted and deleted "1", and has empty entities', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const root = await post(svc, bob, { text: 'root' })
  const reply = await post(svc, alice, { text: 'hi @bob #x', reply_to: root.id })
  await svc.call('POST', `/posts/${reply.id}/star`, { token: bob.token })
  const gone = (await svc.call('DELETE', `/posts/${reply.id}`, { token: alice.token })).body.data
  t.same(keys(gone), [...POST_KEYS.filter((k) => k !== 'text' && k !== 'html'), 'deleted', 'is_deleted', 'reply_to', 'you_reposted', 'you_starred'].sort())
  t.same([gone.is_deleted, gone.deleted, gone.reply_to, gone.thread_id, gone.num_stars, gone.created_at], [true, '1', root.id, root.id, 1, reply.created_at])
  t.same(gone.entities, { mentions: [], hashtags: [], links: [] })
  const listed = await svc.call('GET', '/users/@alice/posts')
  t.same(
    listed.body.data.map((p: Post) => [p.id, p.is_deleted]),
    [[reply.id, true]],
    'include_deleted defaults to 1 in lists',
  )
  t.same((await svc.call('GET', '/users/@alice/posts?include_deleted=0')).body.data, [])
  t.equal((await svc.call('POST', `/posts/${reply.id}/repost`, { token: bob.token })).body.meta.error_message, 'Bad Request: You cannot repost a deleted post')
})

t.test('a repost reads ">> @user: text", may pass 256 characters, inherits entities and html, and embeds the original', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const long = `#tag ${'x'.repeat(251)}`
  const original = await post(svc, alice, { text: long })
  const res = await svc.call('POST', `/posts/${original.id}/repost`, { token: bob.token })
  t.equal(res.status, 200)
  const repost = res.body.data
  t.equal(repost.text, `>> @alice: ${long}`)
  t.equal([...repost.text].length, 267)
  t.same(repost.entities, { mentions: [{ pos: 3, len: 6, name: 'alice', id: String(alice.user.id) }], hashtags: [{ pos: 11, len: 4, name: 'tag' }], links: [] })
  t.equal(
    repost.html,
    `<span itemscope="https://app.net/schemas/Post">&gt;&gt; <span data-mention-id="${alice.user.id}" data-mention-name="alice" itemprop="mention">@alice</span>: ` +
      `<span data-hashtag-name="tag" itemprop="hashtag">#tag</span> ${'x'.repeat(251)}</span>`,
  )
  t.same([repost.user.username, repost.you_reposted, repost.num_reposts, repost.machine_only], ['bob', false, 0, false])
  t.same(keys(repost), [...POST_KEYS, 'repost_of', 'you_reposted', 'you_starred'].sort())
  t.same([repost.repost_of.id, repost.repost_of.text, repost.repost_of.you_reposted, repost.repost_of.num_reposts], [original.id, long, true, 1])
  const sample = await svc.call('GET', `/posts/${repost.id}?include_reposters=1`)
  t.same(
    sample.body.data.repost_of.reposters.map((u: Post) => u.username),
    ['bob'],
    'repost_of.reposters with include_reposters=1',
  )
})

t.test('star and repost need a user token with write_post (or its alias post)', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const reader = await svc.person('reader', { scopes: ['basic', 'stream'] })
  const poster = await svc.person('poster', { scopes: ['basic', 'post'] })
  const made = await post(svc, alice, { text: 'target' })
  for (const [method, path] of [
    ['POST', 'star'],
    ['DELETE', 'star'],
    ['POST', 'repost'],
    ['DELETE', 'repost'],
  ]) {
    const url = `/stream/0/posts/${made.id}/${path}`
    t.equal((await svc.call(method, url)).status, 401, `${method} ${path} without a token`)
    t.equal((await svc.call(method, url, { token: svc.appToken })).status, 403, `${method} ${path} with an app token`)
    t.equal((await svc.call(method, url, { token: reader.token })).status, 403, `${method} ${path} without write_post`)
    t.equal((await svc.call(method, url, { token: poster.token })).status, 200, `${method} ${path} with post`)
  }
})

t.test('stars: POST answers you_starred true and num_stars up, DELETE you_starred false and num_stars down', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const made = await post(svc, alice, { text: 'starry' })
  await svc.call('POST', `/posts/${made.id}/star`, { token: carol.token })
  const starred = (await svc.call('POST', `/posts/${made.id}/star`, { token: bob.token })).body.data
  t.same([starred.id, starred.you_starred, starred.num_stars], [made.id, true, 2])
  const unstarred = (await svc.call('DELETE', `/posts/${made.id}/star`, { token: bob.token })).body.data
  t.same([unstarred.id, unstarred.you_starred, unstarred.num_stars], [made.id, false, 1])
  const never = await svc.call('DELETE', `/posts/${made.id}/star`, { token: alice.token })
  t.same([never.status, never.body.data.you_starred, never.body.data.num_stars], [200, false, 1], 'unstarring a post one never starred changes nothing')
})

t.test('a repost cannot be starred: star the parent', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const made = await post(svc, alice, { text: 'original' })
  const repost = (await svc.call('POST', `/posts/${made.id}/repost`, { token: bob.token })).body.data
  const res = await svc.call('POST', `/posts/${repost.id}/star`, { token: alice.token })
  t.equal(res.status, 400)
  t.match(res.body.meta.error_message, /^Bad Request: .*repost/)
  t.equal((await svc.call('GET', `/posts/${repost.id}`)).body.data.num_stars, 0)
})

t.test('reposting sets you_reposted; unreposting by either id or deleting the repost clears it', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const made = await post(svc, alice, { text: 'original' })
  const flag = async () => (await svc.call('GET', `/posts/${made.id}`, { token: bob.token })).body.data.you_reposted
  const first = (await svc.call('POST', `/posts/${made.id}/repost`, { token: bob.token })).body.data
  t.equal(await flag(), true)
  const undone = await svc.call('DELETE', `/posts/${first.id}/repost`, { token: bob.token })
  t.same([undone.body.data.id, undone.body.data.you_reposted, await flag()], [made.id, false, false], 'by the repost id, the original comes back')
  const second = (await svc.call('POST', `/posts/${made.id}/repost`, { token: bob.token })).body.data
  t.equal(await flag(), true)
  await svc.call('DELETE', `/posts/${second.id}`, { token: bob.token })
  t.equal(await flag(), false, 'deleting the repost post')
  t.equal((await svc.call('GET', `/posts/${made.id}/reposters`, { token: svc.appToken })).body.data.length, 0)
})

t.test('who can call each post list: None, Any or User (with stream for the personal streams)', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const noStream = await svc.person('nostream', { scopes: ['basic'] })
  const made = await post(svc, alice, { text: 'hello @alice #tag' })
  const table: [string, number, number, number][] = [
    // url, no token, app token, user token without stream
    ['/users/@alice/posts', 200, 200, 200],
    ['/users/@alice/stars', 200, 200, 200],
    ['/posts/stream/global', 200, 200, 200],
    ['/posts/tag/tag', 200, 200, 200],
    ['/users/@alice/mentions', 401, 200, 200],
    [`/posts/${made.id}/replies`, 401, 200, 200],
    [`/posts/${made.id}/stars`, 401, 200, 200],
    [`/posts/${made.id}/reposters`, 401, 200, 200],
    ['/posts/search?query=hello', 401, 200, 200],
    ['/posts/stream', 401, 403, 403],
    ['/posts/stream/unified', 401, 403, 403],
    ['/users/me/interactions', 401, 403, 200],
  ]
  for (const [url, none, app, user] of table) {
    const got = [
      (await svc.call('GET', `/stream/0${url}`)).status,
      (await svc.call('GET', `/stream/0${url}`, { token: svc.appToken })).status,
      (await svc.call('GET', `/stream/0${url}`, { token: noStream.token })).status,
    ]
    t.same(got, [none, app, user], url)
  }
})

t.test('user lists take an id, me or @name', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const made = await post(svc, alice, { text: 'hi @bob' })
  await svc.call('POST', `/posts/${made.id}/star`, { token: bob.token })
  for (const ref of [String(bob.user.id), 'me', '@bob', '@BOB']) {
    t.same(texts(await svc.call('GET', `/users/${ref}/stars`, { token: bob.token })), ['hi @bob'], `stars of ${ref}`)
    t.same(texts(await svc.call('GET', `/users/${ref}/mentions`, { token: bob.token })), ['hi @bob'], `mentions of ${ref}`)
  }
  t.same(texts(await svc.call('GET', '/users/me/posts', { token: alice.token })), ['hi @bob'])
})

t.test('paginated post lists: 20 by default, meta more/min_id/max_id as strings, pagination_id on each item, nothing on an empty page', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made: Post[] = []
  for (let i = 0; i < 21; i++) made.push(await post(svc, alice, { text: `#n p${i}` }))
  for (const url of ['/users/@alice/posts', '/posts/stream/global', '/posts/tag/n']) {
    const res = await svc.call('GET', url)
    t.equal(res.body.data.length, 20, url)
    t.same(res.body.meta, { code: 200, more: true, min_id: made[1].id, max_id: made[20].id, marker: res.body.meta.marker }, url)
    t.same(
      res.body.data.map((p: Post) => p.pagination_id),
      made
        .slice(1)
        .reverse()
        .map((p) => p.id),
      url,
    )
  }
  const empty = await svc.call('GET', `/users/@alice/posts?since_id=${made[20].id}`)
  t.same(empty.body, { data: [], meta: { code: 200, more: false, marker: { name: `posts:${alice.user.id}` } } })
  const single = (await svc.call('GET', `/posts/${made[0].id}`)).body.data
  t.notOk('pagination_id' in single, 'only list items carry pagination_id')
})

t.test('each post list names its stream marker', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await post(svc, alice, { text: 'hi' })
  const marker = async (url: string) => (await svc.call('GET', url, { token: alice.token })).body.meta.marker
  t.same(await marker('/users/@alice/posts'), { name: `posts:${alice.user.id}` })
  t.same(await marker('/users/me/mentions'), { name: `mentions:${alice.user.id}` })
  t.same(await marker('/posts/stream'), { name: 'my_stream' })
  t.same(await marker('/posts/stream/unified'), { name: 'unified' })
  t.same(await marker('/posts/stream/global'), { name: 'global' })
  t.same(await marker('/posts/tag/%23Music'), { name: 'tag:music' })
  t.equal(await marker(`/posts/${made.id}/replies`), undefined)
  t.equal(await marker('/users/me/stars'), undefined)
})

t.test('post general parameters: machine-only, starred_by and reposters samples are off by default', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const made = await post(svc, alice, { text: 'popular #p' })
  await post(svc, alice, { machine_only: true, annotations: [{ type: 'com.example.sync', value: {} }] })
  await svc.call('POST', `/posts/${made.id}/star`, { token: bob.token })
  await svc.call('POST', `/posts/${made.id}/repost`, { token: bob.token })
  const plain = (await svc.call('GET', `/posts/${made.id}`)).body.data
  t.notOk('starred_by' in plain)
  t.notOk('reposters' in plain)
  const asked = (await svc.call('GET', `/posts/${made.id}?include_starred_by=1&include_reposters=1`)).body.data
  t.same([asked.starred_by.map((u: Post) => u.username), asked.reposters.map((u: Post) => u.username)], [['bob'], ['bob']])
  for (const url of ['/users/@alice/posts', '/posts/stream', '/posts/stream/unified', '/posts/stream/global']) {
    const count = async (q: string) => (await svc.call('GET', `${url}${q}`, { token: alice.token })).body.data.filter((p: Post) => p.machine_only).length
    t.same([await count(''), await count('?include_machine=1')], [0, 1], url)
  }
  const listed = (await svc.call('GET', '/posts/tag/p?include_starred_by=1')).body.data[0]
  t.same(
    listed.starred_by.map((u: Post) => u.username),
    ['bob'],
    'lists take the samples too',
  )
})

t.test('include_muted is 0 in streams but 1 when asking for a muted user or their post', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const loud = await post(svc, bob, { text: 'loud @alice #m' })
  await svc.call('POST', `/posts/${loud.id}/repost`, { token: carol.token })
  await svc.call('POST', '/users/@carol/follow', { token: alice.token })
  await svc.call('POST', '/users/@bob/mute', { token: alice.token })
  for (const url of ['/posts/stream', '/posts/stream/unified', '/posts/stream/global', '/users/me/mentions', '/posts/tag/m', '/posts/search?query=loud']) {
    t.same(texts(await svc.call('GET', url, { token: alice.token })), [], `${url} hides bob and reposts of him`)
  }
  t.same(texts(await svc.call('GET', '/posts/stream?include_muted=1', { token: alice.token })), ['>> @bob: loud @alice #m'])
  t.same(texts(await svc.call('GET', '/posts/stream/unified?include_muted=1', { token: alice.token })), ['>> @bob: loud @alice #m', 'loud @alice #m'])
  t.equal((await svc.call('GET', `/posts/${loud.id}`, { token: alice.token })).body.data.text, 'loud @alice #m')
  t.same(texts(await svc.call('GET', '/users/@bob/posts', { token: alice.token })), ['loud @alice #m'])
})

t.test('include_directed_posts is 0 on my stream and 1 on the other lists', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await svc.person('carol')
  await svc.call('POST', '/users/@bob/follow', { token: alice.token })
  await post(svc, bob, { text: '@carol only for you #d' })
  t.same(texts(await svc.call('GET', '/posts/stream', { token: alice.token })), [])
  for (const url of ['/posts/stream/global', '/posts/tag/d', '/users/@bob/posts', '/users/@carol/mentions', '/posts/search?hashtags=d']) {
    t.same(texts(await svc.call('GET', url, { token: alice.token })), ['@carol only for you #d'], url)
  }
})

t.test('the replies endpoint answers the whole thread from any post of it, newest first, paginated', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const root = await post(svc, alice, { text: 'root' })
  const a = await post(svc, bob, { text: 'a', reply_to: root.id })
  const b = await post(svc, alice, { text: 'b', reply_to: root.id })
  await svc.call('POST', `/posts/${root.id}/repost`, { token: bob.token })
  for (const from of [root, a, b])
    t.same(texts(await svc.call('GET', `/posts/${from.id}/replies`, { token: bob.token })), ['b', 'a', 'root'], `from ${from.text}`)
  const page = await svc.call('GET', `/posts/${b.id}/replies?count=2`, { token: bob.token })
  t.same(page.body.meta, { code: 200, more: true, min_id: a.id, max_id: b.id })
})

t.test('stars and reposters of a post are paginated lists of users that take the user general parameters', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const made = await post(svc, alice, { text: 'liked' })
  for (const who of [bob, carol]) {
    await svc.call('POST', `/posts/${made.id}/star`, { token: who.token })
    await svc.call('POST', `/posts/${made.id}/repost`, { token: who.token })
  }
  for (const path of ['stars', 'reposters']) {
    const first = await svc.call('GET', `/posts/${made.id}/${path}?count=1&include_html=0`, { token: alice.token })
    t.same(
      first.body.data.map((u: Post) => u.username),
      ['carol'],
      path,
    )
    t.notOk('html' in first.body.data[0].description, `${path}: include_html=0`)
    t.same(keys(first.body.meta), ['code', 'max_id', 'min_id', 'more'])
    t.equal(first.body.meta.more, true)
    t.equal(first.body.data[0].pagination_id, first.body.meta.min_id)
    const next = await svc.call('GET', `/posts/${made.id}/${path}?before_id=${first.body.meta.min_id}&include_user_annotations=1`, { token: alice.token })
    t.same(
      next.body.data.map((u: Post) => [u.username, u.annotations]),
      [['bob', []]],
      path,
    )
  }
})

t.test("global leaves out reposts, hashtag and mention streams too; a user's posts include their reposts", async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const made = await post(svc, alice, { text: '#x hi @bob' })
  await svc.call('POST', `/posts/${made.id}/repost`, { token: bob.token })
  for (const url of ['/posts/stream/global', '/posts/tag/x', '/users/@bob/mentions'])
    t.same(texts(await svc.call('GET', url, { token: bob.token })), ['#x hi @bob'], url)
  t.same(texts(await svc.call('GET', '/users/@bob/posts')), ['>> @alice: #x hi @bob'])
})

t.test('interactions answer posts as posts: the post general parameters apply to them', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const made = await post(svc, alice, { text: 'star me', annotations: [{ type: 'com.example.x', value: {} }] })
  await svc.call('POST', `/posts/${made.id}/star`, { token: bob.token })
  const res = await svc.call('GET', '/users/me/interactions?include_html=0&include_post_annotations=1', { token: alice.token })
  const star = res.body.data.find((i: Post) => i.action === 'star')
  t.same(keys(star), ['action', 'event_date', 'objects', 'pagination_id', 'users'])
  t.same(
    star.objects.map((p: Post) => [p.id, 'html' in p, p.annotations]),
    [[made.id, false, [{ type: 'com.example.x', value: {} }]]],
  )
})

t.test('since_id and before_id are exclusive; a negative count takes the slice nearest since_id, still newest first', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const ids: string[] = []
  for (let n = 1; n <= 10; n++) ids.push((await post(svc, alice, { text: `p${n}` })).id)
  const page = async (q: string) => svc.call('GET', `/users/@alice/posts?since_id=${ids[1]}&before_id=${ids[8]}&${q}`)
  const forward = await page('count=2')
  t.same(texts(forward), ['p8', 'p7'])
  t.same(forward.body.meta, { code: 200, more: true, min_id: ids[6], max_id: ids[7], marker: { name: `posts:${alice.user.id}` } })
  const backward = await page('count=-2')
  t.same(texts(backward), ['p4', 'p3'])
  t.same([backward.body.meta.min_id, backward.body.meta.max_id, backward.body.meta.more], [ids[2], ids[3], true])
})

t.test('the starred_by sample puts people the viewer follows first', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await post(svc, alice, { text: 'popular' })
  const fans: Person[] = []
  for (let i = 0; i < 12; i++) fans.push(await svc.person(`fan${i}`))
  for (const fan of fans) await svc.call('POST', `/posts/${made.id}/star`, { token: fan.token })
  await svc.call('POST', '/users/@fan0/follow', { token: alice.token })
  const sample = (await svc.call('GET', `/posts/${made.id}?include_starred_by=1`, { token: alice.token })).body.data.starred_by
  t.equal(sample[0].username, 'fan0')
  t.ok(sample.length < 12, 'a sample, not the whole list')
  t.equal((await svc.call('GET', `/posts/${made.id}/stars?count=200`, { token: alice.token })).body.data.length, 12, 'the full list is /posts/{id}/stars')
})

t.test('my stream shows a post once a week: the first repost of it shows, later ones and reposts of what I saw do not, on every page', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const dave = await svc.person('dave')
  for (const who of ['@bob', '@carol']) await svc.call('POST', `/users/${who}/follow`, { token: alice.token })
  const byDave = await post(svc, dave, { text: 'dave says' })
  const byBob = await post(svc, bob, { text: 'bob says' })
  const first = (await svc.call('POST', `/posts/${byDave.id}/repost`, { token: bob.token })).body.data
  await svc.call('POST', `/posts/${byDave.id}/repost`, { token: carol.token })
  await svc.call('POST', `/posts/${byBob.id}/repost`, { token: carol.token })
  const stream = await svc.call('GET', '/posts/stream', { token: alice.token })
  t.same(
    stream.body.data.map((p: Post) => p.id),
    [first.id, byBob.id],
  )
  const paged: string[] = []
  let before = ''
  for (;;) {
    const page = await svc.call('GET', `/posts/stream?count=1${before}`, { token: alice.token })
    paged.push(...page.body.data.map((p: Post) => p.id))
    if (!page.body.meta.more) break
    before = `&before_id=${page.body.meta.min_id}`
  }
  t.same(paged, [first.id, byBob.id], 'page by page alike')
  t.same(
    texts(await svc.call('GET', '/users/@carol/posts', { token: alice.token })),
    ['>> @bob: bob says', '>> @dave: dave says'],
    "the rule is my stream's only",
  )
})

t.test('unified is my stream merged with my mentions, each part with its own defaults', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await svc.person('carol')
  const dave = await svc.person('dave')
  await svc.call('POST', '/users/@dave/follow', { token: alice.token })
  await post(svc, bob, { text: '@carol look, @alice too' })
  await post(svc, dave, { text: '@carol just for carol' })
  await post(svc, dave, { text: 'for everyone' })
  t.same(texts(await svc.call('GET', '/users/me/mentions', { token: alice.token })), ['@carol look, @alice too'])
  t.same(texts(await svc.call('GET', '/posts/stream', { token: alice.token })), ['for everyone'])
  t.same(texts(await svc.call('GET', '/posts/stream/unified', { token: alice.token })), ['for everyone', '@carol look, @alice too'])
  t.same(texts(await svc.call('GET', '/posts/stream/unified?include_directed_posts=1', { token: alice.token })), [
    'for everyone',
    '@carol just for carol',
    '@carol look, @alice too',
  ])
  t.same(texts(await svc.call('GET', '/posts/stream/unified?include_directed_posts=0', { token: alice.token })), ['for everyone'])
  t.same(texts(await svc.call('GET', '/posts/stream/unified?has_oembed_photo=1', { token: alice.token })), [], 'the photo facet narrows both parts')
})
