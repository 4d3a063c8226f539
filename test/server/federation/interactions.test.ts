/**
 * Stars and reposts across servers. bob, on another server, likes and
 * announces alice's post: he is among its stargazers and reposters, its
 * counts say so and alice's interactions show him; his Undos take both
 * back, nobody else's do. An Announce of a Note svc lacks is fetched when
 * alice follows the announcer. alice's star of bob's post reaches his
 * server as a Like, her unstar as its Undo; her repost as an Announce to
 * him, its deletion as the Undo.
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
  const send = (activity: object, who: RemoteActor = bob) => world.send(activity, who)
  const mine = (await svc.call<Post>('POST', '/posts', { token: alice.token, payload: { text: 'tea at four' } })).body.data
  const note = `${SITE}/ap/posts/${mine.id}`
  const read = async () => (await svc.call<Post>('GET', `/posts/${mine.id}`, { token: alice.token })).body.data
  const names = async (what: 'stars' | 'reposters') =>
    (await svc.call<User[]>('GET', `/posts/${mine.id}/${what}`, { token: alice.token })).body.data.map((u) => u.username)
  return { world, svc, alice, remote, bob, send, mine, note, read, names }
}

t.test("bob's Like stars alice's post and his Undo takes it back; a Like again is one star; carol cannot undo his", async (t) => {
  const { svc, alice, remote, bob, send, mine, note, read, names } = await setUp(t)
  const carol = await remote.actor('carol')
  const like = { id: `${bob.id}#likes/1`, type: 'Like', actor: bob.id, object: note }
  t.equal(await send(like), 202)
  await waitUntil(async () => (await read()).num_stars === 1, 'the star')
  t.same(await names('stars'), [bob.handle], 'bob is among the stargazers')
  const interactions = (await svc.call<any[]>('GET', '/users/me/interactions', { token: alice.token })).body.data
  t.match(interactions, [{ action: 'star', objects: [{ id: mine.id }], users: [{ username: bob.handle }] }], "alice's interactions show his star")
  await send({ ...like, id: `${bob.id}#likes/2` })
  await send({ id: `${carol.id}#undo/1`, type: 'Undo', actor: carol.id, object: like }, carol)
  await send({ id: `${carol.id}#likes/3`, type: 'Like', actor: carol.id, object: note }, carol)
  await waitUntil(async () => (await read()).num_stars === 2, "carol's star")
  t.same((await names('stars')).sort(), [bob.handle, carol.handle].sort(), "one star of bob's and carol's; her Undo of his Like changed nothing")
  await send({ id: `${bob.id}#likes/1/undo`, type: 'Undo', actor: bob.id, object: like })
  await waitUntil(async () => (await read()).num_stars === 1, 'his star gone')
  t.same(await names('stars'), [carol.handle], 'only carol stars it now')
})

t.test("bob's Announce reposts alice's post and his Undo takes it back; one not addressed to the public is not taken", async (t) => {
  const { svc, alice, remote, bob, send, mine, note, read, names } = await setUp(t)
  const carol = await remote.actor('carol')
  await send({ id: `${carol.id}/announces/1`, type: 'Announce', actor: carol.id, object: note, to: `${carol.id}/followers` }, carol)
  const announce = { id: `${bob.id}/announces/1`, type: 'Announce', actor: bob.id, object: note, to: PUBLIC, cc: [`${bob.id}/followers`] }
  t.equal(await send(announce), 202)
  await waitUntil(async () => (await read()).num_reposts === 1, 'the repost')
  t.same(await names('reposters'), [bob.handle], 'bob is among the reposters; carol, who announced to her followers only, is not')
  const interactions = (await svc.call<any[]>('GET', '/users/me/interactions', { token: alice.token })).body.data
  t.match(interactions, [{ action: 'repost', objects: [{ id: mine.id }], users: [{ username: bob.handle }] }], "alice's interactions show his repost")
  const bobPosts = (await svc.call<Post[]>('GET', `/users/@${bob.handle}/posts`, { token: alice.token })).body.data
  t.match(bobPosts, [{ repost_of: { id: mine.id }, user: { username: bob.handle } }], 'his repost is among his posts')
  await send({ id: `${carol.id}#undo/2`, type: 'Undo', actor: carol.id, object: announce }, carol)
  await send({ id: `${bob.id}/announces/1/undo`, type: 'Undo', actor: bob.id, object: announce.id })
  await waitUntil(async () => (await read()).num_reposts === 0, 'the repost undone')
  t.same(await names('reposters'), [], 'nobody reposts it now')
})

t.test('an Announce of a Note svc lacks is fetched when alice follows the announcer, and not otherwise', async (t) => {
  const { world, svc, alice, remote, bob, send } = await setUp(t)
  const carol = await remote.actor('carol')
  const dave = await remote.actor('dave')
  const noteId = `${remote.origin}/notes/carol-1`
  remote.serve('/notes/carol-1', { id: noteId, type: 'Note', attributedTo: carol.id, content: '<p>carol here</p>', to: PUBLIC })
  await followRemote(world, alice, bob)
  await send({ id: `${dave.id}/announces/1`, type: 'Announce', actor: dave.id, object: noteId, to: PUBLIC }, dave)
  await send({ id: `${bob.id}/announces/2`, type: 'Announce', actor: bob.id, object: noteId, to: PUBLIC })
  const unified = async () => (await svc.call<Post[]>('GET', '/posts/stream/unified', { token: alice.token })).body.data
  await waitUntil(async () => (await unified()).some((p) => p.repost_of), "bob's repost in her stream")
  const repost = (await unified()).find((p) => p.repost_of)!
  t.match(repost, { user: { username: bob.handle }, repost_of: { text: 'carol here', user: { username: carol.handle } } }, "bob's repost of carol's Note")
  const reposters = await svc.call<User[]>('GET', `/posts/${repost.repost_of!.id}/reposters`, { token: alice.token })
  t.same(
    reposters.body.data.map((u) => u.username),
    [bob.handle],
    'dave, whom nobody here follows, reposted nothing here',
  )
})

t.test("alice's star of bob's post goes to him as a Like, her unstar as its Undo; her repost as an Announce, its deletion as the Undo", async (t) => {
  const { svc, alice, remote, bob, send } = await setUp(t)
  const object = { id: `${bob.id}/notes/1`, type: 'Note', attributedTo: bob.id, content: '<p>hello @alice</p>', to: PUBLIC }
  await send({
    id: `${object.id}/activity`,
    type: 'Create',
    actor: bob.id,
    object: { ...object, tag: [{ type: 'Mention', href: `${SITE}/ap/users/${alice.user.id}`, name: '@alice@svc.example' }] },
    to: PUBLIC,
  })
  const mentions = async () => (await svc.call<Post[]>('GET', '/users/me/mentions', { token: alice.token })).body.data
  await waitUntil(async () => (await mentions()).length > 0, 'his post mentioning her')
  const [his] = await mentions()
  const sent = (type: string) => remote.received.filter((r) => r.body.type === type).map((r) => r.body)
  t.equal((await svc.call('POST', `/posts/${his.id}/star`, { token: alice.token })).status, 200)
  await waitUntil(() => sent('Like').length > 0, 'the Like')
  const [like] = sent('Like')
  t.match(like, { actor: `${SITE}/ap/users/${alice.user.id}`, object: object.id })
  t.equal((await svc.call('DELETE', `/posts/${his.id}/star`, { token: alice.token })).status, 200)
  await waitUntil(() => sent('Undo').length > 0, 'the Undo')
  t.match(sent('Undo')[0], { actor: like.actor, object: { type: 'Like', id: like.id, object: object.id } }, 'the Undo names the Like')

  const repost = await svc.call<Post>('POST', `/posts/${his.id}/repost`, { token: alice.token })
  t.equal(repost.status, 200)
  await waitUntil(() => sent('Announce').length > 0, 'the Announce')
  const [announce] = sent('Announce')
  t.match(announce, { actor: like.actor, object: object.id, to: /^(as:Public|https:\/\/www\.w3\.org\/ns\/activitystreams#Public)$/ }, 'to the public')
  t.ok((announce.cc as string[]).includes(bob.id), 'addressed to bob too')
  t.equal((await svc.call('DELETE', `/posts/${his.id}/repost`, { token: alice.token })).status, 200)
  await waitUntil(() => sent('Undo').length > 1, 'the second Undo')
  t.match(sent('Undo')[1], { actor: like.actor, object: { type: 'Announce', id: announce.id, object: object.id } }, 'the Undo names the Announce')
})
