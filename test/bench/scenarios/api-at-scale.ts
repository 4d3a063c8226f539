/**
 * Issues 3 and 16: the API of an instance of 10k users (skewed follow graph)
 * and 1M (`api-1M`) or 10M (`api-10M`) posts, served by a real `svc serve`
 * process. Measures req/s and p99 of the unified stream, a post lookup, a
 * user's posts and durable post creates at 100 connections, each beside a
 * bare hapi route (own process) answering a constant body of the same size,
 * measured right before it (the stream and the lookup also beside bare
 * node:http answering the same); creates again on an instance of 10k posts
 * (`api-1M`); the server's RSS and its cold start (spawn to first answer),
 * from the index file a clean stop leaves and without it (what a kill -9
 * after a compaction leaves).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { collectGcPauses, gcSummary, type GcPause } from '../gc-trace.js'
import { Inspector, LAYERS } from '../layer-profile.js'
import { runLoad, type LoadRequest, type LoadResult } from '../load.js'
import { scaled, type BenchContext, type Measure, type Scenario } from '../scenario.js'
import { seedInstance, type SeededInstance } from '../seed-instance.js'

export const CONNECTIONS = 100

interface Seeded {
  users: number
  big: SeededInstance & { posts: number }
  small?: SeededInstance & { posts: number }
}

export interface Running {
  child: ChildProcess
  port: number
  /** performance.now() at spawn. */
  began: number
  /** Its GC pauses, when it was started with `--trace-gc`. */
  gc: GcPause[]
  /** Its inspector's address, when it was started with `--inspect`. */
  inspector?: string
}

/** Spawns a node script; resolves once it reports its port (`listening on ...:PORT`, or a bare port line). */
export function start(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const began = performance.now()
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const gc = collectGcPauses(child.stdout as NonNullable<typeof child.stdout>)
  return new Promise((resolve, reject) => {
    let seen = ''
    let inspector: string | undefined
    const look = (chunk: Buffer) => {
      // Only the tail is kept: a traced process prints a line per collection for as long as it runs.
      seen = (seen + chunk.toString()).slice(-8192)
      inspector ??= /Debugger listening on (ws:\/\/\S+)/.exec(seen)?.[1]
      const m = /svc: listening on \S+:(\d+)/.exec(seen) ?? /^(\d+)\n/m.exec(seen)
      if (m) resolve({ child, port: Number(m[1]), began, gc, inspector })
    }
    child.stdout?.on('data', look)
    child.stderr?.on('data', look)
    child.once('exit', (code, signal) => {
      // After the start this reject is a no-op: a server that dies mid-run says so, with its last words.
      process.stderr.write(`  [server] ${args[0]} exited (${code ?? signal}): ${seen.slice(-1500)}\n`)
      reject(new Error(`${args.join(' ')} exited with ${code}: ${seen.slice(-500)}`))
    })
  })
}

/**
 * Waits until a started `svc serve` has built its places index: the build
 * runs in a worker after the start and takes CPU seconds that would
 * otherwise fall inside the first measured window (the first search waits
 * for it). `token`: any user token.
 */
export async function placesReady(port: number, token: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/stream/0/places/search?latitude=48.8566&longitude=2.3522&radius=1000&count=1`, {
    headers: { authorization: `Bearer ${token}` },
  })
  if (res.status !== 200) throw new Error(`places search answered ${res.status}: ${await res.text()}`)
}

export async function stop(running: Running): Promise<void> {
  running.child.removeAllListeners('exit')
  if (running.child.exitCode !== null) return
  const exited = new Promise((r) => running.child.once('exit', r))
  running.child.kill('SIGTERM')
  await exited
}

const serve = (dataDir: string) =>
  start(['--trace-gc', '--inspect=127.0.0.1:0', 'bin/svc.js', 'serve', '--data-dir', dataDir, '--port', '0', '--host', '127.0.0.1'], { SVC_RATE_LIMIT: 'off' })

export const megabytesOf = (pid: number, key: 'VmRSS' | 'VmHWM'): number =>
  Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024

export const auth = (seeded: SeededInstance, n: number) => ({ authorization: `Bearer ${seeded.people[n % seeded.people.length].token}` })

/** The token of a reader drawn from every user, a different one at each request. */
const anyReader = (seeded: SeededInstance, n: number) => auth(seeded, (n * 104_729 + 7) % seeded.people.length)

export const postCreate =
  (seeded: SeededInstance) =>
  (_: number, n: number): LoadRequest => ({
    method: 'POST',
    path: '/stream/0/posts',
    headers: { ...auth(seeded, n), 'content-type': 'application/json' },
    body: JSON.stringify({ text: `bench post ${n} about the morning train and #coffee` }),
  })

/**
 * `request` on svc, after the constant route with the body size svc answers
 * it; and after the same on bare node:http (`floor`), when given.
 */
export async function beside(
  ctx: BenchContext,
  label: string,
  svc: Running,
  constant: Running,
  request: (connection: number, n: number) => LoadRequest,
  floor?: Running,
): Promise<Measure[]> {
  // BENCH_API_SECONDS lengthens the measured windows (a major GC of a large heap comes every minute or so, not every 5 s).
  const seconds = Number(process.env.BENCH_API_SECONDS ?? 0)
  const window = { connections: CONNECTIONS, warmupMs: scaled(ctx, 1000, 300), durationMs: seconds > 0 ? seconds * 1000 : scaled(ctx, 5000, 1000) }
  const probe = await runLoad({ port: svc.port, connections: 1, warmupMs: 0, durationMs: 50, request })
  if (probe.errors > 0 || probe.requests === 0) throw new Error(`${label}: svc did not answer`)
  const sample = request(0, 0)
  const constantRequest = (): LoadRequest => ({
    method: sample.method,
    path: `/constant/${probe.bodyBytes}`,
    body: sample.body,
    headers: sample.body ? { 'content-type': 'application/json' } : undefined,
  })
  const yardstick = await runLoad({ ...window, port: constant.port, request: constantRequest })
  const bare = floor ? await runLoad({ ...window, port: floor.port, request: constantRequest }) : null
  const gcFrom = svc.gc.length
  const measured = await runLoad({ ...window, port: svc.port, request })
  // The warm-up's collections are in the window too: the load generator does not say where it ends.
  const gc = gcSummary(svc.gc, gcFrom)
  const windowSeconds = (window.warmupMs + window.durationMs) / 1000
  ctx.log(
    `${label}: ${measured.rps.toFixed(0)} req/s, p99 ${measured.p99Ms.toFixed(1)} ms; constant ${yardstick.rps.toFixed(0)} req/s; ` +
      `GC ${gc.totalMs.toFixed(0)} ms in ${gc.count} pauses (${gc.major} major, longest ${gc.maxMs.toFixed(0)} ms)`,
  )
  return [
    ...measures(label, measured, yardstick),
    ...(bare
      ? [
          { name: `${label} bare node:http route requests/s`, value: bare.rps, unit: 'req/s' },
          { name: `${label} bare node:http route p99`, value: bare.p99Ms, unit: 'ms' },
        ]
      : []),
    ...(svc.inspector ? await layerMeasures(ctx, label, svc, request) : []),
    { name: `${label} GC pauses, warm-up and measured window: share of the time`, value: gc.totalMs / 10 / windowSeconds, unit: '%' },
    { name: `${label} GC pauses: longest`, value: gc.maxMs, unit: 'ms' },
    { name: `${label} GC pauses: major (mark-compact) collections`, value: gc.major, unit: '' },
  ]
}

/**
 * A further window of the same load, unmeasured, with the main thread
 * profiled (the sampling costs a little): its time by svc's layers, so the
 * store's share is seen apart from hapi's lifecycle and the presenters.
 */
async function layerMeasures(ctx: BenchContext, label: string, svc: Running, request: (connection: number, n: number) => LoadRequest): Promise<Measure[]> {
  const inspector = await Inspector.connect(svc.inspector as string)
  try {
    // BENCH_CPU_PROF=<dir> keeps each window's profile there, named by its label.
    const dir = process.env.BENCH_CPU_PROF
    const saveAs = dir ? join(dir, `${label.replace(/[^\w]+/g, '-')}.cpuprofile`) : undefined
    const { layers } = await inspector.profile(
      () => runLoad({ port: svc.port, connections: CONNECTIONS, warmupMs: 0, durationMs: scaled(ctx, 3000, 500), request }),
      saveAs,
    )
    const total = LAYERS.reduce((sum, l) => sum + layers[l], 0)
    ctx.log(`${label}, main thread by layer: ${LAYERS.map((l) => `${l} ${((100 * layers[l]) / total).toFixed(1)} %`).join(', ')}`)
    return LAYERS.map((l) => ({ name: `${label} main thread, profiled window: ${l}`, value: (100 * layers[l]) / total, unit: '%' }))
  } finally {
    inspector.close()
  }
}

/**
 * What the server's RSS holds after the runs: the V8 heap in use, and both
 * again after a full collection (live data, not garbage waiting for one).
 */
async function heapMeasures(label: string, svc: Running): Promise<Measure[]> {
  if (!svc.inspector) return []
  const inspector = await Inspector.connect(svc.inspector)
  try {
    const before = (await inspector.send('Runtime.getHeapUsage')) as { usedSize: number }
    await inspector.send('HeapProfiler.collectGarbage')
    const after = (await inspector.send('Runtime.getHeapUsage')) as { usedSize: number }
    const mb = (bytes: number) => bytes / (1 << 20)
    return [
      { name: `V8 heap used ${label}`, value: mb(before.usedSize), unit: 'MB' },
      { name: `V8 heap used ${label}, after a full GC`, value: mb(after.usedSize), unit: 'MB' },
      { name: `RSS ${label}, after a full GC`, value: megabytesOf(svc.child.pid as number, 'VmRSS'), unit: 'MB' },
    ]
  } finally {
    inspector.close()
  }
}

export const measures = (label: string, svc: LoadResult, constant: LoadResult): Measure[] => [
  { name: `${label} requests/s`, value: svc.rps, unit: 'req/s' },
  { name: `${label} p50`, value: svc.p50Ms, unit: 'ms' },
  { name: `${label} p99`, value: svc.p99Ms, unit: 'ms' },
  { name: `${label} errors`, value: svc.errors, unit: 'requests' },
  { name: `${label} body`, value: svc.bodyBytes, unit: 'bytes' },
  { name: `${label} constant route requests/s`, value: constant.rps, unit: 'req/s' },
  { name: `${label} constant route p99`, value: constant.p99Ms, unit: 'ms' },
  { name: `${label} share of constant route`, value: (100 * svc.rps) / constant.rps, unit: '%' },
]

/** Spawn to first answer of `svc serve` over `dataDir`, and its RSS then; the server is stopped. */
async function coldStart(dataDir: string, lastPost: number): Promise<{ seconds: number; rss: number }> {
  const server = await serve(dataDir)
  try {
    await firstAnswer(server, lastPost)
    return { seconds: (performance.now() - server.began) / 1000, rss: megabytesOf(server.child.pid as number, 'VmRSS') }
  } finally {
    await stop(server)
  }
}

export async function firstAnswer(server: Running, lastPost: number): Promise<void> {
  const first = await runLoad({
    port: server.port,
    connections: 1,
    warmupMs: 0,
    durationMs: 1,
    request: () => ({ method: 'GET', path: `/stream/0/posts/${lastPost}` }),
  })
  if (first.errors > 0) throw new Error('svc did not answer its first request')
}

export const apiAt = (postsAtScale: number, label: string, withSmall: boolean): Scenario => ({
  name: `api-${label}`,
  description: `svc serve over 10k users and ${label} posts: streams, lookups and durable creates at ${CONNECTIONS} connections beside a constant hapi route; RSS and cold start`,

  async prepare(ctx) {
    const users = scaled(ctx, 10_000, 50)
    // A token for every user: readers drawn at random out of all of them are the timelines a real instance serves.
    const common = { users, tokens: users, follows: 40 }
    const posts = scaled(ctx, postsAtScale, 1000)
    ctx.log(`seeding ${users} users and ${posts} posts`)
    const big = await seedInstance(join(ctx.workDir, 'big'), { ...common, posts, stars: Math.round(posts / 5) })
    ctx.log(`seeded in ${big.seconds.toFixed(0)} s`)
    const seeded: Seeded = { users, big: { ...big, posts } }
    if (withSmall) {
      const smallPosts = scaled(ctx, 10_000, 100)
      const small = await seedInstance(join(ctx.workDir, 'small'), { ...common, posts: smallPosts, stars: Math.round(smallPosts / 5) })
      seeded.small = { ...small, posts: smallPosts }
    }
    writeFileSync(join(ctx.workDir, 'seeded.json'), JSON.stringify(seeded))
  },

  async run(ctx) {
    const seeded = JSON.parse(readFileSync(join(ctx.workDir, 'seeded.json'), 'utf8')) as Seeded
    const { big, small, users } = seeded
    const running: Running[] = []
    try {
      const constant = await start([fileURLToPath(new URL('../constant-server.js', import.meta.url))])
      running.push(constant)
      // Where the p99 goals sit against what this machine and load generator allow any Node server.
      const floor = await start([fileURLToPath(new URL('../node-constant-server.js', import.meta.url))])
      running.push(floor)
      const server = await serve(join(ctx.workDir, 'big'))
      running.push(server)
      await firstAnswer(server, big.postIds.last)
      const coldStartMs = performance.now() - server.began
      const pid = server.child.pid as number
      const rssAtStart = megabytesOf(pid, 'VmRSS')
      ctx.log(`cold start ${(coldStartMs / 1000).toFixed(2)} s, RSS ${rssAtStart.toFixed(0)} MB`)
      await placesReady(server.port, big.people[0].token)
      const span = big.postIds.last - big.postIds.first + 1
      const out: Measure[] = [{ name: 'seeding (batched transacts + snapshot)', value: big.seconds, unit: 's' }]
      out.push(
        ...(await beside(
          ctx,
          'GET /posts/stream/unified',
          server,
          constant,
          (c) => ({
            method: 'GET',
            path: '/stream/0/posts/stream/unified',
            headers: auth(big, c),
          }),
          floor,
        )),
      )
      // Kept answers are dropped by every change they show: the same timelines while a tenth of the connections post.
      const unifiedOrPost = postCreate(big)
      out.push(
        ...(await beside(ctx, 'GET /posts/stream/unified, 10 of 100 connections posting', server, constant, (c, n) =>
          c % 10 === 9 ? unifiedOrPost(c, n) : { method: 'GET', path: '/stream/0/posts/stream/unified', headers: auth(big, c) },
        )),
      )
      // Without the answer cache's help: each request reads the home timeline of another of all the users.
      out.push(
        ...(await beside(ctx, 'GET /posts/stream/unified, random readers', server, constant, (_, n) => ({
          method: 'GET',
          path: '/stream/0/posts/stream/unified',
          headers: anyReader(big, n),
        }))),
      )
      out.push(
        ...(await beside(ctx, 'GET /posts/stream/unified, random readers, 10 of 100 connections posting', server, constant, (c, n) =>
          c % 10 === 9 ? unifiedOrPost(c, n) : { method: 'GET', path: '/stream/0/posts/stream/unified', headers: anyReader(big, n) },
        )),
      )
      out.push(
        ...(await beside(
          ctx,
          'GET /posts/{id}',
          server,
          constant,
          (_, n) => ({
            method: 'GET',
            path: `/stream/0/posts/${big.postIds.first + ((n * 104_729) % span)}`,
          }),
          floor,
        )),
      )
      out.push(
        ...(await beside(ctx, 'GET /users/{id}/posts', server, constant, (_, n) => ({
          method: 'GET',
          path: `/stream/0/users/${big.userIds.first + ((n * 7919) % users)}/posts`,
        }))),
      )
      out.push(...(await beside(ctx, `POST /posts at ${big.posts} posts`, server, constant, postCreate(big))))
      out.push(
        { name: `RSS after cold start at ${big.posts} posts`, value: rssAtStart, unit: 'MB' },
        { name: `RSS after the runs (${big.posts} posts + those created)`, value: megabytesOf(pid, 'VmRSS'), unit: 'MB' },
        { name: `peak RSS at ${big.posts} posts`, value: megabytesOf(pid, 'VmHWM'), unit: 'MB' },
        { name: `cold start at ${big.posts} posts (spawn to first answer)`, value: coldStartMs / 1000, unit: 's' },
        ...(await heapMeasures('after the runs', server)),
      )
      await stop(server)
      running.pop()
      // The stop left an index file; without it the store reads every row, as after a kill -9 that followed a compaction.
      rmSync(join(ctx.workDir, 'big', 'store', 'index.bin'))
      const full = await coldStart(join(ctx.workDir, 'big'), big.postIds.last)
      ctx.log(`cold start without the index file ${full.seconds.toFixed(2)} s, RSS ${full.rss.toFixed(0)} MB`)
      out.push(
        { name: `cold start at ${big.posts} posts without the index file (reads every row)`, value: full.seconds, unit: 's' },
        { name: `RSS after that start`, value: full.rss, unit: 'MB' },
      )
      if (!small) return out
      const smallServer = await serve(join(ctx.workDir, 'small'))
      running.push(smallServer)
      await placesReady(smallServer.port, small.people[0].token)
      out.push(...(await beside(ctx, `POST /posts at ${small.posts} posts`, smallServer, constant, postCreate(small))))
      return out
    } finally {
      for (const r of running.reverse()) await stop(r).catch(() => undefined)
    }
  },
})
