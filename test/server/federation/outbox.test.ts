/**
 * Outgoing deliveries read the event log from a stored cursor. Alice's post
 * committed while nothing delivered (a process that died right after the
 * commit) reaches bob's server once svc is back; a normal restart sends
 * nothing again; a crash after the deliveries were queued and before the
 * cursor moved sends them again (a post's Create, a profile edit's Update)
 * under the same activity ids, which bob's server drops. On PostgreSQL, two nodes share the store and one pumps at a
 * time: alice's posts reach bob once, and when that node stops the other
 * takes over.
 */
import type { Server } from '@hapi/hapi'
import { rmSync } from 'node:fs'
import t, { type Test } from 'tap'
import type { Domain, Store, UserRow } from '../../../data/index.js'
import { createServer } from '../../../server/server.js'
import { TEST_PASSWORD_COST } from '../../fixtures/instance.js'
import { openWithStore } from '../../fixtures/open-store.js'
import { freshPgStore, pgUnavailable } from '../../fixtures/postgres.js'
import { injectionOf, remoteServer, type RemoteServer } from '../../fixtures/remote-actor.js'
import { waitUntil } from '../../fixtures/wait.js'
import { scratchDir } from '../../fixtures/scratch.js'

const SITE = 'https://svc.example'
const AS = 'https://www.w3.org/ns/activitystreams'
const CONFIG = { public_url: SITE, federation: { allow_private_addresses: true }, rate_limits: { enabled: false } }
const OUTBOX = 'federation.outbox'

const skipPg = await pgUnavailable()

interface Node {
  domain: Domain
  store: Store
  server: Server
  close(): Promise<void>
}

/** Opens svc on one data dir (and one PostgreSQL schema) again and again: a restart, or another node; each closed at the test's end at the latest. */
async function opener(t: Test, kind: 'embedded' | 'postgres'): Promise<(options?: { start?: boolean }) => Promise<Node>> {
  const dir = scratchDir('svc-outbox-')
  const storeUrl = kind === 'postgres' ? await freshPgStore(t) : undefined
  const open = new Set<Node>()
  t.teardown(async () => {
    for (const node of open) await node.close().catch(() => undefined)
    rmSync(dir, { recursive: true, force: true })
  })
  return async ({ start = true } = {}) => {
    const { domain, store } = await openWithStore(dir, { storeUrl, start, config: CONFIG as never, passwordCost: TEST_PASSWORD_COST, bundledPlaces: false })
    const server = await createServer(domain)
    const node: Node = {
      domain,
      store,
      server,
      async close() {
        if (!open.delete(node)) return
        await server.stop()
        await domain.close()
      },
    }
    open.add(node)
    return node
  }
}

const creates = (remote: RemoteServer, text: string) =>
  remote.received.filter((r) => r.body.type === 'Create' && JSON.stringify(r.body.object).includes(text)).map((r) => r.body)

const updates = (remote: RemoteServer) => remote.received.filter((r) => r.body.type === 'Update').map((r) => r.body)

const queueDone = (node: Node) => waitUntil(async () => (await node.store.read.federation_queue.size()) === 0, 'the federation queue done')

/** Bob, on a server of his own, follows alice (his Follow accepted). */
async function bobFollows(t: Test, node: Node, alice: UserRow): Promise<RemoteServer> {
  const remote = await remoteServer(t)
  const bob = await remote.actor('bob')
  const follow = { '@context': AS, id: `${bob.id}/follows/1`, type: 'Follow', actor: bob.id, object: `${SITE}/ap/users/${alice.id}` }
  const res = await node.server.inject(await injectionOf(await bob.signedPost(`${SITE}/ap/inbox`, follow)))
  t.equal(res.statusCode, 202, 'the Follow taken')
  await waitUntil(() => remote.received.some((r) => r.body.type === 'Accept'), "the Accept at bob's server")
  return remote
}

const makeAlice = (node: Node) => node.domain.users.accounts.create({ username: 'alice', password: 'correct horse', name: 'Alice' })

for (const kind of ['embedded', 'postgres'] as const) {
  t.test(
    `on the ${kind} store: a post committed while nothing delivered reaches bob after the restart, and once`,
    { skip: kind === 'postgres' && skipPg },
    async (t) => {
      const open = await opener(t, kind)
      let node = await open()
      const alice = await makeAlice(node)
      const remote = await bobFollows(t, node, alice)
      await node.close()

      // The crash: the post commits, and the process dies before its deliveries were queued (a domain never started delivers nothing).
      node = await open({ start: false })
      const beforeCrash = node.domain.events.head()
      const crashed = await node.domain.posts.core.create({ user: alice }, { text: 'written just before the crash' })
      await node.close()
      t.same(creates(remote, 'before the crash'), [], 'nothing sent while svc was down')

      node = await open()
      await waitUntil(() => creates(remote, 'before the crash').length > 0, "the post at bob's server after the restart")
      t.match(creates(remote, 'before the crash')[0], { id: `${SITE}/ap/posts/${crashed.id}/activity`, object: { id: `${SITE}/ap/posts/${crashed.id}` } })
      await queueDone(node)
      t.ok(((await node.store.read.log_cursors.one('name', OUTBOX))?.seq ?? 0) > beforeCrash, 'the cursor stored past the post')

      // A normal restart: the cursor was saved at the stop, nothing goes twice.
      await node.close()
      node = await open()
      const beforeNext = node.domain.events.head()
      await node.domain.posts.core.create({ user: alice }, { text: 'after a normal restart' })
      await node.domain.users.profiles.update({ user: alice }, { name: 'Alice A.' })
      await waitUntil(() => creates(remote, 'after a normal restart').length > 0 && updates(remote).length > 0, 'the next post and the profile edit at bob')
      await queueDone(node)
      t.equal(creates(remote, 'before the crash').length, 1, 'the post from before the crash went once')
      t.equal(creates(remote, 'after a normal restart').length, 1, 'the next one once')
      t.equal(updates(remote).length, 1, 'the profile edit once')

      // A crash after the deliveries were queued and before the cursor moved: they go again, as the same activity.
      await node.close()
      node = await open({ start: false })
      await node.store.transact(async (tx) => {
        const row = (await tx.log_cursors.one('name', OUTBOX))!
        tx.log_cursors.put({ ...row, seq: beforeNext })
      })
      await node.close()
      node = await open()
      await waitUntil(() => creates(remote, 'after a normal restart').length === 2, 'the post queued again')
      const [first, again] = creates(remote, 'after a normal restart')
      t.equal(again.id, first.id, 'under the same activity id, which bob drops')
      await waitUntil(() => updates(remote).length === 2, 'the profile edit queued again')
      t.equal(updates(remote)[1].id, updates(remote)[0].id, 'its Update too')
    },
  )
}

t.test('on PostgreSQL, two nodes share the store: one delivers, and the other takes over when it stops', { skip: skipPg }, async (t) => {
  const open = await opener(t, 'postgres')
  const first = await open()
  const alice = await makeAlice(first)
  const remote = await bobFollows(t, first, alice)
  const second = await open()
  const lease = await first.store.read.federation_leases.one('name', OUTBOX)
  t.equal(lease?.holder, first.domain.node.id, 'the node that started first holds the lease')

  // Each post commits on one node and reaches both nodes' event logs.
  await second.domain.posts.core.create({ user: alice }, { text: 'posted on the second node' })
  await first.domain.posts.core.create({ user: alice }, { text: 'posted on the first node' })
  await waitUntil(() => creates(remote, 'on the first node').length > 0 && creates(remote, 'on the second node').length > 0, 'both posts at bob')
  await waitUntil(() => second.domain.events.head() === first.domain.events.head(), 'the second node has read the log as far')
  await queueDone(first)
  t.equal(creates(remote, 'on the second node').length, 1, 'the post made on the second node went once')
  t.equal(creates(remote, 'on the first node').length, 1, 'the post made on the first node went once')

  // The first node stops, giving the lease back: the second one delivers from then on.
  await first.close()
  await second.domain.posts.core.create({ user: alice }, { text: 'after the first node stopped' })
  await waitUntil(() => creates(remote, 'after the first node stopped').length > 0, 'the post delivered by the second node')
  t.equal((await second.store.read.federation_leases.one('name', OUTBOX))?.holder, second.domain.node.id, 'the second node holds the lease')
  await queueDone(second)
  t.equal(creates(remote, 'after the first node stopped').length, 1, 'once')
  t.equal(creates(remote, 'on the first node').length, 1, 'and nothing earlier again')
})
