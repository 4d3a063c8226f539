/**
 * User streams at scale: a real `svc serve` process (test/bench/stream-server.ts,
 * with a GC hook) over 10k users with a skewed follow graph, one WebSocket
 * user stream per user subscribed to `/posts/stream/unified`; server memory
 * per idle stream; delivery latency, throughput and exactly-once of posts
 * created over HTTP at a fixed rate; then 10 % of the streams dropped,
 * posting on, and those reconnected at once with their connection ids:
 * every missed event must arrive once, and how long the catch-up takes.
 * The yardstick, measured in the same run: a bare `ws` server
 * (test/bench/ws-fanout-server.ts) sending frames of the same size to the
 * same audiences over the same number of sockets, at the same rate.
 *
 * Latency of an event = its arrival at the client minus the arrival of the
 * answer to the POST that made the post; an event that arrives before that
 * answer counts as 0 ms (how many did is reported).
 */
import { execFileSync } from 'node:child_process'
import http from 'node:http'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import WebSocket from 'ws'
import { openWithStore } from '../../fixtures/open-store.js'
import { Latencies } from '../latencies.js'
import { scaled, type BenchContext, type Measure, type Scenario } from '../scenario.js'
import { random, seedInstance } from '../seed-instance.js'
import { start, stop, type Running } from './api-at-scale.js'

/** Posts created per second, in every phase. */
const RATE = 100
/**
 * Share of posts whose author is drawn by follower count (a random follow's
 * target, so the most followed post most); the rest by a uniform draw.
 * `BENCH_STREAM_FROM_GRAPH` overrides it. Each post of a follower-weighted
 * author reaches ~3k of the 10k streams, a uniform one ~36.
 */
const FROM_GRAPH = Number(process.env.BENCH_STREAM_FROM_GRAPH ?? 0.1)
/** Share of the streams dropped and reconnected. */
const DROPPED = 0.1

interface Seeded {
  /** Stream i belongs to users[i]. */
  users: { id: number; token: string }[]
  /** Follows as [follower, target, follower, target, ...] user ids. */
  follows: number[]
  seconds: number
}

/** Who should see each author's posts in `/posts/stream/unified`: the author and their followers (no mentions are used), as stream indexes. */
function audiences(seeded: Seeded): Int32Array[] {
  const indexOf = new Map(seeded.users.map((u, i) => [u.id, i]))
  const lists: number[][] = seeded.users.map((_, i) => [i])
  for (let k = 0; k < seeded.follows.length; k += 2) {
    const follower = indexOf.get(seeded.follows[k])
    const target = indexOf.get(seeded.follows[k + 1])
    if (follower !== undefined && target !== undefined) lists[target].push(follower)
  }
  return lists.map((l) => Int32Array.from(l))
}

const ulimit = (): number => {
  const out = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim()
  return out === 'unlimited' ? Infinity : Number(out)
}

// Idle keep-alive sockets are dropped after 2 s, before the server's own keep-alive timeout (5 s) can close one as a request goes out on it (ECONNRESET).
const agent = new http.Agent({ keepAlive: true, maxSockets: 100, timeout: 2000 })

function request(
  port: number,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const h: Record<string, string | number> = { ...headers }
    if (body !== undefined) h['content-length'] = Buffer.byteLength(body)
    const r = http.request({ host: '127.0.0.1', port, method, path, agent, headers: h }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
      res.on('error', reject)
    })
    r.on('error', reject)
    r.end(body)
  })
}

/** Runs `work(i)` for i in [0, n) with at most `lanes` at once. */
async function pool(n: number, lanes: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0
  const lane = async () => {
    while (next < n) await work(next++)
  }
  await Promise.all(Array.from({ length: Math.min(lanes, n) }, lane))
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface PostRecord {
  id: number
  author: number
  sentAt: number
  answeredAt: number
  phase: string
}

/** The load generator's side of the streams: sockets, and every event that arrived (post id, stream, time). */
class Clients {
  readonly sockets: (WebSocket | null)[]
  readonly connectionIds: string[]
  /** Per post id: how many times each stream got it. */
  readonly received = new Map<number, Uint8Array>()
  readonly arrivalPost: number[] = []
  readonly arrivalStream: number[] = []
  readonly arrivalAt: number[] = []
  /** Frames naming no post (not a post event). */
  strays = 0
  frameBytes = 0
  /** Sockets the server closed (a stream falling too far behind is disconnected). */
  serverCloses: string[] = []

  constructor(
    readonly n: number,
    private readonly url: (i: number, connectionId?: string) => string,
    private readonly headers: (i: number) => Record<string, string>,
  ) {
    this.sockets = new Array(n).fill(null)
    this.connectionIds = new Array(n).fill('')
  }

  /** Opens stream i's socket; resolves with the connection id of its first frame. */
  open(i: number, connectionId?: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url(i, connectionId), { headers: this.headers(i), perMessageDeflate: false })
      let first = true
      ws.on('unexpected-response', (_req, res) => reject(new Error(`stream ${i}: HTTP ${res.statusCode}`)))
      ws.on('error', (err) => (first ? reject(err) : undefined))
      ws.on('close', (code, reason) => {
        if (this.sockets[i] === ws) {
          this.sockets[i] = null
          this.serverCloses.push(`${code} ${reason.toString()}`)
        }
      })
      ws.on('message', (data: Buffer) => {
        if (first) {
          first = false
          const id = (JSON.parse(data.toString()) as { meta: { connection_id: string } }).meta.connection_id
          this.sockets[i] = ws
          this.connectionIds[i] = id
          resolve(id)
          return
        }
        this.frame(i, data)
      })
    })
  }

  private frame(i: number, data: Buffer): void {
    const at = performance.now()
    const m = /"min_id":"(\d+)"/.exec(data.toString('latin1', 0, 400))
    const postId = m ? Number(m[1]) : NaN
    if (Number.isNaN(postId)) {
      this.strays++
      return
    }
    // An event may arrive before its POST's answer named the post: its counts start here then.
    let counts = this.received.get(postId)
    if (!counts) this.received.set(postId, (counts = new Uint8Array(this.n)))
    if (counts[i] < 255) counts[i]++
    this.frameBytes += data.length
    this.arrivalPost.push(postId)
    this.arrivalStream.push(i)
    this.arrivalAt.push(at)
  }

  /** Expect post `id` (allocates its per-stream counts, so a post nobody got still has them). */
  expect(id: number): void {
    if (!this.received.has(id)) this.received.set(id, new Uint8Array(this.n))
  }

  close(i: number): void {
    const ws = this.sockets[i]
    this.sockets[i] = null
    ws?.close()
  }

  closeAll(): void {
    for (let i = 0; i < this.n; i++) this.close(i)
  }
}

/**
 * Creates posts at RATE per second for `ms` (or until `until()`), each by an
 * author from `pick`; records each post's send and answer times. Open loop:
 * a post is sent when due, whatever the earlier ones are doing.
 */
async function postAtRate(
  o: { ms: number; until?: () => boolean; phase: string; pick: () => number },
  create: (author: number, n: number) => Promise<number>,
  posts: PostRecord[],
): Promise<{ errors: number; latencies: Latencies }> {
  const began = performance.now()
  const inFlight: Promise<void>[] = []
  const latencies = new Latencies()
  let errors = 0
  let firstError = ''
  for (let k = 0; ; k++) {
    const due = began + (k * 1000) / RATE
    if (due - began >= o.ms || o.until?.()) break
    const wait = due - performance.now()
    if (wait > 0) await sleep(wait)
    const author = o.pick()
    const sentAt = performance.now()
    inFlight.push(
      create(author, posts.length + k).then(
        (id) => {
          const answeredAt = performance.now()
          latencies.add(answeredAt - sentAt)
          posts.push({ id, author, sentAt, answeredAt, phase: o.phase })
        },
        (err: Error) => {
          if (errors++ === 0) firstError = err.message
        },
      ),
    )
  }
  await Promise.all(inFlight)
  if (firstError) process.stderr.write(`  [user-streams] ${o.phase}: ${errors} POSTs failed, the first with ${firstError}\n`)
  return { errors, latencies }
}

/** Waits until `done()` or until no event arrived for `quietMs` (at most `maxMs`). */
async function settle(clients: Clients, done: () => boolean, quietMs: number, maxMs: number): Promise<void> {
  const deadline = performance.now() + maxMs
  let seen = clients.arrivalAt.length
  let quietSince = performance.now()
  while (!done() && performance.now() < deadline) {
    await sleep(100)
    if (clients.arrivalAt.length !== seen) {
      seen = clients.arrivalAt.length
      quietSince = performance.now()
    } else if (performance.now() - quietSince >= quietMs) return
  }
}

interface Tally {
  expected: number
  delivered: number
  lost: number
  repeated: number
  /** Deliveries to streams outside the post's audience. */
  extra: number
}

/** Compares what arrived with each post's audience, for the streams `inSet` picks. */
function tally(clients: Clients, posts: PostRecord[], audience: Int32Array[], inSet: (stream: number) => boolean): Tally {
  const t: Tally = { expected: 0, delivered: 0, lost: 0, repeated: 0, extra: 0 }
  for (const p of posts) {
    const counts = clients.received.get(p.id) as Uint8Array
    const members = audience[p.author]
    const isMember = new Uint8Array(clients.n)
    for (const s of members) {
      isMember[s] = 1
      if (!inSet(s)) continue
      t.expected++
      if (counts[s] === 0) t.lost++
      else t.delivered++
      if (counts[s] > 1) t.repeated += counts[s] - 1
    }
    for (let s = 0; s < clients.n; s++) if (!isMember[s] && inSet(s) && counts[s] > 0) t.extra += counts[s]
  }
  return t
}

/** Latencies (from the POST's answer, clamped at 0; and from its send) of the arrivals of `posts` on the streams `inSet` picks. */
function latenciesOf(clients: Clients, posts: PostRecord[], inSet: (stream: number) => boolean) {
  const byId = new Map(posts.map((p) => [p.id, p]))
  const fromAnswer = new Latencies()
  const fromSend = new Latencies()
  let early = 0
  let max = 0
  let last = 0
  for (let k = 0; k < clients.arrivalAt.length; k++) {
    const p = byId.get(clients.arrivalPost[k])
    if (!p || !inSet(clients.arrivalStream[k])) continue
    const ms = clients.arrivalAt[k] - p.answeredAt
    if (ms < 0) early++
    fromAnswer.add(Math.max(0, ms))
    fromSend.add(clients.arrivalAt[k] - p.sentAt)
    max = Math.max(max, ms)
    last = Math.max(last, clients.arrivalAt[k])
  }
  return { fromAnswer, fromSend, early, max, last }
}

const latencyMeasures = (label: string, l: ReturnType<typeof latenciesOf>): Measure[] => [
  { name: `${label}: latency p50 (from POST answer)`, value: l.fromAnswer.percentile(50), unit: 'ms' },
  { name: `${label}: latency p99 (from POST answer)`, value: l.fromAnswer.percentile(99), unit: 'ms' },
  { name: `${label}: latency max (from POST answer)`, value: l.max, unit: 'ms' },
  { name: `${label}: latency p99 (from POST sent)`, value: l.fromSend.percentile(99), unit: 'ms' },
  { name: `${label}: events that arrived before their POST's answer (counted as 0 ms)`, value: l.early, unit: 'events' },
]

const tallyMeasures = (label: string, t: Tally): Measure[] => [
  { name: `${label}: events expected`, value: t.expected, unit: 'events' },
  { name: `${label}: events lost`, value: t.lost, unit: 'events' },
  { name: `${label}: events repeated`, value: t.repeated, unit: 'events' },
  { name: `${label}: events to streams outside the audience`, value: t.extra, unit: 'events' },
]

/** Sends SIGUSR2 to the stream server and reads the `gc rss=... heap=...` it prints after a full GC. */
function gcStats(server: Running): Promise<{ rss: number; heap: number }> {
  return new Promise((resolve, reject) => {
    let seen = ''
    const look = (chunk: Buffer) => {
      seen += chunk.toString()
      const m = /gc rss=(\d+) heap=(\d+)/.exec(seen)
      if (!m) return
      server.child.stdout?.off('data', look)
      resolve({ rss: Number(m[1]), heap: Number(m[2]) })
    }
    server.child.stdout?.on('data', look)
    if (!server.child.kill('SIGUSR2')) reject(new Error('the stream server is gone'))
  })
}

export const userStreams: Scenario = {
  name: 'user-streams',
  description: `svc serve with 10k WebSocket user streams on /posts/stream/unified (skewed follow graph): memory per idle stream, delivery latency and exactly-once at ${RATE} posts/s, resume of 10 % dropped streams; beside a bare ws server sending the same frames to the same audiences`,

  async prepare(ctx) {
    const users = scaled(ctx, 10_000, 100)
    ctx.log(`seeding ${users} users, a token each`)
    const dir = join(ctx.workDir, 'data')
    const seeded = await seedInstance(dir, { users, posts: scaled(ctx, 20_000, 200), tokens: users, follows: 35, stars: 0 })
    const { domain, store } = await openWithStore(dir, { config: { rate_limits: { enabled: false } as never } })
    const r = store.read
    const ids = await r.follows.scan({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' })
    const follows: number[] = []
    for (let k = 0; k < ids.length; k += 10_000) for (const f of await r.follows.getMany(ids.slice(k, k + 10_000))) follows.push(f.user_id, f.target_id)
    await domain.close()
    const out: Seeded = { users: seeded.people.map((p) => ({ id: p.userId, token: p.token })), follows, seconds: seeded.seconds }
    writeFileSync(join(ctx.workDir, 'seeded.json'), JSON.stringify(out))
    ctx.log(`seeded in ${seeded.seconds.toFixed(0)} s: ${follows.length / 2} follows`)
  },

  async run(ctx) {
    const seeded = JSON.parse(readFileSync(join(ctx.workDir, 'seeded.json'), 'utf8')) as Seeded
    const n = seeded.users.length
    const limit = ulimit()
    if (limit < n + 1000) {
      throw new Error(
        `user-streams opens ${n} sockets in the load generator and as many in the server: raise the open files limit (ulimit -n is ${limit}, needs ${n + 1000})`,
      )
    }
    // A peer reset on a socket the generator holds (the overloaded server closing a keep-alive or a
    // stream mid-read) must not end the measurement; each one is counted and reported.
    let resets = 0
    const onReset = (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') throw err
      if (resets++ === 0) ctx.log(`a socket was reset by the server: ${err.message}`)
    }
    process.on('uncaughtException', onReset)
    const audience = audiences(seeded)
    const rand = random(7)
    const indexOfUser = new Map(seeded.users.map((u, i) => [u.id, i]))
    const pick = () =>
      rand() < FROM_GRAPH ? (indexOfUser.get(seeded.follows[2 * Math.floor(rand() * (seeded.follows.length / 2)) + 1]) ?? 0) : Math.floor(rand() * n)
    let meanFanOut = 0
    for (let k = 0; k < 20_000; k++) meanFanOut += audience[pick()].length / 20_000
    ctx.log(`${n} streams, mean audience of a post ${meanFanOut.toFixed(0)} streams: ~${(meanFanOut * RATE).toFixed(0)} deliveries/s expected`)
    const out: Measure[] = [
      { name: 'streams', value: n, unit: 'streams' },
      { name: 'posts by a follower-weighted author (the rest uniform)', value: 100 * FROM_GRAPH, unit: '%' },
      { name: 'mean audience of a post (author + followers)', value: meanFanOut, unit: 'streams' },
      { name: 'deliveries per second asked for', value: meanFanOut * RATE, unit: 'events/s' },
      { name: 'largest audience (most-followed author)', value: Math.max(...audience.map((a) => a.length)), unit: 'streams' },
    ]

    const prof = process.env.BENCH_CPU_PROF ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []
    const server = await start(
      [
        '--expose-gc',
        ...prof,
        fileURLToPath(new URL('../stream-server.js', import.meta.url)),
        'serve',
        '--data-dir',
        join(ctx.workDir, 'data'),
        '--port',
        '0',
        '--host',
        '127.0.0.1',
      ],
      { SVC_RATE_LIMIT: 'off' },
    )
    const port = server.port
    const auth = (i: number) => ({ authorization: `Bearer ${seeded.users[i].token}` })
    const clients = new Clients(n, (_, id) => `ws://127.0.0.1:${port}/stream/user${id ? `?connection_id=${id}` : ''}`, auth)
    const posts: PostRecord[] = []
    const create = async (author: number, k: number): Promise<number> => {
      const res = await request(
        port,
        'POST',
        '/stream/0/posts',
        { ...auth(author), 'content-type': 'application/json' },
        JSON.stringify({ text: `stream bench post ${k} about the morning train` }),
      )
      if (res.status !== 200) throw new Error(`POST /posts: ${res.status}`)
      const id = Number((JSON.parse(res.body) as { data: { id: string } }).data.id)
      clients.expect(id)
      return id
    }
    try {
      // Memory before and after opening the streams, each after a full GC.
      await sleep(1000)
      const idle = await gcStats(server)
      const opening = performance.now()
      let unsubscribed = 0
      await pool(n, 100, async (i) => {
        const id = await clients.open(i)
        const res = await request(port, 'GET', `/stream/0/posts/stream/unified?connection_id=${id}&subscription_id=home&count=1`, auth(i))
        if (res.status !== 200 || !res.body.includes('"subscription_ids":["home"]')) unsubscribed++
      })
      const openSeconds = (performance.now() - opening) / 1000
      if (unsubscribed > 0) throw new Error(`${unsubscribed} streams were not subscribed`)
      await sleep(2000)
      const open = await gcStats(server)
      ctx.log(`opened ${n} streams in ${openSeconds.toFixed(1)} s; RSS ${(idle.rss / 2 ** 20).toFixed(0)} -> ${(open.rss / 2 ** 20).toFixed(0)} MB`)
      out.push(
        { name: 'opening the streams (WebSocket + subscribing GET, 100 at a time)', value: openSeconds, unit: 's' },
        { name: 'server RSS before the streams (after a full GC)', value: idle.rss / 2 ** 20, unit: 'MB' },
        { name: 'server RSS with the idle streams open (after a full GC)', value: open.rss / 2 ** 20, unit: 'MB' },
        { name: 'server memory per idle stream (RSS)', value: (open.rss - idle.rss) / n / 1024, unit: 'KB' },
        { name: 'server heap per idle stream', value: (open.heap - idle.heap) / n / 1024, unit: 'KB' },
      )

      // Live delivery: a warm-up, then the measured window.
      const all = () => true
      const warm = await postAtRate({ ms: scaled(ctx, 3000, 1000), phase: 'warm', pick }, create, posts)
      const windowMs = scaled(ctx, 30_000, 3000)
      const measuredFrom = posts.length
      const live = await postAtRate({ ms: windowMs, phase: 'live', pick }, create, posts)
      const livePosts = posts.slice(measuredFrom)
      const expectedLive = livePosts.concat(posts.slice(0, measuredFrom)).reduce((s, p) => s + audience[p.author].length, 0)
      await settle(clients, () => clients.arrivalAt.length >= expectedLive, 3000, 60_000)
      const liveLat = latenciesOf(clients, livePosts, all)
      const liveTally = tally(clients, posts, audience, all)
      const liveDelivered = tally(clients, livePosts, audience, all).delivered
      ctx.log(`live: ${liveDelivered} events, p99 ${liveLat.fromAnswer.percentile(99).toFixed(1)} ms, lost ${liveTally.lost}, repeated ${liveTally.repeated}`)
      out.push(
        { name: 'live: posts created (measured window)', value: livePosts.length, unit: 'posts' },
        { name: 'live: POST errors', value: warm.errors + live.errors, unit: 'requests' },
        { name: 'live: POST /posts p99', value: live.latencies.percentile(99), unit: 'ms' },
        {
          name: 'live: events delivered per second (first POST of the window to the last of its events)',
          value: (liveDelivered / (liveLat.last - livePosts[0].sentAt)) * 1000,
          unit: 'events/s',
        },
        ...latencyMeasures('live', liveLat),
        ...tallyMeasures('live (warm-up + window)', liveTally),
        { name: 'live: mean frame size', value: clients.frameBytes / Math.max(1, clients.arrivalAt.length), unit: 'bytes' },
      )
      const frameBytes = Math.round(clients.frameBytes / Math.max(1, clients.arrivalAt.length))

      // Drop 10 %, post on, reconnect them at once.
      const dropped = new Uint8Array(n)
      const droppedIds: number[] = []
      for (let i = 0; i < n; i += Math.round(1 / DROPPED)) {
        dropped[i] = 1
        droppedIds.push(i)
      }
      const closesBefore = clients.serverCloses.length
      const ids = droppedIds.map((i) => clients.connectionIds[i])
      for (const i of droppedIds) clients.close(i)
      await sleep(2000)
      const gapFrom = posts.length
      const gapMs = scaled(ctx, 60_000, 5000)
      const gap = await postAtRate({ ms: gapMs, phase: 'gap', pick }, create, posts)
      const missed = posts.slice(gapFrom)
      const reconnecting = performance.now()
      let notResumed = 0
      let reconnected = 0
      let lastReconnect = 0
      const reconnects = Promise.all(
        droppedIds.map((i, k) =>
          clients.open(i, ids[k]).then((id) => {
            if (id !== ids[k]) notResumed++
            reconnected++
            lastReconnect = performance.now()
          }),
        ),
      )
      // Live posting goes on while they catch up; stop once every missed event arrived on every reconnected stream.
      const missedExpected = missed.reduce((s, p) => s + audience[p.author].filter((x) => dropped[x] === 1).length, 0)
      let missedArrived = 0
      let scanned = 0
      const missedIds = new Set(missed.map((p) => p.id))
      let caughtUpAt = 0
      const caughtUp = () => {
        for (; scanned < clients.arrivalAt.length; scanned++) {
          if (dropped[clients.arrivalStream[scanned]] && missedIds.has(clients.arrivalPost[scanned]) && clients.arrivalAt[scanned] >= reconnecting) {
            missedArrived++
            if (missedArrived === missedExpected) caughtUpAt = clients.arrivalAt[scanned]
          }
        }
        return missedArrived >= missedExpected && reconnected === droppedIds.length
      }
      const during = postAtRate({ ms: 120_000, until: caughtUp, phase: 'during', pick }, create, posts)
      await reconnects
      const duringResult = await during
      const expectedAll = posts.reduce((s, p) => s + audience[p.author].length, 0)
      await settle(clients, () => clients.arrivalAt.length >= expectedAll, 3000, 60_000)
      caughtUp()
      const afterDrop = posts.slice(gapFrom)
      const droppedSet = (s: number) => dropped[s] === 1
      const stayedSet = (s: number) => dropped[s] === 0
      const resumeTally = tally(clients, afterDrop, audience, droppedSet)
      const missedTally = tally(clients, missed, audience, droppedSet)
      const stayedLat = latenciesOf(clients, missed, stayedSet)
      const stayedTally = tally(clients, afterDrop, audience, stayedSet)
      ctx.log(
        `resume: ${droppedIds.length} reconnected in ${((lastReconnect - reconnecting) / 1000).toFixed(2)} s, caught up after ${caughtUpAt ? ((caughtUpAt - reconnecting) / 1000).toFixed(2) : 'never'} s; lost ${resumeTally.lost}, repeated ${resumeTally.repeated}`,
      )
      out.push(
        { name: 'gap: streams dropped and reconnected', value: droppedIds.length, unit: 'streams' },
        { name: 'gap: posts created while they were away', value: missed.length, unit: 'posts' },
        { name: 'gap: POST errors', value: gap.errors + duringResult.errors, unit: 'requests' },
        ...latencyMeasures('gap, the streams that stayed', stayedLat),
        ...tallyMeasures('gap, the streams that stayed', stayedTally),
        { name: 'resume: reconnections not resumed (new connection id)', value: notResumed, unit: 'streams' },
        { name: 'resume: time until all reconnected (first frame)', value: (lastReconnect - reconnecting) / 1000, unit: 's' },
        { name: 'resume: time until all caught up (last missed event received)', value: caughtUpAt ? (caughtUpAt - reconnecting) / 1000 : NaN, unit: 's' },
        ...tallyMeasures('resume: events missed while away', missedTally),
        ...tallyMeasures('resume: every event since the drop', resumeTally),
        { name: 'streams the server disconnected', value: clients.serverCloses.length - closesBefore, unit: 'streams' },
        { name: 'frames naming no post of this run', value: clients.strays, unit: 'frames' },
        { name: 'generator sockets reset by the server (uncaught)', value: resets, unit: 'sockets' },
      )
      if (clients.serverCloses.length > 0) ctx.log(`server closes: ${[...new Set(clients.serverCloses)].slice(0, 5).join('; ')}`)
      clients.closeAll()
      await sleep(500)
      out.push(...(await yardstick(ctx, n, audience, pick, frameBytes)))
      return out
    } finally {
      clients.closeAll()
      await stop(server).catch(() => undefined)
      agent.destroy()
    }
  },
}

/** The same sockets, rate, audiences and frame size on a bare `ws` server. */
async function yardstick(ctx: BenchContext, n: number, audience: Int32Array[], pick: () => number, frameBytes: number): Promise<Measure[]> {
  const bare = await start([fileURLToPath(new URL('../ws-fanout-server.js', import.meta.url))])
  const clients = new Clients(
    n,
    (i) => `ws://127.0.0.1:${bare.port}/?i=${i}`,
    () => ({}),
  )
  try {
    await pool(n, 100, async (i) => void (await clients.open(i)))
    const posts: PostRecord[] = []
    let next = 1
    const create = async (author: number): Promise<number> => {
      const id = next++
      clients.expect(id)
      const res = await request(
        bare.port,
        'POST',
        '/publish',
        { 'content-type': 'application/json' },
        JSON.stringify({ id, to: Array.from(audience[author]), bytes: frameBytes }),
      )
      if (res.status !== 200) throw new Error(`publish: ${res.status}`)
      return id
    }
    const windowMs = scaled(ctx, 10_000, 2000)
    await postAtRate({ ms: windowMs, phase: 'bare', pick }, create, posts)
    const expected = posts.reduce((s, p) => s + audience[p.author].length, 0)
    await settle(clients, () => clients.arrivalAt.length >= expected, 3000, 60_000)
    const lat = latenciesOf(clients, posts, () => true)
    const t = tally(clients, posts, audience, () => true)
    const began = posts.reduce((m, p) => Math.min(m, p.sentAt), Infinity)
    ctx.log(`bare ws: p99 ${lat.fromAnswer.percentile(99).toFixed(1)} ms, lost ${t.lost}`)
    return [
      { name: 'bare ws yardstick: events delivered per second', value: (t.delivered / (lat.last - began)) * 1000, unit: 'events/s' },
      ...latencyMeasures('bare ws yardstick', lat),
      { name: 'bare ws yardstick: events lost', value: t.lost, unit: 'events' },
    ]
  } finally {
    clients.closeAll()
    await stop(bare).catch(() => undefined)
  }
}
