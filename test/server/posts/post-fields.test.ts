/**
 * The Post object as a client reads it: exactly its fields with their types,
 * replies and threads, entities and html, annotations on request, and the
 * shape a deleted post keeps.
 */
import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'
import { post, type Post } from '../../fixtures/posts.js'
import { ISO_SECONDS, keys, POST_KEYS } from '../../fixtures/shapes.js'

t.test('a post has the listed fields with their types, ids as strings, and nothing unasked', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const made = await post(svc, alice, { text: 'hello' })
  const seen = (await svc.call('GET', `/stream/0/posts/${made.id}`, { token: bob.token })).body.data
  t.same(keys(seen), [...POST_KEYS, 'you_reposted', 'you_starred'].sort())
  t.match(seen.id, /^\d+$/)
  t.equal(seen.thread_id, seen.id, 'a root post is its own thread, as a string')
  t.match(seen.created_at, ISO_SECONDS)
  t.equal(seen.canonical_url, `http://127.0.0.1:0/@alice/post/${seen.id}`)
  t.same([seen.machine_only, seen.num_replies, seen.num_reposts, seen.num_stars, seen.you_reposted, seen.you_starred], [false, 0, 0, 0, false, false])
  t.same(seen.source, { client_id: svc.app.client_id, link: '', name: 'Test Client' })
  t.equal(seen.user.id, String(alice.user.id))
  const byApp = (await svc.call('GET', `/posts/${made.id}`, { token: svc.appToken })).body.data
  t.same(keys(byApp), POST_KEYS, 'no viewer flags without a user')
})

t.test('a reply names its parent in reply_to and its thread root in thread_id, both strings', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
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
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
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

t.test('annotations are {type, value} objects, shown only with include_annotations or include_post_annotations', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
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
  const [alice, bob] = await svc.people('alice', 'bob')
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
