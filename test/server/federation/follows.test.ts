/**
 * Follows across servers: bob of another server follows alice (accepted at
 * once, rejected across a block) and undoes it; alice follows bob, pending
 * until his server accepts, and unfollows; a Reject drops her follow; an
 * Accept nobody asked for changes nothing. alice's block of bob ends the
 * follows on his server too and is sent as a Block (its lifting as the
 * Undo); bob's Block of alice ends the follows here. bob's Move to an
 * account that names him moves alice's follow there.
 */
import t from 'tap'
import type { User } from '../../../server/api/index.js'
import { makeInstance } from '../../fixtures/instance.js'
import { injectionOf, remoteServer, type RemoteActor, type RemoteServer } from '../../fixtures/remote-actor.js'
import { waitUntil } from '../../fixtures/wait.js'

const SITE = 'https://svc.example'
const AS = 'https://www.w3.org/ns/activitystreams'

async function setUp(t: Parameters<typeof makeInstance>[0]) {
  const svc = await makeInstance(t, { public_url: SITE, federation: { allow_private_addresses: true } })
  const alice = await svc.person('alice')
  const remote = await remoteServer(t)
  const bob = await remote.actor('bob')
  const aliceActor = `${SITE}/ap/users/${alice.user.id}`
  /** `activity` signed by `who` (default bob) to alice's inbox; its answer's status. */
  const send = async (activity: object, who: RemoteActor = bob) =>
    (await svc.server.inject(await injectionOf(await who.signedPost(`${aliceActor}/inbox`, { '@context': AS, ...activity })))).statusCode
  const followerNames = async () =>
    (await svc.call<User[]>('GET', `/users/${alice.user.id}/followers`, { token: alice.token })).body.data.map((u) => u.username)
  return { svc, alice, remote, bob, aliceActor, send, followerNames }
}

/** The activities of `type` bob's server took, in order. */
const receivedOf = (remote: RemoteServer, type: string) => remote.received.filter((r) => r.body.type === type)

t.test("bob's Follow of alice makes him her follower and is accepted; his Undo ends it", async (t) => {
  const { svc, alice, remote, bob, aliceActor, send, followerNames } = await setUp(t)
  const follow = { id: `${bob.id}/follows/1`, type: 'Follow', actor: bob.id, object: aliceActor }
  t.equal(await send(follow), 202)
  await waitUntil(async () => (await followerNames()).includes(bob.handle), "bob among alice's followers")
  await waitUntil(() => receivedOf(remote, 'Accept').length > 0, 'the Accept at his server')
  const [accept] = receivedOf(remote, 'Accept')
  t.match(accept.body, { actor: aliceActor, object: { id: follow.id, type: 'Follow', actor: bob.id, object: aliceActor } })
  t.ok(accept.signature, 'signed')
  t.equal(accept.path, '/users/bob/inbox', 'delivered to his inbox')

  const collection = await svc.server.inject({
    method: 'GET',
    url: `/ap/users/${alice.user.id}/followers?cursor=`,
    headers: { accept: 'application/activity+json' },
  })
  t.match(JSON.parse(collection.payload), { orderedItems: [bob.id] }, 'the followers collection names his actor')
  const me = await svc.call<User>('GET', `/users/@${bob.handle}`, { token: alice.token })
  t.match(me.body.data, { follows_you: true, you_follow: false, follow_pending: false })

  t.equal(await send(follow), 202, 'the same Follow again')
  t.equal(await send({ id: `${bob.id}/undo/1`, type: 'Undo', actor: bob.id, object: follow }), 202)
  await waitUntil(async () => (await followerNames()).length === 0, 'no followers left')
  t.equal(receivedOf(remote, 'Accept').length, 1, 'one Accept for one Follow')
})

t.test("mallory cannot undo bob's follow, and a Follow across a block is rejected", async (t) => {
  const { svc, alice, remote, bob, aliceActor, send, followerNames } = await setUp(t)
  const mallory = await remote.actor('mallory')
  const follow = { id: `${bob.id}/follows/1`, type: 'Follow', actor: bob.id, object: aliceActor }
  await send(follow)
  await waitUntil(async () => (await followerNames()).includes(bob.handle), 'bob follows')
  t.equal(await send({ id: `${mallory.id}/undo/1`, type: 'Undo', actor: mallory.id, object: follow }, mallory), 202)
  t.equal((await svc.call('POST', `/users/@${mallory.handle}/block`, { token: alice.token })).status, 200)
  t.equal(await send({ id: `${mallory.id}/follows/2`, type: 'Follow', actor: mallory.id, object: aliceActor }, mallory), 202)
  // The queue takes activities one at a time, in order: once the Reject is out, the Undo before it was handled.
  await waitUntil(() => receivedOf(remote, 'Reject').length > 0, 'the Reject')
  t.same(await followerNames(), [bob.handle], "bob still follows after mallory's Undo, and mallory does not follow")
})

t.test('alice follows bob: a signed Follow, pending until his Accept; her unfollow sends the Undo', async (t) => {
  const { svc, alice, remote, bob, send } = await setUp(t)
  const res = await svc.call<User>('POST', `/users/@${bob.handle}/follow`, { token: alice.token })
  t.equal(res.status, 200, JSON.stringify(res.body))
  t.match(res.body.data, { username: bob.handle, you_follow: false, follow_pending: true })
  await waitUntil(() => receivedOf(remote, 'Follow').length > 0, 'the Follow at his server')
  const [follow] = receivedOf(remote, 'Follow')
  t.match(follow.body, { actor: `${SITE}/ap/users/${alice.user.id}`, object: bob.id })
  t.ok(follow.signature, 'signed')
  const following = async () => (await svc.call<User[]>('GET', `/users/${alice.user.id}/following`, { token: alice.token })).body.data.map((u) => u.username)
  t.same(await following(), [], 'no follow before the Accept')

  // An Accept by someone else of her Follow changes nothing.
  const mallory = await remote.actor('mallory')
  await svc.call('GET', `/users/@${mallory.handle}`, { token: alice.token })
  t.equal(await send({ id: `${mallory.id}/accepts/1`, type: 'Accept', actor: mallory.id, object: follow.body }, mallory), 202)
  t.equal(await send({ id: `${bob.id}/accepts/1`, type: 'Accept', actor: bob.id, object: follow.body }), 202)
  await waitUntil(async () => (await following()).includes(bob.handle), 'she follows him once he accepted')
  t.same(await following(), [bob.handle], 'mallory is not followed')
  t.match((await svc.call<User>('GET', `/users/@${bob.handle}`, { token: alice.token })).body.data, { you_follow: true, follow_pending: false })

  t.equal((await svc.call('DELETE', `/users/@${bob.handle}/follow`, { token: alice.token })).status, 200)
  t.same(await following(), [])
  await waitUntil(() => receivedOf(remote, 'Undo').length > 0, 'the Undo at his server')
  t.match(receivedOf(remote, 'Undo')[0].body, { actor: `${SITE}/ap/users/${alice.user.id}`, object: { type: 'Follow', object: bob.id } })
})

t.test("bob's Reject drops alice's follow, pending or accepted", async (t) => {
  const { svc, alice, remote, bob, send } = await setUp(t)
  await svc.call('POST', `/users/@${bob.handle}/follow`, { token: alice.token })
  await waitUntil(() => receivedOf(remote, 'Follow').length > 0, 'the Follow')
  t.equal(await send({ id: `${bob.id}/rejects/1`, type: 'Reject', actor: bob.id, object: receivedOf(remote, 'Follow')[0].body }), 202)
  await waitUntil(
    async () => (await svc.call<User>('GET', `/users/@${bob.handle}`, { token: alice.token })).body.data.follow_pending === false,
    'no longer pending',
  )
  t.match((await svc.call<User>('GET', `/users/@${bob.handle}`, { token: alice.token })).body.data, { you_follow: false })
})

/** bob follows alice (accepted here) and alice follows bob (accepted by his server). */
async function followEachOther({ svc, alice, remote, bob, aliceActor, send, followerNames }: Awaited<ReturnType<typeof setUp>>) {
  await send({ id: `${bob.id}/follows/1`, type: 'Follow', actor: bob.id, object: aliceActor })
  await waitUntil(async () => (await followerNames()).includes(bob.handle), 'bob follows her')
  await svc.call('POST', `/users/@${bob.handle}/follow`, { token: alice.token })
  await waitUntil(() => receivedOf(remote, 'Follow').length > 0, 'her Follow')
  await send({ id: `${bob.id}/accepts/1`, type: 'Accept', actor: bob.id, object: receivedOf(remote, 'Follow')[0].body })
}

t.test('alice blocking bob ends both follows on his server too: an Undo of hers, a Reject of his', async (t) => {
  const { svc, alice, remote, bob, aliceActor, send, followerNames } = await setUp(t)
  await followEachOther({ svc, alice, remote, bob, aliceActor, send, followerNames })
  await waitUntil(async () => (await svc.call<User>('GET', `/users/@${bob.handle}`, { token: alice.token })).body.data.you_follow === true, 'she follows him')

  t.equal((await svc.call('POST', `/users/@${bob.handle}/block`, { token: alice.token })).status, 200)
  await waitUntil(() => receivedOf(remote, 'Undo').length > 0 && receivedOf(remote, 'Reject').length > 0, 'the Undo and the Reject')
  t.match(receivedOf(remote, 'Undo')[0].body, { actor: aliceActor, object: { type: 'Follow', actor: aliceActor, object: bob.id } })
  t.match(receivedOf(remote, 'Reject')[0].body, { actor: aliceActor, object: { type: 'Follow', actor: bob.id, object: aliceActor } })
  t.same(await followerNames(), [])
  await waitUntil(() => receivedOf(remote, 'Block').length > 0, 'the Block')
  t.match(
    receivedOf(remote, 'Block')[0],
    { path: '/users/bob/inbox', body: { actor: aliceActor, object: bob.id } },
    'and the Block itself, as Mastodon sends it',
  )
  t.equal((await svc.call('DELETE', `/users/@${bob.handle}/block`, { token: alice.token })).status, 200)
  await waitUntil(() => receivedOf(remote, 'Undo').length > 1, 'the Undo of the Block')
  t.match(receivedOf(remote, 'Undo')[1].body, { actor: aliceActor, object: { type: 'Block', actor: aliceActor, object: bob.id } })
})

t.test('bob blocking alice from his server ends the follows between them both ways', async (t) => {
  const { svc, alice, remote, bob, aliceActor, send, followerNames } = await setUp(t)
  await followEachOther({ svc, alice, remote, bob, aliceActor, send, followerNames })
  const following = async () => (await svc.call<User>('GET', `/users/@${bob.handle}`, { token: alice.token })).body.data.you_follow
  await waitUntil(async () => (await following()) === true, 'she follows him')
  t.equal(await send({ id: `${bob.id}#blocks/1`, type: 'Block', actor: bob.id, object: aliceActor }), 202)
  await waitUntil(async () => (await followerNames()).length === 0 && (await following()) === false, 'no follow either way')
})

t.test("bob moving to bob2, who names him as an alias, moves alice's follow there; a move to an account that does not name him moves nothing", async (t) => {
  const { svc, alice, remote, bob, send } = await setUp(t)
  await svc.call('POST', `/users/@${bob.handle}/follow`, { token: alice.token })
  await waitUntil(() => receivedOf(remote, 'Follow').length > 0, 'her Follow')
  await send({ id: `${bob.id}/accepts/1`, type: 'Accept', actor: bob.id, object: receivedOf(remote, 'Follow')[0].body })
  const user = async (handle: string) => (await svc.call<User>('GET', `/users/@${handle}`, { token: alice.token })).body.data
  await waitUntil(async () => (await user(bob.handle)).you_follow === true, 'she follows him')

  const stranger = await remote.actor('stranger')
  t.equal(await send({ id: `${bob.id}#moves/1`, type: 'Move', actor: bob.id, object: bob.id, target: stranger.id }), 202)
  const bob2 = await remote.actor('bob2', { alsoKnownAs: [bob.id] })
  t.equal(await send({ id: `${bob.id}#moves/2`, type: 'Move', actor: bob.id, object: bob.id, target: bob2.id }), 202)
  await waitUntil(() => receivedOf(remote, 'Follow').some((r) => r.body.object === bob2.id), 'her Follow of bob2')
  await waitUntil(() => svc.store.stats().rows.federation_queue === 0, 'both Moves handled')
  t.notOk(
    receivedOf(remote, 'Follow').some((r) => r.body.object === stranger.id),
    'no Follow of the account that does not name bob',
  )
  t.match(receivedOf(remote, 'Undo').at(-1)!.body, { object: { type: 'Follow', object: bob.id } }, 'the Undo of her follow of bob')
  t.match(await user(bob.handle), { you_follow: false })
  t.match(await user(bob2.handle), { you_follow: false, follow_pending: true }, 'her follow of bob2 waits for its Accept')
})
