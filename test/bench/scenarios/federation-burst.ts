/**
 * An incoming burst while local users post and read: one `svc serve` with
 * 20 local users following each other, and in this process 100 remote
 * Misskey-like instances (test/fixtures/misskey-peer.ts) of five users
 * each, who follow a local user of their own (so svc knows them and has
 * their keys, as it would the regulars of a real burst). Three windows of
 * the same local load (posts at a fixed rate, readers of the unified stream
 * at a fixed concurrency; local-load.ts): before, during the burst, after.
 * The burst is 10,000 activities signed beforehand (burst-activities.ts:
 * Creates mentioning the local users, Likes and Announces of their posts,
 * Deletes of Notes sent before), every server sending its share a few at a
 * time as fast as svc answers, a 429 again after its Retry-After. Its window lasts until every activity has
 * been processed (the remote accounts' counts say so), at least as long as
 * the others. Reported side by side, with the ratios the issue sets at 20 %.
 *
 * `BENCH_BURST_ALONE=1` sends the burst with no local load and no other
 * window, and reports the server's CPU time per activity (what one costs,
 * 429s and GC included): the measure to compare changes to federation's
 * cost by. `BENCH_CPU_PROF=<dir>` keeps the server's CPU profile of the
 * burst's window there (`burst.cpuprofile`, for DevTools).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../../fixtures/free-port.js'
import { misskeyPeer, MISSKEY_CONTEXT, sendSigned, type MisskeyPeer, type PeerActor } from '../../fixtures/misskey-peer.js'
import { openWithStore } from '../../fixtures/open-store.js'
import { waitUntil } from '../../fixtures/wait.js'
import { countsAfter, doomedName, DELETER, mentioningCreate, planOf, REMOTE_NAMES, signedBurst, type LocalSide } from '../burst-activities.js'
import { Inspector } from '../layer-profile.js'
import { Latencies } from '../latencies.js'
import type { LocalLoadResult } from '../local-load.js'
import { localLoadApart } from '../local-load-apart.js'
import { scaled, type Measure, type Scenario } from '../scenario.js'
import { megabytesOf, start, stop } from './api-at-scale.js'
import { cpuSecondsOf } from './app-streams.js'
import { pool } from './federation.js'

const LOCAL_USERS = 20
const POSTS_EACH = 5
const POSTS_PER_SECOND = 20
const READERS = 8
/** Requests in flight from each remote server during the burst. */
const IN_FLIGHT_PER_SERVER = 2
/** How often the remote accounts' counts are read, in every window alike. */
const POLL_MS = 500

/** `send` again while it answers 429, as Mastodon and Misskey do: after its Retry-After (a backoff without one), spread a little. */
async function retrying<T extends { status: number; retryAfter?: string }>(send: () => Promise<T>, onRetry: () => void = () => {}): Promise<T> {
  let answer = await send()
  for (let tries = 1; answer.status === 429; tries++) {
    onRetry()
    const seconds = Number(answer.retryAfter) > 0 ? Number(answer.retryAfter) : Math.min(60, 2 ** tries)
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000 * (1 + Math.random() / 2)))
    answer = await send()
  }
  return answer
}

/** A process's CPU seconds by thread (Node 20 leaves its threads unnamed: by id). */
function threadCpuOf(pid: number): Map<string, number> {
  const out = new Map<string, number>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.set(tid === String(pid) ? 'main' : tid, cpuSecondsOf(pid, Number(tid)))
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return out
}

interface Seeded {
  tokens: string[]
  hostId: number
  local: Omit<LocalSide, 'site'>
}

export const federationBurst: Scenario = {
  name: 'federation-burst',
  description: '10,000 activities from 100 Misskey-like instances arriving while 20 local users post (20/s) and read their unified streams',
  async prepare(ctx) {
    const { domain } = await openWithStore(join(ctx.workDir, 'data'), { config: { rate_limits: { enabled: false } as never } })
    const { app } = await domain.auth.apps.create({ name: 'Bench Client' })
    const scopes = ['basic', 'stream', 'write_post', 'follow']
    const host = await domain.users.accounts.create({ username: 'host', password: 'correct horse battery', name: 'Host' })
    const users = []
    const tokens: string[] = []
    for (let i = 0; i < LOCAL_USERS; i++) {
      const user = await domain.users.accounts.create({ username: `local${i}`, password: 'correct horse battery', name: `Local ${i}` })
      users.push(user)
      tokens.push((await domain.auth.tokens.issueUserToken(app, user, scopes)).access_token)
    }
    for (const a of users) for (const b of users) if (a.id !== b.id) await domain.relations.core.follow({ user: a }, String(b.id))
    const posts: LocalSide['posts'] = []
    for (let n = 0; n < POSTS_EACH; n++) {
      for (const user of users) posts.push({ id: (await domain.posts.core.create({ user }, { text: `local post ${n} before the burst` })).id, userId: user.id })
    }
    await domain.close()
    const seeded: Seeded = { tokens, hostId: host.id, local: { users: users.map((u) => ({ id: u.id, username: u.username })), posts } }
    writeFileSync(join(ctx.workDir, 'seeded.json'), JSON.stringify(seeded))
  },
  async run(ctx) {
    const seeded = JSON.parse(readFileSync(join(ctx.workDir, 'seeded.json'), 'utf8')) as Seeded
    const servers = scaled(ctx, 100, 2)
    const activities = scaled(ctx, 10_000, 100)
    const plan = planOf(Math.round(activities / servers), seeded.local.posts.length)
    const windowMs = scaled(ctx, 30_000, 3000)
    const port = await freePort()
    const site = `http://127.0.0.1:${port}`
    const local: LocalSide = { site, ...seeded.local }
    const alone = process.env.BENCH_BURST_ALONE === '1'
    const profileDir = process.env.BENCH_CPU_PROF
    const server = await start(
      [
        ...(profileDir ? ['--inspect=127.0.0.1:0'] : []),
        'bin/svc.js',
        'serve',
        '--data-dir',
        join(ctx.workDir, 'data'),
        '--port',
        String(port),
        '--host',
        '127.0.0.1',
        '--public-url',
        site,
      ],
      { SVC_RATE_LIMIT: 'off', SVC_FEDERATION_ALLOW_PRIVATE: '1' },
    )
    const pid = server.child.pid!
    const teardowns: (() => unknown)[] = []
    try {
      const api = async (path: string) => {
        const res = await fetch(`${site}/stream/0/${path}`, { headers: { authorization: `Bearer ${seeded.tokens[0]}` } })
        if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`)
        return ((await res.json()) as { data: unknown }).data
      }
      const remotes: { peer: MisskeyPeer; actors: Record<string, PeerActor> }[] = []
      for (let s = 0; s < servers; s++) {
        const peer = await misskeyPeer({ teardown: (fn) => teardowns.push(fn) })
        const actors = Object.fromEntries(await Promise.all(REMOTE_NAMES.map(async (name) => [name, await peer.actor(name)] as const)))
        remotes.push({ peer, actors })
      }
      const everyone = remotes.flatMap(({ peer, actors }) => Object.values(actors).map((actor) => ({ peer, actor })))

      // Set-up, not measured: every remote user follows host; the deleters post what they delete in the burst.
      const hostActor = `${site}/ap/users/${seeded.hostId}`
      await pool(everyone, servers, async ({ peer, actor }) => {
        const follow = { '@context': MISSKEY_CONTEXT, id: `${peer.origin}/follows/${actor.username}`, type: 'Follow', actor: actor.id, object: hostActor }
        const { status } = await retrying(() => peer.post(actor, `${hostActor}/inbox`, follow))
        if (status !== 202) throw new Error(`a Follow answered ${status}`)
      })
      await waitUntil(() => everyone.every(({ peer, actor }) => peer.following.get(actor.id)?.has(hostActor)), 'every Accept verified', 300_000)
      await pool(remotes, servers, async ({ peer, actors }) => {
        for (let k = 0; k < plan.Delete; k++) {
          const deleter = actors[DELETER]
          const doomed = mentioningCreate(local, deleter, doomedName(k), local.users[k % local.users.length])
          const { status } = await retrying(() => peer.post(deleter, `${site}/ap/inbox`, doomed))
          if (status !== 202) throw new Error(`a Create before the burst answered ${status}`)
        }
      })
      const ids = (await api(`users/${seeded.hostId}/followers/ids`)) as string[]
      if (ids.length !== everyone.length) throw new Error(`host has ${ids.length} followers, not ${everyone.length}`)
      const counts = async () => {
        const found: { username: string; counts: { posts: number; stars: number } }[] = []
        for (let i = 0; i < ids.length; i += 200) found.push(...((await api(`users?ids=${ids.slice(i, i + 200).join(',')}`)) as typeof found))
        return found
      }
      const beforeBurst = Object.fromEntries(REMOTE_NAMES.map((name) => [name, { posts: name === DELETER ? plan.Delete : 0, stars: 0 }]))
      const reached = (target: Record<string, { posts: number; stars: number }>) => async () =>
        (await counts()).every(({ username, counts: c }) => {
          const want = target[username.split('@')[0]]
          return c.posts === want.posts && c.stars === want.stars
        })
      await waitUntil(reached(beforeBurst), 'every Create before the burst a post', 300_000)
      ctx.log(`${servers} instances of ${REMOTE_NAMES.length} users follow host; ${servers * plan.Delete} Notes posted to delete`)

      let began = performance.now()
      const burst = await Promise.all(remotes.map(({ actors }, s) => signedBurst(s, actors, plan, local, `${site}/ap/inbox`)))
      const total = burst.reduce((n, b) => n + b.length, 0)
      ctx.log(`${total} activities signed in ${((performance.now() - began) / 1000).toFixed(1)} s: ${JSON.stringify(plan)} per instance`)

      // The windows: the same local load, and the same poll of the remote accounts' counts, in each.
      const after = reached(countsAfter(plan))
      let processedAt = 0
      const window = async (label: string, work?: () => Promise<void>) => {
        const from = performance.now()
        const cpuFrom = { server: cpuSecondsOf(pid), main: cpuSecondsOf(pid, pid), bench: process.cpuUsage() }
        let polling = true
        const poll = (async () => {
          while (polling) {
            const done = await after()
            if (work && done && processedAt === 0) processedAt = performance.now()
            await new Promise((resolve) => setTimeout(resolve, POLL_MS))
          }
        })()
        const sending = work?.()
        const load = await localLoadApart({
          port,
          tokens: seeded.tokens,
          postsPerSecond: POSTS_PER_SECOND,
          readers: READERS,
          done: () => performance.now() - from >= windowMs && (!work || processedAt > 0),
        })
        polling = false
        await Promise.all([poll, sending])
        const seconds = (performance.now() - from) / 1000
        const bench = process.cpuUsage(cpuFrom.bench)
        const cpu = {
          server: (100 * (cpuSecondsOf(pid) - cpuFrom.server)) / seconds,
          main: (100 * (cpuSecondsOf(pid, pid) - cpuFrom.main)) / seconds,
          bench: (bench.user + bench.system) / 1e4 / seconds,
          // The machine's, other work on it included: runs beside other test suites show here.
          load: loadavg()[0],
        }
        ctx.log(
          `${label}: ${load.seconds.toFixed(1)} s, POST p50 ${load.posts.percentile(50).toFixed(1)} ms p99 ${load.posts.percentile(99).toFixed(1)} ms, ` +
            `unified ${load.readsPerSecond.toFixed(0)}/s p99 ${load.reads.percentile(99).toFixed(1)} ms; CPU server ${cpu.server.toFixed(0)} % (main thread ${cpu.main.toFixed(0)} %), bench ${cpu.bench.toFixed(0)} %; load ${cpu.load.toFixed(1)}`,
        )
        return { load, cpu }
      }

      const answers: number[] = []
      const answered = new Latencies()
      let retried = 0
      let lastAnswer = 0
      const sendBurst = async () => {
        await Promise.all(
          burst.map((posts) =>
            pool(posts, IN_FLIGHT_PER_SERVER, async ({ post, resign }) => {
              const sent = performance.now()
              let first = true
              // The first try as signed beforehand, a retry signed anew (a signature's date is good for an hour only).
              const answer = await retrying(
                async () => sendSigned(first ? ((first = false), post) : await resign()),
                () => retried++,
              )
              answers.push(answer.status)
              answered.add(performance.now() - sent)
              lastAnswer = performance.now()
            }),
          ),
        )
      }
      /** `work` with the server's main thread profiled when BENCH_CPU_PROF says where to keep the profile. */
      const profiled = async <T>(work: () => Promise<T>): Promise<T> => {
        if (!profileDir || !server.inspector) return work()
        const inspector = await Inspector.connect(server.inspector)
        try {
          return (await inspector.profile(work, join(profileDir, 'burst.cpuprofile'))).result
        } finally {
          inspector.close()
        }
      }

      if (alone) {
        const cpuFrom = { server: cpuSecondsOf(pid), main: cpuSecondsOf(pid, pid) }
        const threadsFrom = threadCpuOf(pid)
        began = performance.now()
        await profiled(async () => {
          await sendBurst()
          // Polled as in the windows, not waitUntil's every 10 ms: each poll is requests the server's CPU time would count.
          while (!(await after())) await new Promise((resolve) => setTimeout(resolve, POLL_MS))
        })
        const seconds = (performance.now() - began) / 1000
        const perActivity = (s: number) => (1000 * s) / total
        const server_ = perActivity(cpuSecondsOf(pid) - cpuFrom.server)
        const main = perActivity(cpuSecondsOf(pid, pid) - cpuFrom.main)
        const refused = answers.filter((s) => s !== 202).length
        const threads = [...threadCpuOf(pid)]
          .map(([name, s]) => [name, s - (threadsFrom.get(name) ?? 0)] as const)
          .filter(([, s]) => s > 0)
          .sort((x, y) => y[1] - x[1])
          .slice(0, 6)
        ctx.log(
          `burst alone, server CPU by thread (the busiest): ${threads.map(([name, s]) => `${name} ${perActivity(s).toFixed(2)} ms`).join(', ')} an activity`,
        )
        ctx.log(
          `burst alone: ${total} processed in ${seconds.toFixed(1)} s, server CPU ${server_.toFixed(2)} ms (main thread ${main.toFixed(2)} ms) an activity`,
        )
        return [
          { name: 'remote instances x users; activities each', value: servers, unit: `x ${REMOTE_NAMES.length}; ${JSON.stringify(plan)}` },
          { name: 'burst alone: until every activity processed', value: seconds, unit: `s (${(total / seconds).toFixed(1)} activities/s)` },
          { name: 'burst alone: server CPU per activity (main thread)', value: server_, unit: `ms (${main.toFixed(2)} ms)` },
          { name: 'burst alone: 429s sent again after Retry-After', value: retried, unit: `(${refused} refused in the end)` },
        ]
      }

      // The same load once first, unreported: a cold server (its compiled code, its caches) made `before` the slowest window of the three.
      await window('warming up (not reported)')
      const before = await window('before the burst')
      began = performance.now()
      const during = await profiled(() => window('during the burst', sendBurst))
      const answeredIn = (lastAnswer - began) / 1000
      const processedIn = (processedAt - began) / 1000
      const refused = answers.filter((s) => s !== 202).length
      ctx.log(
        `burst: ${total} answered in ${answeredIn.toFixed(1)} s (${refused} not 202; ${retried} 429s sent again), all processed after ${processedIn.toFixed(1)} s`,
      )
      const afterwards = await window('after the burst')

      const side = (label: string, w: { load: LocalLoadResult; cpu: Record<string, number> }): Measure[] => [
        { name: `${label}: window`, value: w.load.seconds, unit: 's' },
        { name: `${label}: POST /posts p50`, value: w.load.posts.percentile(50), unit: 'ms' },
        { name: `${label}: POST /posts p99`, value: w.load.posts.percentile(99), unit: 'ms' },
        { name: `${label}: POST /posts answered`, value: w.load.posts.count / w.load.seconds, unit: `posts/s (${w.load.postErrors} errors)` },
        { name: `${label}: unified stream reads`, value: w.load.readsPerSecond, unit: `reads/s (${w.load.readErrors} errors)` },
        { name: `${label}: unified stream p99`, value: w.load.reads.percentile(99), unit: 'ms' },
        { name: `${label}: server CPU (main thread)`, value: w.cpu.server, unit: `% (${w.cpu.main.toFixed(0)} %)` },
        { name: `${label}: bench process CPU`, value: w.cpu.bench, unit: '%' },
        { name: `${label}: load average (1 min) at its end, whole machine`, value: w.cpu.load, unit: '' },
      ]
      return [
        { name: 'remote instances x users; activities each', value: servers, unit: `x ${REMOTE_NAMES.length}; ${JSON.stringify(plan)}` },
        ...side('before', before),
        ...side('during', during),
        ...side('after', afterwards),
        { name: 'POST /posts p99, during / before', value: during.load.posts.percentile(99) / before.load.posts.percentile(99), unit: '×' },
        { name: 'unified stream reads/s, during / before', value: during.load.readsPerSecond / before.load.readsPerSecond, unit: '×' },
        { name: 'burst answered (202)', value: total / answeredIn, unit: `activities/s (${refused} refused)` },
        { name: 'burst answer p50 / p99 (from the first try)', value: answered.percentile(50), unit: `ms / ${answered.percentile(99).toFixed(0)} ms` },
        { name: 'burst: 429s sent again after Retry-After', value: retried, unit: '' },
        { name: 'burst: until every activity processed', value: processedIn, unit: `s (${(total / processedIn).toFixed(0)} activities/s)` },
        { name: 'server RSS after the runs', value: megabytesOf(pid, 'VmRSS'), unit: 'MB' },
      ]
    } finally {
      await stop(server)
      for (const fn of teardowns) await fn()
    }
  },
}
