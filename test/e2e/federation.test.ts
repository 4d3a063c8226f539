/**
 * Federation between two real `svc serve` processes on this machine, each
 * with its own host name (test/fixtures/hosts.ts: `a.svc.test` on
 * 127.0.0.2, `b.svc.test` on 127.0.0.3, which `.ci/run` puts in
 * /etc/hosts), data dir and public URL, as README's Federation section
 * starts them: alice on A finds @bob@B by handle and follows him (pending
 * until B accepts); bob's post reaches her unified stream and her user
 * stream; her reply reaches his thread on B; his mention of @alice@A
 * reaches her mentions; his deletion and her unfollow propagate. Then
 * kill -9 of A loses nothing: an activity it acknowledged just before is
 * handled once it is back, and bob's posts of while it was down reach her
 * when B tries them again.
 */
import { once } from 'node:events'
import { createServer } from 'node:net'
import t from 'tap'
import { QUEUE_WORKERS } from '../../data/federation/federation.js'
import { follows, instance, texts, type Instance } from '../fixtures/federating-serve.js'
import { freePortOnAll } from '../fixtures/free-port.js'
import { HOST_A, HOST_B, needsHosts, type Host } from '../fixtures/hosts.js'
import { injectionOf, remoteServer, type RemoteActor } from '../fixtures/remote-actor.js'
import { openWebSocket } from '../fixtures/streams.js'
import { waitUntil } from '../fixtures/wait.js'

const skip = await needsHosts(HOST_A, HOST_B)
const AS = 'https://www.w3.org/ns/activitystreams'
const PUBLIC = `${AS}#Public`

t.test('alice on A and bob on B follow, post, reply, mention, delete and unfollow across servers', { skip }, async (t) => {
  // One port for both: the two servers are told apart by their names alone.
  const port = await freePortOnAll([HOST_A.address, HOST_B.address])
  const [a, b] = await Promise.all([instance(t, HOST_A, port, 'alice'), instance(t, HOST_B, port, 'bob')])

  const found = await a.call('GET', `users/@bob@${b.authority}`)
  t.equal(found.status, 200, JSON.stringify(found.body))
  t.match(found.body.data, { username: `bob@${b.authority}`, canonical_url: `${b.url}/@bob` })

  await follows(t, a, b)
  t.same(
    (await b.call('GET', 'users/@bob/followers')).body.data.map((u: { username: string }) => u.username),
    [`alice@${a.authority}`],
    "alice among bob's followers on B",
  )

  const ws = await openWebSocket(a.url, a.token)
  await a.call('GET', `posts/stream/unified?connection_id=${ws.connectionId}&subscription_id=home`)
  const first = await b.call('POST', 'posts', { text: 'hello from B' })
  t.equal(first.status, 200)
  const frame = await ws.next(15_000)
  t.match(frame.data, [{ text: 'hello from B', user: { username: `bob@${b.authority}` } }], 'live on her user stream')
  // Closed now: a server stopping with a stream open waits for it.
  ws.close()
  await waitUntil(async () => texts(await a.call('GET', 'posts/stream/unified')).includes('hello from B'), 'in her unified stream')
  const copy = (await a.call('GET', 'posts/stream/unified')).body.data[0]

  t.equal((await a.call('POST', 'posts', { text: 'hi bob', reply_to: copy.id })).status, 200)
  await waitUntil(async () => texts(await b.call('GET', `posts/${first.body.data.id}/replies`)).includes('hi bob'), 'her reply in his thread on B')

  t.equal((await b.call('POST', 'posts', { text: `@alice@${a.authority} are you there?` })).status, 200)
  await waitUntil(async () => texts(await a.call('GET', 'users/me/mentions')).includes(`@alice@${a.authority} are you there?`), 'his mention in her mentions')

  t.equal((await b.call('DELETE', `posts/${first.body.data.id}`)).status, 200)
  await waitUntil(async () => !texts(await a.call('GET', 'posts/stream/unified')).includes('hello from B'), 'his deletion on A')

  t.equal((await a.call('DELETE', `users/@bob@${b.authority}/follow`)).status, 200)
  await waitUntil(async () => (await b.call('GET', 'users/@bob/followers')).body.data.length === 0, 'her unfollow on B')
})

/** `activity` by `who`, signed, posted to A's shared inbox; its status. */
async function deliver(a: Instance, who: RemoteActor, activity: object): Promise<number> {
  const { method, url, headers, payload } = await injectionOf(await who.signedPost(`${a.url}/ap/inbox`, activity))
  return (await fetch(`${a.url}${url}`, { method, headers, body: payload })).status
}

/** Stands in for a dead server at `host`:`port`: takes each connection and drops it at once; counts them. */
async function droppingConnections(host: Host, port: number) {
  let count = 0
  const server = createServer((socket) => {
    count++
    socket.destroy()
  })
  server.listen(port, host.address)
  await once(server, 'listening')
  return {
    count: () => count,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

t.test("kill -9 of A loses nothing: what it acknowledged is handled once it is back, and bob's posts of while it was down reach alice", { skip }, async (t) => {
  // One port for both: the two servers are told apart by their names alone.
  const port = await freePortOnAll([HOST_A.address, HOST_B.address])
  const [a, b] = await Promise.all([instance(t, HOST_A, port, 'alice'), instance(t, HOST_B, port, 'bob')])
  await follows(t, a, b)
  const aliceActor = `${a.url}/ap/users/${(await a.call('GET', 'users/me')).body.data.id}`

  // carol, on a server of the test's, sends A activities. A handles QUEUE_WORKERS messages of its queue at a time, and
  // her first ones each wait on a Note her server never answers: the last is acknowledged and kept, and not yet handled.
  const remote = await remoteServer(t)
  const carol = await remote.actor('carol')
  const hangs = Array.from({ length: QUEUE_WORKERS }, (_, i) => remote.hold(`/notes/hanging-${i}`))
  for (const [i, hang] of hangs.entries()) {
    const object = `${remote.origin}/notes/hanging-${i}`
    t.equal(await deliver(a, carol, { '@context': AS, id: `${carol.id}/hanging-${i}/activity`, type: 'Create', actor: carol.id, object }), 202)
    await hang.arrived
  }
  const mention = `@alice@${a.authority} kept through the crash`
  const note = {
    id: `${carol.id}/notes/1`,
    type: 'Note',
    attributedTo: carol.id,
    content: `<p>${mention}</p>`,
    to: PUBLIC,
    tag: [{ type: 'Mention', href: aliceActor, name: `@alice@${a.authority}` }],
  }
  t.equal(
    await deliver(a, carol, { '@context': AS, id: `${note.id}/activity`, type: 'Create', actor: carol.id, object: note, to: PUBLIC }),
    202,
    'acknowledged',
  )
  t.same(texts(await a.call('GET', 'users/me/mentions')), [], 'not handled yet')

  await a.kill()
  for (const hang of hangs) hang.release()
  // While A is down, bob posts; B's deliveries find nobody at A's address (a stand-in counts them and drops each).
  const standIn = await droppingConnections(a.host, a.port)
  const posted = ['one while A is down', 'two while A is down', 'three while A is down']
  for (const text of posted) t.equal((await b.call('POST', 'posts', { text })).status, 200)
  await waitUntil(() => standIn.count() >= posted.length, "B's tries of his posts at A's address")
  await standIn.close()
  const back = Date.now()
  await a.restart()

  await waitUntil(async () => texts(await a.call('GET', 'users/me/mentions')).includes(mention), "carol's mention, acknowledged before the kill")
  await waitUntil(
    async () => {
      const unified = texts(await a.call('GET', 'posts/stream/unified'))
      return posted.every((text) => unified.includes(text))
    },
    "bob's posts of while A was down, tried again by B",
    60_000,
  )
  // Each once, in whatever order B's retries came.
  const unified = texts(await a.call('GET', 'posts/stream/unified'))
  t.same(unified.filter((text) => posted.includes(text!)).sort(), [...posted].sort(), 'all three in her unified stream, each once')
  t.comment(`B's retries reached A ${((Date.now() - back) / 1000).toFixed(1)} s after it was back`)
})
