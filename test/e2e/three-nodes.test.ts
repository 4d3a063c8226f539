/**
 * Three `svc serve` processes on one PostgreSQL store, one Redis (the bus)
 * and one data dir, as an instance that outgrew a machine runs. Alice watches her unified stream on
 * node B, subscribing through node C, while bob posts on node A; then node B
 * is killed (-9) while bob keeps posting, and alice resumes her stream on
 * node C with its connection id: every post bob was told was made reaches
 * her, none is lost (one seen before the kill may come again).
 */
import t from 'tap'
import { waitUntil } from '../fixtures/wait.js'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { openWebSocket, type Frame } from '../fixtures/streams.js'
import { clusterDir } from '../fixtures/cluster-dir.js'
import { pgUnavailable } from '../fixtures/postgres.js'
import { redisUnavailable } from '../fixtures/redis.js'
import { serve, type Serving } from '../fixtures/svc-process.js'
import { svcJson } from '../fixtures/svc-in-process.js'
import { api, signIn } from '../fixtures/password-grant.js'

const skip = (await pgUnavailable()) || (await redisUnavailable())

const textsOf = (frames: Frame[]): string[] => frames.filter((f) => f.meta.type === 'post').map((f) => f.data[0].text as string)

t.test('three nodes on one PostgreSQL store: write on one, stream on another, resume on a third after a kill -9', { skip }, async (t) => {
  const { dir, d, init } = await clusterDir(t)
  t.equal(init.code, 0, init.stderr)

  const nodes: Serving[] = []
  for (let i = 0; i < 3; i++) nodes.push(await serve(dir))
  t.teardown(() => Promise.all(nodes.map((n) => n.stop())))
  const [a, b, c] = nodes
  t.ok(existsSync(join(dir, 'admin.sock')), 'the first node took admin.sock')
  t.match(b.stderr(), /admin socket .*admin-[\w-]+\.sock/, 'the others each a socket of their own')

  const app = await svcJson(['app', 'create', '--name', 'Stream Client', ...d])
  await svcJson(['user', 'create', '--username', 'alice', '--password', 'correct horse', ...d])
  await svcJson(['user', 'create', '--username', 'bob', '--password', 'battery staple', ...d])
  const alice = await signIn(c, app, 'alice', 'correct horse', 'stream follow')
  const bob = await signIn(a, app, 'bob', 'battery staple', 'stream write_post')
  t.equal((await api(b, alice, 'POST', 'users/@bob/follow')).status, 200)

  const ws = await openWebSocket(b.url, alice)
  t.teardown(() => ws.close())
  const subscribed = await api(c, alice, 'GET', `posts/stream/unified?connection_id=${ws.connectionId}&subscription_id=home`)
  t.same(subscribed.body.meta.subscription_ids, ['home'], 'subscribed through another node than the one holding the stream')

  const started = Date.now()
  const first = await api(a, bob, 'POST', 'posts', { text: 'hello from node A' })
  t.equal(first.status, 200)
  const frame = await ws.next(10_000)
  t.equal(frame.data[0].text, 'hello from node A', `the post made on A reached the stream on B (${Date.now() - started} ms)`)
  t.equal((await api(c, alice, 'GET', `posts/${first.body.data.id}`)).body.data.text, 'hello from node A', 'and reads back on C')

  // Bob keeps posting on A; B dies in the middle.
  const acknowledged: string[] = []
  let posting = true
  const poster = (async () => {
    for (let i = 0; posting; i++) {
      const res = await api(a, bob, 'POST', 'posts', { text: `post ${i}` })
      if (res.status === 200) acknowledged.push(res.body.data.text)
    }
  })()
  await waitUntil(() => acknowledged.length >= 10, 'ten posts acknowledged')
  b.child.kill('SIGKILL')
  nodes.splice(1, 1)
  await ws.closed
  await waitUntil(() => acknowledged.length >= 30, 'thirty posts acknowledged')
  posting = false
  await poster

  const before = textsOf(ws.frames)
  const resumed = await openWebSocket(c.url, alice, `connection_id=${ws.connectionId}`)
  t.teardown(() => resumed.close())
  t.equal(resumed.connectionId, ws.connectionId, 'node C resumed the stream node B held')
  const missing = () => acknowledged.filter((text) => !before.includes(text) && !textsOf(resumed.frames).includes(text))
  await waitUntil(() => missing().length === 0, 'every acknowledged post on the resumed stream').catch(() => undefined)
  t.same(missing(), [], `every one of the ${acknowledged.length} posts bob was told were made reached alice`)
  const after = textsOf(resumed.frames)
  t.equal(new Set(after).size, after.length, 'none twice after the resume')
})
