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
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openWebSocket, readChunked, type Frame } from '../fixtures/streams.js'
import { freshPgStore, pgUnavailable } from '../fixtures/postgres.js'
import { REDIS_URL, redisUnavailable } from '../fixtures/redis.js'
import { serve, svcJson, svcProcess, tempDir, type Serving } from '../fixtures/svc-process.js'
import { api, signIn } from '../fixtures/password-grant.js'

const skip = (await pgUnavailable()) || (await redisUnavailable())

const textsOf = (frames: Frame[]): string[] => frames.filter((f) => f.meta.type === 'post').map((f) => f.data[0].text as string)

t.test('three nodes on one PostgreSQL store: write on one, stream on another, resume on a third after a kill -9', { skip }, async (t) => {
  const store = await freshPgStore(t)
  const dir = tempDir(t)
  const d = ['--data-dir', dir]
  const init = await svcProcess(['init', ...d, '--store', store, '--bus', REDIS_URL])
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

t.test('nodes on one bus share rate limits: a token gets its limit once, whichever node it calls', { skip }, async (t) => {
  const store = await freshPgStore(t)
  const dir = tempDir(t)
  const d = ['--data-dir', dir]
  t.equal((await svcProcess(['init', ...d, '--store', store, '--bus', REDIS_URL])).code, 0)
  const configFile = join(dir, 'config.json')
  const config = JSON.parse(readFileSync(configFile, 'utf8'))
  writeFileSync(configFile, JSON.stringify({ ...config, rate_limits: { enabled: true, authenticated: { limit: 6, window_s: 3600 } } }))
  const limited = { SVC_RATE_LIMIT: 'on' }
  const nodes = [await serve(dir, [], limited), await serve(dir, [], limited)]
  t.teardown(() => Promise.all(nodes.map((n) => n.stop())))
  const app = await svcJson(['app', 'create', '--name', 'Counter', ...d])
  await svcJson(['user', 'create', '--username', 'alice', '--password', 'correct horse', ...d])
  const token = await signIn(nodes[0], app, 'alice', 'correct horse', 'stream')
  const statuses: number[] = []
  const remaining: string[] = []
  for (let i = 0; i < 7; i++) {
    const res = await fetch(`${nodes[i % 2].url}/stream/0/token`, { headers: { authorization: `Bearer ${token}` } })
    statuses.push(res.status)
    remaining.push(res.headers.get('x-ratelimit-remaining') ?? '')
  }
  t.same(statuses, [200, 200, 200, 200, 200, 200, 429], 'six calls over two nodes, then the seventh is refused')
  t.same(remaining, ['5', '4', '3', '2', '1', '0', '0'], 'one count, whichever node answered')
})

t.test("an app stream's queue follows its consumer from one node to another", { skip }, async (t) => {
  const store = await freshPgStore(t)
  const dir = tempDir(t)
  const d = ['--data-dir', dir]
  t.equal((await svcProcess(['init', ...d, '--store', store, '--bus', REDIS_URL])).code, 0)
  const nodes = [await serve(dir), await serve(dir)]
  t.teardown(() => Promise.all(nodes.map((n) => n.stop())))
  const [a, b] = nodes
  const push = await svcJson(['app', 'create', '--name', 'Pager Push', ...d])
  await svcJson(['user', 'create', '--username', 'alice', '--password', 'correct horse', ...d])
  const alice = await signIn(a, push, 'alice', 'correct horse', 'stream write_post')
  const granted = await fetch(`${a.url}/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: push.client_id, client_secret: push.client_secret }).toString(),
  })
  const { access_token: appToken } = (await granted.json()) as { access_token: string }
  const made = await api(a, appToken, 'POST', 'streams', { object_types: ['post'], type: 'long_poll', key: 'all' })
  t.equal(made.status, 200)
  const path = new URL(made.body.data.endpoint as string).pathname

  const first = await readChunked(`${b.url}${path}`)
  t.equal(first.status, 200, 'the consumer reads on node B')
  await api(a, alice, 'POST', 'posts', { text: 'one' })
  t.equal((await first.next(10_000)).data.text, 'one', 'a post made on A reaches it')
  first.close()
  // Node B saves where the queue stands every second.
  await new Promise((resolve) => setTimeout(resolve, 2000))
  await api(a, alice, 'POST', 'posts', { text: 'two' })
  await api(a, alice, 'POST', 'posts', { text: 'three' })

  const second = await readChunked(`${a.url}${path}`)
  t.teardown(() => second.close())
  const texts = [(await second.next(10_000)).data.text, (await second.next(10_000)).data.text]
  t.same(texts, ['two', 'three'], 'node A goes on from where B left the queue: what was queued, once')
  t.same(await second.quiet(500), [])
})
