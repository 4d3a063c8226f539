/**
 * App streams at the maximum durable create rate: a real `svc serve` process
 * over a small instance (a few hundred users, each with a token of one app),
 * `POST /stream/0/posts` from LANES concurrent clients (closed loop, each
 * sending its next create when the last is answered). Configurations, in the
 * same run and the same server: (a) no app stream, the baseline create rate;
 * (b) one app stream of that app with a five-clause `exclude_any` filter that
 * never matches (so every clause is evaluated for every event and every post
 * passes) and one consumer reading its endpoint; (c) five such streams, five
 * consumers. After a warm-up and a first (a), ROUNDS rounds of (b), (c), (a)
 * each: every (b) and (c) is compared with the two baselines around it, so
 * the drift of a shared machine over the run does not read as a cost.
 *
 * For each stream: events delivered per second in the measured window, the
 * create-to-delivery latency (arrival at the consumer minus the arrival of
 * the POST's answer; an event arriving before that answer counts 0 ms, how
 * many did is reported), the backlog (posts answered minus events delivered)
 * at its largest during the window and at its end, how long the consumer
 * then needed to drain it, and exactly-once: every post created while the
 * stream was open arrives once on it. The server's CPU time per create
 * (from /proc, every thread) is reported beside the rates.
 */
import http from 'node:http'
import { readFileSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { openWithStore } from '../../fixtures/open-store.js'
import { Latencies } from '../latencies.js'
import { scaled, type BenchContext, type Measure, type Scenario } from '../scenario.js'
import { seedInstance } from '../seed-instance.js'
import { placesReady, start, stop, type Running } from './api-at-scale.js'

/** Creates in flight at all times (`BENCH_APP_LANES` overrides it). */
const LANES = Number(process.env.BENCH_APP_LANES ?? 64)
const USERS = 300
/** Rounds of (b) one stream, (c) five streams, (a) none, after a first (a) (`BENCH_APP_ROUNDS` overrides it). */
const ROUNDS = Number(process.env.BENCH_APP_ROUNDS ?? 3)

/** Five clauses on fields every post has (or may have), none of which ever holds for the bench's posts. */
const FILTER = {
  match_policy: 'exclude_any',
  clauses: [
    { object_type: 'post', operator: 'matches', field: '/data/text', value: 'xyzzy never written' },
    { object_type: 'post', operator: 'equals', field: '/data/user/username', value: 'nobody-at-all' },
    { object_type: 'post', operator: 'gt', field: '/data/num_replies', value: 1_000_000 },
    { object_type: 'post', operator: 'one_of', field: '/data/entities/hashtags/*/name', value: ['never', 'nothing', 'nowhere'] },
    { object_type: 'post', operator: 'equals', field: '/data/source/name', value: 'No Such Client' },
  ],
}

interface Seeded {
  tokens: string[]
  appToken: string
  seconds: number
}

interface PostRecord {
  id: number
  sentAt: number
  answeredAt: number
}

/** CPU seconds (user + system) the process `pid` has used, or only its thread `thread`, from /proc (clock ticks of 1/100 s). */
export const cpuSecondsOf = (pid: number, thread?: number): number => {
  const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** One consumer of an app stream's endpoint: every post event that arrived, with its time. */
class Consumer {
  readonly ids: number[] = []
  readonly at: number[] = []
  readonly controls: string[] = []
  strays = 0
  /** Set when the first event's full JSON was checked against the cheap id read below. */
  checked = false
  private request: http.ClientRequest | null = null
  private rest = ''

  open(endpoint: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = http.get(endpoint, { agent: false }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`endpoint: HTTP ${res.statusCode}`))
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => this.chunk(chunk))
        res.on('error', () => undefined)
        resolve()
      })
      req.on('error', reject)
      this.request = req
    })
  }

  private chunk(chunk: string): void {
    const now = performance.now()
    const lines = (this.rest + chunk).split('\r\n')
    this.rest = lines.pop() as string
    for (const line of lines) {
      if (line === '') continue
      if (line.startsWith('{"control"')) {
        this.controls.push(line.slice(0, 300))
        continue
      }
      // The id is read from the head of the line (meta comes first); the first line is parsed whole to prove the reading right.
      const m = /^\{"meta":\{"id":"(\d+)","type":"post"/.exec(line)
      if (!m) {
        this.strays++
        continue
      }
      const id = Number(m[1])
      if (!this.checked) {
        const parsed = JSON.parse(line) as { meta: { id: string }; data: { id: string } }
        if (parsed.data.id !== parsed.meta.id) throw new Error(`meta.id ${parsed.meta.id} is not the post's id ${parsed.data.id}`)
        this.checked = true
      }
      this.ids.push(id)
      this.at.push(now)
    }
  }

  close(): void {
    this.request?.destroy()
    this.request = null
  }
}

function call(port: number, method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    const headers: Record<string, string | number> = { authorization: `Bearer ${token}` }
    if (text !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let out = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (out += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(out) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(text)
  })
}

/** LANES closed-loop creators for `ms`; each answered post is pushed to `posts`. */
async function createFor(
  port: number,
  tokens: string[],
  ms: number,
  posts: PostRecord[],
  tick?: () => void,
): Promise<{ created: number; errors: number; seconds: number; latencies: Latencies; firstError: string }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: LANES })
  const latencies = new Latencies()
  let errors = 0
  let firstError = ''
  let n = 0
  const began = performance.now()
  const deadline = began + ms
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const k = n++
      const body = JSON.stringify({ text: `app stream bench post ${k} about the morning train and #coffee` })
      const sentAt = performance.now()
      const fail = (message: string) => {
        if (errors++ === 0) firstError = message
        resolve()
      }
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/stream/0/posts',
          agent,
          headers: { authorization: `Bearer ${tokens[k % tokens.length]}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let out = ''
          res.setEncoding('utf8')
          res.on('data', (c: string) => (out += c))
          res.on('error', (err) => fail(err.message))
          res.on('end', () => {
            const answeredAt = performance.now()
            if (res.statusCode !== 200) return fail(`POST /posts: ${res.statusCode} ${out.slice(0, 200)}`)
            posts.push({ id: Number((JSON.parse(out) as { data: { id: string } }).data.id), sentAt, answeredAt })
            latencies.add(answeredAt - sentAt)
            resolve()
          })
        },
      )
      req.on('error', (err) => fail(err.message))
      req.end(body)
    })
  const lane = async () => {
    while (performance.now() < deadline) await one()
  }
  const ticker = tick ? setInterval(tick, 250) : null
  try {
    await Promise.all(Array.from({ length: LANES }, lane))
  } finally {
    if (ticker) clearInterval(ticker)
    agent.destroy()
  }
  const seconds = (performance.now() - began) / 1000
  return { created: latencies.count, errors, seconds, latencies, firstError }
}

interface StreamResult {
  deliveredPerSecond: number
  /** Create-to-delivery of the window's posts, from the POST's answer, clamped at 0. */
  latencies: number[]
  early: number
  peak: number
  atEnd: number
  drainMs: number
  lost: number
  repeated: number
  foreign: number
  strays: number
  controls: string[]
}

interface PhaseResult {
  rate: number
  postP50: number
  postP99: number
  errors: number
  /** Server CPU (user + system, every thread) per create in the window, µs. */
  cpuPerCreate: number
  serverCpuUse: number
  benchCpuUse: number
  posts: number
  streams: StreamResult[]
}

/** One phase: `streams` app streams open (0 for the baseline), a warm-up, then the measured window. */
async function phase(ctx: BenchContext, server: Running, seeded: Seeded, label: string, streams: number): Promise<PhaseResult> {
  const consumers: Consumer[] = []
  const port = server.port
  const pid = server.child.pid as number
  try {
    for (let s = 0; s < streams; s++) {
      const made = await call(port, 'POST', '/stream/0/streams', seeded.appToken, {
        object_types: ['post'],
        type: 'long_poll',
        key: `bench-${s}`,
        filter: FILTER,
      })
      if (made.status !== 200) throw new Error(`POST /streams: ${made.status} ${JSON.stringify(made.body.meta)}`)
      if (made.body.data.filter?.clauses?.length !== 5) throw new Error('the stream was made without its five-clause filter')
      const consumer = new Consumer()
      await consumer.open(made.body.data.endpoint as string)
      consumers.push(consumer)
    }
    const posts: PostRecord[] = []
    const warm = await createFor(port, seeded.tokens, scaled(ctx, 1000, 500), posts)
    const from = posts.length
    const windowStart = performance.now()
    const serverCpuBefore = cpuSecondsOf(pid)
    const benchCpuBefore = process.cpuUsage()
    // The backlog of each stream, sampled every 250 ms: posts answered minus events arrived.
    const peak = new Array<number>(streams).fill(0)
    const backlogs = () => consumers.map((c) => Math.max(0, posts.length - c.ids.length))
    const sample = () => backlogs().forEach((b, i) => (peak[i] = Math.max(peak[i], b)))
    const window = await createFor(port, seeded.tokens, scaled(ctx, 6000, 2000), posts, streams > 0 ? sample : undefined)
    const windowEnd = performance.now()
    const serverCpu = cpuSecondsOf(pid) - serverCpuBefore
    const benchCpu = process.cpuUsage(benchCpuBefore)
    const atEnd = backlogs()
    sample()
    const errors = warm.errors + window.errors
    if (errors > 0) ctx.log(`${label}: ${errors} POSTs failed, the first with ${warm.firstError || window.firstError}`)
    const result: PhaseResult = {
      rate: window.created / window.seconds,
      postP50: window.latencies.percentile(50),
      postP99: window.latencies.percentile(99),
      errors,
      cpuPerCreate: (serverCpu * 1e6) / window.created,
      serverCpuUse: (100 * serverCpu) / window.seconds,
      benchCpuUse: (benchCpu.user + benchCpu.system) / 1e4 / window.seconds,
      posts: posts.length,
      streams: [],
    }

    // Drain: wait until every stream got every post (or nothing arrives for 5 s).
    const drainDeadline = performance.now() + 60_000
    const drainedAt = new Array<number>(streams).fill(NaN)
    let lastSeen = consumers.reduce((n, c) => n + c.ids.length, 0)
    let quietSince = performance.now()
    while (streams > 0) {
      consumers.forEach((c, i) => {
        if (Number.isNaN(drainedAt[i]) && c.ids.length >= posts.length) drainedAt[i] = c.at[c.at.length - 1] ?? windowEnd
      })
      if (drainedAt.every((d) => !Number.isNaN(d)) || performance.now() > drainDeadline) break
      await sleep(20)
      const seen = consumers.reduce((n, c) => n + c.ids.length, 0)
      if (seen !== lastSeen) {
        lastSeen = seen
        quietSince = performance.now()
      } else if (performance.now() - quietSince > 5000) break
    }

    const byId = new Map(posts.map((p) => [p.id, p]))
    const measured = new Set(posts.slice(from).map((p) => p.id))
    for (let i = 0; i < streams; i++) {
      const c = consumers[i]
      const latencies: number[] = []
      let early = 0
      let inWindow = 0
      const counts = new Map<number, number>()
      for (let k = 0; k < c.ids.length; k++) {
        const id = c.ids[k]
        counts.set(id, (counts.get(id) ?? 0) + 1)
        if (c.at[k] >= windowStart && c.at[k] <= windowEnd) inWindow++
        const p = byId.get(id)
        if (!p || !measured.has(id)) continue
        const ms = c.at[k] - p.answeredAt
        if (ms < 0) early++
        latencies.push(Math.max(0, ms))
      }
      let lost = 0
      let repeated = 0
      for (const p of posts) {
        const n = counts.get(p.id) ?? 0
        if (n === 0) lost++
        if (n > 1) repeated += n - 1
      }
      let foreign = 0
      for (const id of counts.keys()) if (!byId.has(id)) foreign++
      result.streams.push({
        deliveredPerSecond: (inWindow / (windowEnd - windowStart)) * 1000,
        latencies,
        early,
        peak: peak[i],
        atEnd: atEnd[i],
        drainMs: Number.isNaN(drainedAt[i]) ? NaN : Math.max(0, drainedAt[i] - windowEnd),
        lost,
        repeated,
        foreign,
        strays: c.strays,
        controls: c.controls,
      })
    }
    const first = result.streams[0]
    ctx.log(
      // The window's place in the server's life, to find it in a --cpu-prof profile.
      `${label} (window ${((windowStart - server.began) / 1000).toFixed(1)}–${((windowEnd - server.began) / 1000).toFixed(1)} s after the server's spawn): ${result.rate.toFixed(0)} creates/s, POST p99 ${result.postP99.toFixed(0)} ms, server CPU ${result.cpuPerCreate.toFixed(0)} µs per create` +
        (first
          ? `; stream 1: ${first.deliveredPerSecond.toFixed(0)} events/s, p99 ${percentile(first.latencies, 99).toFixed(1)} ms, backlog peak ${first.peak} end ${first.atEnd}, drained in ${first.drainMs.toFixed(0)} ms, lost ${first.lost}, repeated ${first.repeated}`
          : ''),
    )
    return result
  } finally {
    for (const c of consumers) c.close()
    if (streams > 0) {
      const removed = await call(port, 'DELETE', '/stream/0/streams', seeded.appToken)
      if (removed.status !== 200) throw new Error(`DELETE /streams: ${removed.status}`)
    }
    // Lets the server settle (closed sockets, a queue save) before the next phase.
    await sleep(1000)
  }
}

function percentile(values: readonly number[], p: number): number {
  const l = new Latencies()
  for (const v of values) l.add(v)
  return l.percentile(p)
}

const median = (values: readonly number[]): number => percentile(values, 50)
const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0)

/** What the report says of one configuration over its rounds. */
function configMeasures(label: string, phases: PhaseResult[]): Measure[] {
  const out: Measure[] = [
    { name: `${label}: creates/s, median of ${phases.length} windows (${LANES} in flight)`, value: median(phases.map((p) => p.rate)), unit: 'posts/s' },
    { name: `${label}: creates/s, slowest window`, value: Math.min(...phases.map((p) => p.rate)), unit: 'posts/s' },
    { name: `${label}: creates/s, fastest window`, value: Math.max(...phases.map((p) => p.rate)), unit: 'posts/s' },
    { name: `${label}: POST /posts p50 (median of the windows)`, value: median(phases.map((p) => p.postP50)), unit: 'ms' },
    { name: `${label}: POST /posts p99 (median of the windows)`, value: median(phases.map((p) => p.postP99)), unit: 'ms' },
    { name: `${label}: POST errors`, value: sum(phases.map((p) => p.errors)), unit: 'requests' },
    { name: `${label}: server CPU per create (user + system, median)`, value: median(phases.map((p) => p.cpuPerCreate)), unit: 'µs' },
    { name: `${label}: server CPU use (median)`, value: median(phases.map((p) => p.serverCpuUse)), unit: '% of a core' },
    { name: `${label}: load generator + consumers CPU use (median)`, value: median(phases.map((p) => p.benchCpuUse)), unit: '% of a core' },
  ]
  const streams = phases.flatMap((p) => p.streams)
  if (streams.length === 0) return out
  const perStream = phases[0].streams.length
  const p99s = streams.map((s) => percentile(s.latencies, 99))
  const all = streams.flatMap((s) => s.latencies)
  out.push(
    {
      name: `${label}: events delivered/s per stream (median of the streams' windows)`,
      value: median(streams.map((s) => s.deliveredPerSecond)),
      unit: 'events/s',
    },
    {
      name: `${label}: events delivered/s, all ${perStream} streams together (median window)`,
      value: median(phases.map((p) => sum(p.streams.map((s) => s.deliveredPerSecond)))),
      unit: 'events/s',
    },
    { name: `${label}: latency p50 (from POST answer, every stream and window)`, value: percentile(all, 50), unit: 'ms' },
    { name: `${label}: latency p99 (from POST answer, every stream and window)`, value: percentile(all, 99), unit: 'ms' },
    { name: `${label}: latency p99, worst stream window`, value: Math.max(...p99s), unit: 'ms' },
    { name: `${label}: latency max`, value: percentile(all, 100), unit: 'ms' },
    { name: `${label}: events that arrived before their POST's answer (counted as 0 ms)`, value: sum(streams.map((s) => s.early)), unit: 'events' },
    {
      name: `${label}: backlog, largest seen (posts answered − events arrived, sampled every 250 ms)`,
      value: Math.max(...streams.map((s) => s.peak)),
      unit: 'events',
    },
    { name: `${label}: backlog at a window's end, largest`, value: Math.max(...streams.map((s) => s.atEnd)), unit: 'events' },
    { name: `${label}: time to drain it after the window, longest`, value: Math.max(...streams.map((s) => s.drainMs)), unit: 'ms' },
    { name: `${label}: posts created while streams were open, each expected once on every stream`, value: sum(phases.map((p) => p.posts)), unit: 'posts' },
    { name: `${label}: posts lost (summed over streams)`, value: sum(streams.map((s) => s.lost)), unit: 'posts' },
    { name: `${label}: posts repeated (summed over streams)`, value: sum(streams.map((s) => s.repeated)), unit: 'events' },
    { name: `${label}: events of posts not created in their phase`, value: sum(streams.map((s) => s.foreign)), unit: 'events' },
    { name: `${label}: lines that were no post event`, value: sum(streams.map((s) => s.strays)), unit: 'lines' },
    { name: `${label}: control messages (warnings, disconnects)`, value: sum(streams.map((s) => s.controls.length)), unit: 'messages' },
  )
  return out
}

/** Each round's rate against the mean of the baselines right before and after it, in %: median, and the range. */
function costMeasures(label: string, rounds: PhaseResult[], baselines: PhaseResult[]): Measure[] {
  const costs = rounds.map((r, i) => (100 * (r.rate - (baselines[i].rate + baselines[i + 1].rate) / 2)) / ((baselines[i].rate + baselines[i + 1].rate) / 2))
  const cpu = rounds.map(
    (r, i) =>
      (100 * (r.cpuPerCreate - (baselines[i].cpuPerCreate + baselines[i + 1].cpuPerCreate) / 2)) /
      ((baselines[i].cpuPerCreate + baselines[i + 1].cpuPerCreate) / 2),
  )
  return [
    { name: `${label}: create rate vs the baselines around it (median of ${rounds.length} rounds)`, value: median(costs), unit: '%' },
    { name: `${label}: create rate vs the baselines around it, best round`, value: Math.max(...costs), unit: '%' },
    { name: `${label}: create rate vs the baselines around it, worst round`, value: Math.min(...costs), unit: '%' },
    { name: `${label}: server CPU per create vs the baselines around it (median)`, value: median(cpu), unit: '%' },
  ]
}

export const appStreams: Scenario = {
  name: 'app-streams',
  description: `svc serve over ${USERS} users who authorized one app: durable POST /posts at ${LANES} in flight with no app stream, one, and five app streams (a five-clause filter each, a consumer each), in ${ROUNDS} interleaved rounds; creates/s, events/s delivered, create-to-delivery latency, backlog and exactly-once`,

  async prepare(ctx) {
    const dir = join(ctx.workDir, 'data')
    const seeded = await seedInstance(dir, { users: USERS, posts: 2000, tokens: USERS, follows: 20, stars: 200 })
    const { domain, store } = await openWithStore(dir, { config: { rate_limits: { enabled: false } as never } })
    const app = await store.read.apps.get(1)
    if (app?.name !== 'Bench Client') throw new Error("the seeded instance's app is not app 1")
    const { access_token } = await domain.auth.tokens.issueAppToken(app)
    await domain.close()
    const out: Seeded = { tokens: seeded.people.map((p) => p.token), appToken: access_token, seconds: seeded.seconds }
    writeFileSync(join(ctx.workDir, 'seeded.json'), JSON.stringify(out))
    ctx.log(`seeded ${USERS} users in ${seeded.seconds.toFixed(1)} s`)
  },

  async run(ctx) {
    const seeded = JSON.parse(readFileSync(join(ctx.workDir, 'seeded.json'), 'utf8')) as Seeded
    const prof = process.env.BENCH_CPU_PROF ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []
    let server: Running | null = null
    try {
      server = await start([...prof, 'bin/svc.js', 'serve', '--data-dir', join(ctx.workDir, 'data'), '--port', '0', '--host', '127.0.0.1'], {
        SVC_RATE_LIMIT: 'off',
      })
      const port = server.port
      await placesReady(port, seeded.tokens[0])
      const out: Measure[] = [
        { name: 'users (each authorized the app, one token each)', value: seeded.tokens.length, unit: 'users' },
        { name: 'creates in flight', value: LANES, unit: 'requests' },
        { name: 'filter clauses per stream (exclude_any, none ever holds)', value: FILTER.clauses.length, unit: 'clauses' },
      ]
      // The server's JIT and the store's caches warm up first, unmeasured: the first seconds of creates are much slower than the rest.
      const warmed = await createFor(port, seeded.tokens, scaled(ctx, 10_000, 2000), [])
      ctx.log(`warm-up: ${(warmed.created / warmed.seconds).toFixed(0)} creates/s`)
      const loadBefore = loadavg()[0]
      const baselines = [await phase(ctx, server, seeded, '(a) no app stream, round 1', 0)]
      const ones: PhaseResult[] = []
      const fives: PhaseResult[] = []
      for (let r = 1; r <= ROUNDS; r++) {
        ones.push(await phase(ctx, server, seeded, `(b) one app stream, round ${r}`, 1))
        fives.push(await phase(ctx, server, seeded, `(c) five app streams, round ${r}`, 5))
        baselines.push(await phase(ctx, server, seeded, `(a) no app stream, round ${r + 1}`, 0))
      }
      // Each round's (b) and (c) lie between two baselines, the one before (b) and the one after (c): the machine's drift over a round is shared out evenly.
      out.push(
        ...configMeasures('(a) no app stream', baselines),
        ...configMeasures('(b) one app stream', ones),
        ...costMeasures('(b) one app stream', ones, baselines),
        ...configMeasures('(c) five app streams', fives),
        ...costMeasures('(c) five app streams', fives, baselines),
        { name: '(a) drift: last baseline vs the first', value: (100 * (baselines[ROUNDS].rate - baselines[0].rate)) / baselines[0].rate, unit: '%' },
        { name: 'load average (1 min) before the first baseline, whole machine', value: loadBefore, unit: '' },
        { name: 'load average (1 min) after the last, whole machine', value: loadavg()[0], unit: '' },
      )
      return out
    } finally {
      if (server) await stop(server).catch(() => undefined)
    }
  },
}
