/**
 * Issue 17: the same instance (2k users, a skewed follow graph, 100k posts)
 * served three ways in one run: by one `svc serve` on the embedded store, by
 * one on PostgreSQL, and by three on PostgreSQL linked by a Redis bus, the
 * load spread over them. Measures the unified stream, a post lookup and
 * durable creates at 100 connections (each beside the constant hapi route),
 * and how long an event takes from the POST's answer to a user stream: on
 * the same node, and from one node to another. `svc store copy` moves the
 * seeded instance into PostgreSQL (its time is reported too). Needs the
 * machine's PostgreSQL and Redis (`SVC_TEST_PG_URL`, `SVC_TEST_REDIS_URL`).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import postgres from 'postgres'
import WebSocket from 'ws'
import { copyStore } from '../../../data/index.js'
import { PG_URL, pgUrlIn } from '../../fixtures/postgres.js'
import { REDIS_URL } from '../../fixtures/redis.js'
import { Latencies } from '../latencies.js'
import { runLoad, type LoadRequest, type LoadResult } from '../load.js'
import { scaled, type BenchContext, type Measure, type Scenario } from '../scenario.js'
import { seedInstance, type SeededInstance } from '../seed-instance.js'
import { auth, beside, CONNECTIONS, firstAnswer, measures, postCreate, start, stop, type Running } from './api-at-scale.js'

const SCHEMA = 'svc_bench_cluster'
const storeUrl = pgUrlIn(SCHEMA)

interface Seeded extends SeededInstance {
  posts: number
  users: number
  copySeconds: number
}

const serve = (dataDir: string, flags: string[] = []) =>
  start(['bin/svc.js', 'serve', '--data-dir', dataDir, '--port', '0', '--host', '127.0.0.1', ...flags], { SVC_RATE_LIMIT: 'off' })

/** The three reads and writes of the API run, on one server, beside the constant route. */
async function apiOn(ctx: BenchContext, label: string, server: Running, constant: Running, seeded: Seeded): Promise<Measure[]> {
  const span = seeded.postIds.last - seeded.postIds.first + 1
  return [
    ...(await beside(ctx, `${label}: GET /posts/stream/unified`, server, constant, (c) => ({
      method: 'GET',
      path: '/stream/0/posts/stream/unified',
      headers: auth(seeded, c),
    }))),
    ...(await beside(ctx, `${label}: GET /posts/{id}`, server, constant, (_, n) => ({
      method: 'GET',
      path: `/stream/0/posts/${seeded.postIds.first + ((n * 104_729) % span)}`,
    }))),
    ...(await beside(ctx, `${label}: POST /posts`, server, constant, postCreate(seeded))),
  ]
}

/** The same load spread over several servers, each taking an equal share of the connections; answers the sum of their rates and the worst p99. */
async function spread(ctx: BenchContext, servers: Running[], request: (connection: number, n: number) => LoadRequest): Promise<LoadResult> {
  const window = { connections: Math.ceil(CONNECTIONS / servers.length), warmupMs: scaled(ctx, 1000, 300), durationMs: scaled(ctx, 5000, 1000) }
  const results = await Promise.all(servers.map((s, i) => runLoad({ ...window, port: s.port, request: (c, n) => request(c + i * window.connections, n) })))
  return {
    requests: results.reduce((a, r) => a + r.requests, 0),
    errors: results.reduce((a, r) => a + r.errors, 0),
    rps: results.reduce((a, r) => a + r.rps, 0),
    p50Ms: Math.max(...results.map((r) => r.p50Ms)),
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
    bodyBytes: results[0].bodyBytes,
  }
}

/**
 * Users' own posts reach their user streams: `streams` users watch their
 * stream on `watch` while posts are made as them on `post`, one at a time
 * in turn, for the window. Latency: frame arrival minus the POST's answer
 * (0 when the frame came first).
 */
async function delivery(ctx: BenchContext, seeded: Seeded, post: Running, watch: Running): Promise<Latencies> {
  const people = seeded.people.slice(0, scaled(ctx, 20, 5))
  const pending = new Map<string, number>()
  const arrived = new Map<string, number>()
  const latencies = new Latencies()
  const sockets = await Promise.all(
    people.map(
      (person) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${watch.port}/stream/user`, { headers: { authorization: `Bearer ${person.token}` } })
          ws.once('error', reject)
          ws.on('message', async (raw) => {
            const frame = JSON.parse(raw.toString()) as { meta: { connection_id?: string; type?: string }; data?: { text: string }[] }
            if (frame.meta.connection_id && !frame.meta.type) {
              const res = await fetch(`http://127.0.0.1:${post.port}/stream/0/users/me/posts?connection_id=${frame.meta.connection_id}&count=1`, {
                headers: { authorization: `Bearer ${person.token}` },
              })
              if (res.status !== 200) reject(new Error(`subscribing answered ${res.status}`))
              else resolve(ws)
              return
            }
            const text = frame.data?.[0]?.text
            if (frame.meta.type !== 'post' || !text) return
            const answered = pending.get(text)
            if (answered === undefined) arrived.set(text, performance.now())
            else latencies.add(performance.now() - answered)
          })
        }),
    ),
  )
  try {
    const until = performance.now() + scaled(ctx, 5000, 1000)
    for (let n = 0; performance.now() < until; n++) {
      const person = people[n % people.length]
      const text = `delivery ${n} ${Date.now()}`
      const res = await fetch(`http://127.0.0.1:${post.port}/stream/0/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${person.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      })
      if (res.status !== 200) throw new Error(`POST /posts answered ${res.status}`)
      const answered = performance.now()
      if (arrived.has(text)) latencies.add(0)
      else pending.set(text, answered)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
  } finally {
    for (const ws of sockets) ws.close()
  }
  return latencies
}

const deliveryMeasures = (label: string, latencies: Latencies): Measure[] => [
  { name: `${label}: events delivered`, value: latencies.count, unit: '' },
  { name: `${label}: delivery p50`, value: latencies.percentile(50), unit: 'ms' },
  { name: `${label}: delivery p99`, value: latencies.percentile(99), unit: 'ms' },
]

export const cluster: Scenario = {
  name: 'cluster',
  description:
    'the same instance on the embedded store, on PostgreSQL with one node, and with three nodes and a Redis bus: API rates and event delivery across nodes',

  async prepare(ctx) {
    const users = scaled(ctx, 2000, 50)
    const posts = scaled(ctx, 100_000, 1000)
    const dir = join(ctx.workDir, 'instance')
    const seeded = await seedInstance(dir, { users, tokens: Math.min(CONNECTIONS, users), follows: 30, posts, stars: Math.round(posts / 5) })
    const sql = postgres(PG_URL, { max: 1, onnotice: () => {} })
    await sql`DROP SCHEMA IF EXISTS ${sql(SCHEMA)} CASCADE`
    await sql`CREATE SCHEMA ${sql(SCHEMA)}`
    await sql.end()
    const began = performance.now()
    await copyStore(dir, storeUrl)
    const copySeconds = (performance.now() - began) / 1000
    ctx.log(`seeded ${posts} posts in ${seeded.seconds.toFixed(0)} s, copied to PostgreSQL in ${copySeconds.toFixed(1)} s`)
    writeFileSync(join(ctx.workDir, 'seeded.json'), JSON.stringify({ ...seeded, posts, users, copySeconds }))
  },

  async run(ctx) {
    const seeded = JSON.parse(readFileSync(join(ctx.workDir, 'seeded.json'), 'utf8')) as Seeded
    const dir = join(ctx.workDir, 'instance')
    const running: Running[] = []
    const out: Measure[] = [{ name: `svc store copy of ${seeded.posts} posts`, value: seeded.copySeconds, unit: 's' }]
    try {
      const constant = await start([fileURLToPath(new URL('../constant-server.js', import.meta.url))])
      running.push(constant)

      const embedded = await serve(dir)
      running.push(embedded)
      await firstAnswer(embedded, seeded.postIds.last)
      // Delivery first: after the create runs the streams' dispatcher still has tens of thousands of events to go through.
      out.push(...deliveryMeasures('embedded, same node', await delivery(ctx, seeded, embedded, embedded)))
      out.push(...(await apiOn(ctx, 'embedded', embedded, constant, seeded)))
      await stop(running.pop() as Running)

      // The copy was made before the embedded run's creates: both start from the same data.
      const single = await serve(dir, ['--store', storeUrl])
      running.push(single)
      await firstAnswer(single, seeded.postIds.last)
      out.push(...deliveryMeasures('PostgreSQL, one node', await delivery(ctx, seeded, single, single)))
      out.push(...(await apiOn(ctx, 'PostgreSQL, one node', single, constant, seeded)))
      await stop(running.pop() as Running)

      const nodes: Running[] = []
      for (let i = 0; i < 3; i++) nodes.push(await serve(dir, ['--store', storeUrl, '--bus', REDIS_URL]))
      running.push(...nodes)
      for (const node of nodes) await firstAnswer(node, seeded.postIds.last)
      out.push(...deliveryMeasures('PostgreSQL, three nodes, posted on one and streamed on another', await delivery(ctx, seeded, nodes[0], nodes[1])))
      const span = seeded.postIds.last - seeded.postIds.first + 1
      for (const [label, request] of [
        ['GET /posts/stream/unified', (c: number): LoadRequest => ({ method: 'GET', path: '/stream/0/posts/stream/unified', headers: auth(seeded, c) })],
        [
          'GET /posts/{id}',
          (_: number, n: number): LoadRequest => ({ method: 'GET', path: `/stream/0/posts/${seeded.postIds.first + ((n * 104_729) % span)}` }),
        ],
        ['POST /posts', postCreate(seeded)],
      ] as const) {
        const result = await spread(ctx, nodes, request)
        ctx.log(`three nodes: ${label}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99Ms.toFixed(1)} ms`)
        out.push(...measures(`PostgreSQL, three nodes: ${label}`, result, result).slice(0, 5))
      }
      for (const m of out.filter((m) => m.name.includes('delivery p99'))) ctx.log(`${m.name}: ${m.value.toFixed(1)} ms`)
      return out
    } finally {
      for (const r of running.reverse()) await stop(r).catch(() => undefined)
    }
  },
}
