/**
 * An inbox with no room refuses at once, as a busy server does: a 429 with
 * `inbox-busy` and `Retry-After`, which tells the sender to send the
 * activity again, not that it was taken. Here federation may run one piece
 * of work at a time with no line (`federation.work_share`), and that piece
 * is an inbox POST whose signer's key is on a server that hangs.
 */
import t from 'tap'
import type { DomainEvent } from '../../../data/index.js'
import { makeInstance } from '../../fixtures/instance.js'
import { injectionOf, remoteServer } from '../../fixtures/remote-actor.js'
import { waitUntil } from '../../fixtures/wait.js'

const SITE = 'https://svc.example'
const AS = 'https://www.w3.org/ns/activitystreams'

t.test('a full inbox answers 429 inbox-busy with Retry-After; the activity sent again once there is room is taken', async (t) => {
  const svc = await makeInstance(t, {
    public_url: SITE,
    federation: { allow_private_addresses: true, work_share: { percent: 100, at_once: 1, waiting: 0 } },
  })
  const { user: alice } = await svc.person('alice')
  const remote = await remoteServer(t)
  const slow = await remote.actor('slow')
  const bob = await remote.actor('bob')
  const seen: DomainEvent<'federation.activity_received'>[] = []
  svc.domain.events.on('federation.activity_received', (e) => seen.push(e))
  const aliceId = `${SITE}/ap/users/${alice.id}`
  const followOf = (actor: string) => ({ '@context': AS, id: `${actor}/follows/1`, type: 'Follow', actor, object: aliceId })

  // slow's key is fetched from its actor document, which does not come: its POST holds the one turn.
  const hold = remote.hold(new URL(slow.id).pathname)
  const held = svc.server.inject(await injectionOf(await slow.signedPost(`${aliceId}/inbox`, followOf(slow.id))))
  await hold.arrived

  const bobs = await injectionOf(await bob.signedPost(`${aliceId}/inbox`, followOf(bob.id)))
  const busy = await svc.server.inject(bobs)
  t.equal(busy.statusCode, 429, busy.payload)
  t.match(JSON.parse(busy.payload), { meta: { code: 429, error_slug: 'inbox-busy', error_message: /retry in \d+ seconds?/ } })
  t.ok(Number(busy.headers['retry-after']) >= 1, `Retry-After: ${String(busy.headers['retry-after'])}`)
  t.notOk(remote.fetched.includes(new URL(bob.id).pathname), "refused before its signature was looked at: bob's key was not fetched")

  hold.release()
  t.equal((await held).statusCode, 401, "slow's POST, its key not found, ends and frees the turn")

  // As a remote server does: the same request again after Retry-After, until it is taken.
  let answer = await svc.server.inject(bobs)
  for (let tries = 0; answer.statusCode === 429 && tries < 20; tries++) {
    await new Promise((resolve) => setTimeout(resolve, Number(answer.headers['retry-after']) * 1000))
    answer = await svc.server.inject(bobs)
  }
  t.equal(answer.statusCode, 202, answer.payload)
  await waitUntil(() => seen.some((e) => e.payload.actor === bob.id), "bob's Follow, recorded")
})
