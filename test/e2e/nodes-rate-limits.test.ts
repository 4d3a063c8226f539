/**
 * Two `svc serve` processes on one PostgreSQL store and one Redis (the bus):
 * the nodes of one instance count a token's calls together.
 */
import t from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { clusterDir } from '../fixtures/cluster-dir.js'
import { pgUnavailable } from '../fixtures/postgres.js'
import { redisUnavailable } from '../fixtures/redis.js'
import { serve } from '../fixtures/svc-process.js'
import { svcJson } from '../fixtures/svc-in-process.js'
import { signIn } from '../fixtures/password-grant.js'

const skip = (await pgUnavailable()) || (await redisUnavailable())

t.test('nodes on one bus share rate limits: a token gets its limit once, whichever node it calls', { skip }, async (t) => {
  const { dir, d, init } = await clusterDir(t)
  t.equal(init.code, 0)
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
