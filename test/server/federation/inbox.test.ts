/**
 * The inboxes take only what a remote server signed: mallory's forgeries and
 * unsigned posts are refused, never with a 5xx, and what bob on a remote
 * server signs is acknowledged and recorded as an event, once however
 * often it comes.
 */
import t from 'tap'
import { summarize } from '../../../data/admin/event-summary.js'
import type { DomainEvent } from '../../../data/index.js'
import { makeInstance } from '../../fixtures/instance.js'
import { injectionOf, remoteServer } from '../../fixtures/remote-actor.js'
import { waitUntil } from '../../fixtures/wait.js'

const SITE = 'https://svc.example'
const AS = 'https://www.w3.org/ns/activitystreams'

const federating = (t: Parameters<typeof makeInstance>[0], allowPrivate = true) =>
  makeInstance(t, { public_url: SITE, federation: { allow_private_addresses: allowPrivate } })

t.test("bob's signed Follow of alice is acknowledged, then recorded as an event with its actor and recipient", async (t) => {
  const svc = await federating(t)
  const { user: alice } = await svc.person('alice')
  const remote = await remoteServer(t)
  const bob = await remote.actor('bob')
  const seen: DomainEvent<'federation.activity_received'>[] = []
  svc.domain.events.on('federation.activity_received', (e) => seen.push(e))
  const aliceId = `${SITE}/ap/users/${alice.id}`
  const follow = { '@context': AS, id: `${bob.id}/follows/1`, type: 'Follow', actor: bob.id, object: aliceId }
  const res = await svc.server.inject(await injectionOf(await bob.signedPost(`${aliceId}/inbox`, follow)))
  t.equal(res.statusCode, 202, res.payload)
  await waitUntil(() => seen.length > 0, 'the recorded Follow')
  t.match(seen[0].payload, {
    id: follow.id,
    type: 'Follow',
    actor: bob.id,
    recipient_id: alice.id,
    activity: { type: 'Follow', actor: bob.id, object: aliceId },
  })
  t.equal(await summarize(seen[0], async (id) => `@user${id}`), `Follow from ${bob.id} to @user${alice.id}`, "the console's line for it")
  const again = await svc.server.inject(await injectionOf(await bob.signedPost(`${aliceId}/inbox`, follow)))
  t.equal(again.statusCode, 202, 'the same activity again is acknowledged')
})

t.test('the shared inbox takes a signed Create, recorded without a recipient, and once however often it comes', async (t) => {
  const svc = await federating(t)
  await svc.person('alice')
  const bob = await (await remoteServer(t)).actor('bob')
  const seen: DomainEvent<'federation.activity_received'>[] = []
  svc.domain.events.on('federation.activity_received', (e) => seen.push(e))
  const note = { id: `${bob.id}/notes/1`, type: 'Note', attributedTo: bob.id, content: '<p>hello</p>', to: `${AS}#Public` }
  const create = { '@context': AS, id: `${bob.id}/notes/1/activity`, type: 'Create', actor: bob.id, object: note, to: `${AS}#Public` }
  const post = async () => svc.server.inject(await injectionOf(await bob.signedPost(`${SITE}/ap/inbox`, create)))
  const res = await post()
  t.equal(res.statusCode, 202, res.payload)
  await waitUntil(() => seen.length > 0, 'the recorded Create')
  t.match(seen[0].payload, { type: 'Create', actor: bob.id, recipient_id: null, activity: { object: { id: note.id, content: '<p>hello</p>' } } })
  const queueDone = () => waitUntil(() => svc.store.read.federation_queue.size().then((n) => n === 0), 'the queue done')
  await queueDone()
  t.equal((await post()).statusCode, 202, 'the same activity again is acknowledged')
  await queueDone()
  t.equal(seen.length, 1, 'and recorded once')
})

t.test('unsigned, forged and mismatched posts are refused with a 4xx and leave no event', async (t) => {
  const svc = await federating(t)
  const { user: alice } = await svc.person('alice')
  const remote = await remoteServer(t)
  const bob = await remote.actor('bob')
  const mallory = await remote.actor('mallory')
  const seen: DomainEvent[] = []
  svc.domain.events.on('federation.activity_received', (e) => seen.push(e))
  const inbox = `${SITE}/ap/users/${alice.id}/inbox`
  const follow = (actor: string, n: number) => ({ '@context': AS, id: `${actor}/follows/${n}`, type: 'Follow', actor, object: `${SITE}/ap/users/${alice.id}` })

  const unsigned = await svc.server.inject({
    method: 'POST',
    url: new URL(inbox).pathname,
    headers: { 'content-type': 'application/activity+json' },
    payload: JSON.stringify(follow(bob.id, 1)),
  })
  t.equal(unsigned.statusCode, 401, 'unsigned')

  const forged = await bob.signedPost(inbox, follow(bob.id, 2), mallory.privateKey)
  t.equal((await svc.server.inject(await injectionOf(forged))).statusCode, 401, "signed with mallory's key under bob's key id")

  const posing = await mallory.signedPost(inbox, follow(bob.id, 3))
  t.equal((await svc.server.inject(await injectionOf(posing))).statusCode, 401, 'signed by mallory, claiming to be bob')

  const altered = await injectionOf(await bob.signedPost(inbox, follow(bob.id, 4)))
  altered.payload = JSON.stringify(follow(bob.id, 5))
  t.equal((await svc.server.inject(altered)).statusCode, 401, 'a body other than the one signed')

  for (const payload of ['not json', '[]', '{"@context": 5}', JSON.stringify({ type: 'Follow' })]) {
    const res = await svc.server.inject(await injectionOf(await bob.signedPost(inbox, {}).then((r) => new Request(r, { body: payload }))))
    t.ok(res.statusCode >= 400 && res.statusCode < 500, `${payload}: a 4xx (${res.statusCode})`)
  }
  const nobody = await svc.server.inject(await injectionOf(await bob.signedPost(`${SITE}/ap/users/999/inbox`, follow(bob.id, 6))))
  t.equal(nobody.statusCode, 404, "nobody's inbox")
  t.same(seen, [])
})

t.test('without allow_private_addresses a remote key on a loopback address is never fetched, so the post is refused', async (t) => {
  const svc = await federating(t, false)
  const { user: alice } = await svc.person('alice')
  const bob = await (await remoteServer(t)).actor('bob')
  const aliceId = `${SITE}/ap/users/${alice.id}`
  const follow = { '@context': AS, id: `${bob.id}/follows/1`, type: 'Follow', actor: bob.id, object: aliceId }
  const res = await svc.server.inject(await injectionOf(await bob.signedPost(`${aliceId}/inbox`, follow)))
  t.equal(res.statusCode, 401)
})
