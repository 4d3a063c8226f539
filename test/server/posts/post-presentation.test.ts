/**
 * Posts are presented from text kept per post and per author between
 * requests: every answer must still follow each change that happened since,
 * whoever asks and however they ask.
 */
import t from 'tap'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'

const post = async (svc: Instance, who: Person, text: string) => (await svc.call('POST', '/posts', { token: who.token, payload: { text } })).body.data
const read = async (svc: Instance, id: string, who?: Person, query = '') => (await svc.call('GET', `/posts/${id}${query}`, { token: who?.token })).body.data

t.test('counts and the viewer’s own star and repost follow every star and repost', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const hello = await post(svc, alice, 'hello')
  t.match(await read(svc, hello.id, bob), { num_stars: 0, num_reposts: 0, you_starred: false, you_reposted: false })
  await svc.call('POST', `/posts/${hello.id}/star`, { token: bob.token })
  await svc.call('POST', `/posts/${hello.id}/repost`, { token: bob.token })
  t.match(await read(svc, hello.id, bob), { num_stars: 1, num_reposts: 1, you_starred: true, you_reposted: true })
  t.match(await read(svc, hello.id, alice), { num_stars: 1, num_reposts: 1, you_starred: false, you_reposted: false }, 'alice sees the counts, not bob’s flags')
  const anonymous = await read(svc, hello.id)
  t.equal(anonymous.num_stars, 1)
  t.notOk('you_starred' in anonymous, 'no flags without a user')
  await svc.call('DELETE', `/posts/${hello.id}/star`, { token: bob.token })
  t.match(await read(svc, hello.id, bob), { num_stars: 0, you_starred: false })
})

t.test('the embedded author follows new posts, follows and a replaced profile', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const hello = await post(svc, alice, 'hello')
  t.match((await read(svc, hello.id, bob)).user, { name: 'Alice', counts: { posts: 1, followers: 0 }, you_follow: false, is_following: false })
  await post(svc, alice, 'again')
  await svc.call('POST', '/users/@alice/follow', { token: bob.token })
  t.match((await read(svc, hello.id, bob)).user, { counts: { posts: 2, followers: 1 }, you_follow: true, is_following: true })
  t.notOk('you_follow' in (await read(svc, hello.id, alice)).user, 'no relation to oneself')
  const byBob = await post(svc, bob, 'hi')
  t.match((await read(svc, byBob.id, alice)).user, { follows_you: true, is_follower: true, you_follow: false })
  t.match((await read(svc, byBob.id, bob)).user, { counts: { following: 1 } })
  const row = await svc.store.read.users.get(alice.user.id)
  // No API renames a user: the row is replaced as a domain write would, with its event.
  await svc.store.transact((tx) => tx.emit('user.updated', { user: tx.users.put({ ...row!, name: 'Alice A.', username: 'alicea', username_key: 'alicea' }) }))
  const renamed = await read(svc, hello.id, bob)
  t.equal(renamed.user.name, 'Alice A.')
  t.match(renamed.canonical_url, /\/@alicea\/post\//, 'the post’s url names the new username')
})

t.test('a deleted post is shown stripped at once', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const hello = await post(svc, alice, 'hello')
  t.equal((await read(svc, hello.id, alice)).text, 'hello')
  await svc.call('DELETE', `/posts/${hello.id}`, { token: alice.token })
  const gone = await read(svc, hello.id, alice)
  t.equal(gone.is_deleted, true)
  t.notOk('text' in gone)
  t.notOk('html' in gone)
})

t.test('html, annotations and the host asked for apply to a post presented before', async (t) => {
  const svc = await makeInstance(t, { allowed_hosts: ['social.example:8080'] })
  const alice = await svc.person('alice')
  const hello = (
    await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'hello #svc', annotations: [{ type: 'net.example.x', value: { a: 1 } }] } })
  ).body.data
  const plain = await read(svc, hello.id, alice)
  t.match(plain.html, /itemprop="hashtag"/)
  t.notOk('annotations' in plain)
  t.match(plain.user.description, { html: /itemscope/ })
  const bare = await read(svc, hello.id, alice, '?include_html=0&include_annotations=1')
  t.notOk('html' in bare)
  t.notOk('html' in bare.user.description, 'nor in its author’s description')
  t.same(bare.annotations, [{ type: 'net.example.x', value: { a: 1 } }])
  t.same(bare.user.annotations, [])
  t.match(await read(svc, hello.id, alice), { html: /itemprop/ }, 'html again by default')
  const res = await svc.call('GET', `/posts/${hello.id}`, { headers: { host: 'social.example:8080' } })
  t.match(res.body.data.canonical_url, /^http:\/\/social\.example:8080\/@alice\/post\//)
  t.match(res.body.data.user.canonical_url, /^http:\/\/social\.example:8080\/@alice$/)
})

t.test('a list of posts gives each item its pagination id, answered whole or pretty printed alike', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const first = await post(svc, alice, 'one')
  const second = await post(svc, alice, 'two')
  const res = await svc.call('GET', '/users/@alice/posts', { token: alice.token })
  t.same(
    res.body.data.map((p: { id: string; pagination_id: string }) => [p.id, p.pagination_id]),
    [
      [second.id, second.id],
      [first.id, first.id],
    ],
  )
  t.match(res.body.meta, { code: 200, min_id: first.id, max_id: second.id, more: false })
  const pretty = await svc.call('GET', '/users/@alice/posts', { token: alice.token, headers: { 'x-svc-pretty-json': '1' } })
  t.same(pretty.body, res.body)
})
