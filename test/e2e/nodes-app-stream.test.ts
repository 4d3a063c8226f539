/**
 * Two `svc serve` processes on one PostgreSQL store and one Redis (the bus):
 * an app stream's consumer moves from one node to the other and its queue
 * goes on from where it stood.
 */
import t from 'tap'
import { readChunked } from '../fixtures/streams.js'
import { clusterDir } from '../fixtures/cluster-dir.js'
import { pgUnavailable } from '../fixtures/postgres.js'
import { redisUnavailable } from '../fixtures/redis.js'
import { serve } from '../fixtures/svc-process.js'
import { svcJson } from '../fixtures/svc-in-process.js'
import { api, signIn } from '../fixtures/password-grant.js'

const skip = (await pgUnavailable()) || (await redisUnavailable())

t.test("an app stream's queue follows its consumer from one node to another", { skip }, async (t) => {
  const { dir, d, init } = await clusterDir(t)
  t.equal(init.code, 0)
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
