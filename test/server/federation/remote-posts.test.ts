/**
 * Remote posts in: bob's public Note reaches alice, who follows him, as a
 * post in her unified stream, with entities, sanitised html, his server as
 * source; a Note mentioning alice reaches her mentions; a reply to her post
 * joins its thread; the same Note twice is one post. A Note to a list (not
 * public, not the followers: followers-only.test.ts tells those), a
 * stranger's Note, and a Note a Create by someone else carries make no
 * post. Deleting the Note deletes the post; an Update of bob's actor
 * updates his user; a Delete of his actor removes his posts.
 */
import t from 'tap'
import type { Post, User } from '../../../server/api/index.js'
import { federatingInstance, followRemote, PUBLIC, SITE } from '../../fixtures/federating.js'
import type { RemoteActor } from '../../fixtures/remote-actor.js'
import { waitUntil } from '../../fixtures/wait.js'

async function setUp(t: Parameters<typeof federatingInstance>[0]) {
  const world = await federatingInstance(t)
  const { svc, remote } = world
  const alice = await svc.person('alice')
  const bob = await remote.actor('bob', { name: 'Bob' })
  const aliceActor = `${SITE}/ap/users/${alice.user.id}`
  const send = (activity: object, who: RemoteActor = bob) => world.send(activity, who)
  await followRemote(world, alice, bob)
  let n = 0
  /** A Create of a Note by `who` (default bob) with `note`'s properties. */
  const create = (note: Record<string, unknown>, who: RemoteActor = bob) => {
    n++
    const object = { id: `${who.id}/notes/${n}`, type: 'Note', attributedTo: who.id, to: PUBLIC, cc: `${who.id}/followers`, ...note }
    return { activity: { id: `${object.id}/activity`, type: 'Create', actor: who.id, object, to: object.to, cc: object.cc }, object }
  }
  const unified = async () => (await svc.call<Post[]>('GET', '/posts/stream/unified?include_html=1', { token: alice.token })).body.data
  return { svc, alice, remote, bob, aliceActor, send, create, unified }
}

t.test("bob's public Note reaches alice's unified stream as a post, once", async (t) => {
  const { svc, alice, bob, aliceActor, send, create, unified } = await setUp(t)
  const { activity } = create({
    content:
      '<p>Hello <span class="h-card"><a href="https://svc.example/@alice" class="u-url mention">@<span>alice</span></a></span> ' +
      '<a href="https://tags.example/tags/fedi" class="mention hashtag" rel="tag">#<span>fedi</span></a> see ' +
      '<a href="https://example.com/page">example.com/page</a><script>alert(1)</script></p>',
    url: `${bob.id}/notes/page`,
    tag: [
      { type: 'Mention', href: aliceActor, name: '@alice@svc.example' },
      { type: 'Hashtag', href: 'https://tags.example/tags/fedi', name: '#fedi' },
    ],
  })
  t.equal(await send(activity), 202)
  await waitUntil(async () => (await unified()).length > 0, 'the post in her unified stream')
  const [post] = await unified()
  t.match(post, {
    text: 'Hello @alice #fedi see example.com/page',
    canonical_url: `${bob.id}/notes/page`,
    source: { name: new URL(bob.id).host },
    user: { username: bob.handle },
    entities: {
      mentions: [{ pos: 6, len: 6, name: 'alice', id: String(alice.user.id) }],
      hashtags: [{ pos: 13, len: 5, name: 'fedi' }],
      links: [{ pos: 23, len: 16, text: 'example.com/page', url: 'https://example.com/page' }],
    },
  })
  t.notMatch(post.html, /script/)
  t.match(post.html, '<a href="https://example.com/page" rel="nofollow noopener" target="_blank">example.com/page</a>')
  t.equal(await send(activity), 202, 'the same Create again')
  const again = create({ content: '<p>second</p>' })
  await send(again.activity)
  await waitUntil(async () => (await unified()).length === 2, 'the second post')
  t.same(
    (await unified()).map((p) => p.text),
    ['second', 'Hello @alice #fedi see example.com/page'],
    'one post per Note',
  )
  const mentions = await svc.call<Post[]>('GET', `/users/me/mentions`, { token: alice.token })
  t.equal(mentions.body.data.length, 1, 'in her mentions')
  const tagged = await svc.call<Post[]>('GET', '/posts/tag/fedi')
  t.equal(tagged.body.data.length, 1, 'in the hashtag stream')
})

t.test("a content warning leads the post's text and html, so no client shows the post without it", async (t) => {
  const { send, create, unified } = await setUp(t)
  await send(create({ summary: 'film <b>spoilers</b>', sensitive: true, content: '<p>the butler did it</p>' }).activity)
  await waitUntil(async () => (await unified()).length > 0, 'the post')
  const [post] = await unified()
  t.equal(post.text, '⚠ film spoilers\n\nthe butler did it')
  t.match(post.html, /^<p>⚠ film spoilers<\/p><p>the butler did it<\/p>$/)
})

t.test('a reply to her post joins its thread; a stranger mentioning her reaches her mentions; what is not for here makes no post', async (t) => {
  const { svc, alice, remote, bob, aliceActor, send, create, unified } = await setUp(t)
  const mine = await svc.call<Post>('POST', '/posts', { token: alice.token, payload: { text: 'my post' } })
  const carol = await remote.actor('carol')
  // Not for here: a Note to a list of bob's (neither public nor his followers), a stranger not mentioning anyone here, a Note of bob's carried by carol's Create.
  await send(create({ content: '<p>a list</p>', to: `${bob.id}/lists/close`, cc: [] }).activity)
  await send(create({ content: '<p>stranger</p>' }, carol).activity, carol)
  const forged = create({ content: '<p>forged</p>' })
  await send({ ...forged.activity, actor: carol.id }, carol)
  // For here: carol replies to alice's post, mentioning her.
  const reply = create(
    {
      content: '<p>@alice nice</p>',
      inReplyTo: `${SITE}/ap/posts/${mine.body.data.id}`,
      tag: [{ type: 'Mention', href: aliceActor, name: '@alice@svc.example' }],
    },
    carol,
  )
  await send(reply.activity, carol)
  const mentions = async () => (await svc.call<Post[]>('GET', `/users/me/mentions`, { token: alice.token })).body.data
  await waitUntil(async () => (await mentions()).length > 0, 'the reply in her mentions')
  const [got] = await mentions()
  t.match(got, { text: '@alice nice', reply_to: mine.body.data.id, thread_id: mine.body.data.id, user: { username: carol.handle } })
  const replies = await svc.call<Post[]>('GET', `/posts/${mine.body.data.id}/replies`, { token: alice.token })
  t.equal(replies.body.data.length, 2, 'the thread: her post and the reply')
  // The queue took them in order: the ones before the reply were handled and made nothing.
  t.same(
    (await unified()).map((p) => p.text),
    ['@alice nice', 'my post'],
    'her unified stream: the reply mentioning her, her post; nothing of bob (to a list, forged)',
  )
  const all = await svc.store.read.posts.count('user_live', (await svc.store.read.users.one('actor', carol.id))!.id)
  t.equal(all, 1, "carol's one post is the reply")
})

t.test('a Delete of the Note deletes the post; an Update of his actor updates him; a Delete of his actor removes his posts', async (t) => {
  const { svc, alice, bob, send, create, unified } = await setUp(t)
  const first = create({ content: '<p>one</p>' })
  const second = create({ content: '<p>two</p>' })
  await send(first.activity)
  await send(second.activity)
  await waitUntil(async () => (await unified()).length === 2, 'two posts')
  await send({ id: `${bob.id}/deletes/1`, type: 'Delete', actor: bob.id, object: { id: first.object.id, type: 'Tombstone' } })
  const live = async () => (await unified()).filter((p) => !p.is_deleted).length
  await waitUntil(async () => (await live()) === 1, 'one post left')

  bob.document.name = 'Robert'
  await send({ id: `${bob.id}/updates/1`, type: 'Update', actor: bob.id, object: bob.document })
  await waitUntil(async () => (await svc.call<User>('GET', `/users/@${bob.handle}`, { token: alice.token })).body.data.name === 'Robert', 'his new name')

  await send({ id: `${bob.id}/deletes/2`, type: 'Delete', actor: bob.id, object: bob.id, to: PUBLIC })
  await waitUntil(async () => (await live()) === 0, 'his posts gone')
  // His posts go first, then the account, in one handling of the Delete.
  await waitUntil(async () => (await svc.call('GET', `/users/@${bob.handle}`, { token: alice.token })).status === 404, 'his account gone')
})
