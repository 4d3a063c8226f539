/**
 * Federation at a thousand followers: one `svc serve` under its public URL,
 * and in this process 50 remote instances (each an HTTP server on a port of
 * its own, the Misskey-like peer of test/fixtures/misskey-peer.ts, signing
 * and verifying with Misskey's library) of 20 users each. All 1,000 follow
 * alice with signed Follows (the time until every Accept has been verified
 * at its instance is reported). Then alice posts through the API: the time
 * until every instance's shared inbox has the Create (one delivery per
 * instance, 50 in all), per post. Then the remote users send signed Creates
 * of Notes mentioning alice, one in flight per instance, signed beforehand
 * so that only svc's work is timed: the rate svc answers them (202, after
 * verifying each signature) and the rate they become posts. Beside it, the
 * floor: the draft signature verifications per second Misskey's library
 * does in one process on this machine.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseRequestSignature, verifyDraftSignature } from '@misskey-dev/node-http-message-signatures'
import { freePort } from '../../fixtures/free-port.js'
import { misskeyPeer, sendSigned, signPost, MISSKEY_CONTEXT, PUBLIC, type MisskeyPeer, type PeerActor, type SignedPost } from '../../fixtures/misskey-peer.js'
import { openWithStore } from '../../fixtures/open-store.js'
import { waitUntil } from '../../fixtures/wait.js'
import { Latencies } from '../latencies.js'
import { scaled, type BenchContext, type Scenario } from '../scenario.js'
import { megabytesOf, start, stop } from './api-at-scale.js'

interface Seeded {
  token: string
  userId: number
}

const seededOf = (ctx: BenchContext): Seeded => JSON.parse(readFileSync(join(ctx.workDir, 'seeded.json'), 'utf8')) as Seeded

/** Runs `work` on every item, `inFlight` at a time. */
export async function pool<T>(items: T[], inFlight: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(inFlight, items.length) }, async () => {
      while (next < items.length) {
        const i = next++
        await work(items[i], i)
      }
    }),
  )
}

interface Remote {
  peer: MisskeyPeer
  actors: PeerActor[]
}

/** Signature verifications per second by Misskey's library on one of the follows' requests, for `ms`. */
async function verifyFloor(post: SignedPost, publicKeyPem: string, ms: number): Promise<number> {
  const request = { url: post.url.pathname, method: 'POST', headers: post.headers as Record<string, string> }
  const started = performance.now()
  let n = 0
  while (performance.now() - started < ms) {
    const parsed = parseRequestSignature(request)
    if (parsed.version !== 'draft' || !(await verifyDraftSignature(parsed.value, publicKeyPem))) throw new Error('the floor did not verify')
    n++
  }
  return n / ((performance.now() - started) / 1000)
}

export const federation: Scenario = {
  name: 'federation',
  description: 'alice followed by 1,000 remote users on 50 Misskey-like instances (one process): Follows, fan-out of her posts, incoming signed Creates',
  async prepare(ctx) {
    const { domain } = await openWithStore(join(ctx.workDir, 'data'), { config: { rate_limits: { enabled: false } as never } })
    const { app } = await domain.auth.apps.create({ name: 'Bench Client' })
    const alice = await domain.users.accounts.create({ username: 'alice', password: 'correct horse battery', name: 'Alice' })
    const { access_token } = await domain.auth.tokens.issueUserToken(app, alice, ['basic', 'stream', 'write_post', 'follow'])
    await domain.close()
    writeFileSync(join(ctx.workDir, 'seeded.json'), JSON.stringify({ token: access_token, userId: alice.id } satisfies Seeded))
  },
  async run(ctx) {
    const { token, userId } = seededOf(ctx)
    const instances = scaled(ctx, 50, 2)
    const perInstance = scaled(ctx, 20, 2)
    const followers = instances * perInstance
    const port = await freePort()
    const site = `http://127.0.0.1:${port}`
    const server = await start(
      ['bin/svc.js', 'serve', '--data-dir', join(ctx.workDir, 'data'), '--port', String(port), '--host', '127.0.0.1', '--public-url', site],
      {
        SVC_RATE_LIMIT: 'off',
        SVC_FEDERATION_ALLOW_PRIVATE: '1',
      },
    )
    const teardowns: (() => unknown)[] = []
    try {
      const api = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${site}/stream/0/${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
        if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`)
        return ((await res.json()) as { data: any }).data
      }
      const aliceActor = `${site}/ap/users/${userId}`
      const remotes: Remote[] = []
      for (let i = 0; i < instances; i++) {
        const peer = await misskeyPeer({ teardown: (fn) => teardowns.push(fn) })
        // Names repeat across instances, and so do their key pairs (one per name in a process: 20 RSA keys, not 1,000); ids and keyIds do not.
        const actors = await Promise.all(Array.from({ length: perInstance }, (_, k) => peer.actor(`u${k}`)))
        remotes.push({ peer, actors })
      }
      const everyone = remotes.flatMap((r) => r.actors.map((actor) => ({ remote: r, actor })))
      ctx.log(`${instances} instances of ${perInstance} users; ${followers} Follows`)

      // The Follows, one in flight per instance, each to alice's inbox as Misskey sends one.
      let began = performance.now()
      const refused: number[] = []
      await pool(everyone, instances, async ({ remote, actor }) => {
        const follow = {
          '@context': MISSKEY_CONTEXT,
          id: `${remote.peer.origin}/follows/${actor.username}/alice`,
          type: 'Follow',
          actor: actor.id,
          object: aliceActor,
        }
        const { status } = await remote.peer.post(actor, `${aliceActor}/inbox`, follow)
        if (status !== 202) refused.push(status)
      })
      const followsAnswered = (performance.now() - began) / 1000
      if (refused.length > 0) throw new Error(`${refused.length} Follows refused: ${refused.slice(0, 5).join(', ')}`)
      await waitUntil(() => everyone.every(({ remote, actor }) => remote.peer.following.get(actor.id)?.has(aliceActor)), 'every Accept verified', 300_000)
      const followsDone = (performance.now() - began) / 1000
      const unverified = remotes.flatMap((r) => r.peer.inbox).filter((d) => !d.verification.ok).length
      ctx.log(`follows: answered in ${followsAnswered.toFixed(1)} s, every Accept verified after ${followsDone.toFixed(1)} s`)

      // Fan-out: alice's posts, each to every instance's shared inbox.
      const rounds = scaled(ctx, 10, 3)
      const toFirst = new Latencies()
      const toAll = new Latencies()
      let deliveries = 0
      for (let round = 0; round < rounds; round++) {
        const text = `fan-out ${round} ${Date.now()}`
        const creates = (r: Remote) => r.peer.inbox.filter((d) => d.body.type === 'Create' && JSON.stringify(d.body).includes(text))
        began = performance.now()
        await api('POST', 'posts', { text })
        await waitUntil(() => remotes.every((r) => creates(r).length > 0), `post ${round} at every instance`, 120_000)
        // A straggler (a second delivery to one instance) would show here.
        await new Promise((resolve) => setTimeout(resolve, 200))
        const arrivals = remotes.flatMap((r) => creates(r))
        if (arrivals.some((d) => !d.verification.ok || d.path !== '/inbox')) throw new Error(`post ${round}: a Create not verified, or not to a shared inbox`)
        deliveries += arrivals.length
        toFirst.add(Math.min(...arrivals.map((d) => d.receivedAt)) - began)
        toAll.add(Math.max(...arrivals.map((d) => d.receivedAt)) - began)
      }
      ctx.log(`fan-out: ${rounds} posts, p50 ${toAll.percentile(50).toFixed(0)} ms to every inbox`)

      // Incoming: signed Creates of Notes mentioning alice, signed beforehand, one in flight per instance.
      const incoming = scaled(ctx, 2000, 20)
      const newestMention = async (): Promise<number> => Number((await api('GET', 'users/me/mentions?count=1'))[0]?.id ?? 0)
      // Post ids are consecutive and nothing else posts meanwhile: the newest mention's id says how many Notes became posts.
      const before = Number((await api('GET', 'posts/stream/global?count=1'))[0]?.id ?? 0)
      const signed: SignedPost[] = []
      for (let n = 0; n < incoming; n++) {
        const { remote, actor } = everyone[n % everyone.length]
        const note = {
          id: `${remote.peer.origin}/notes/${actor.username}-${n}`,
          type: 'Note',
          attributedTo: actor.id,
          content: `<p><a href="${site}/@alice" class="u-url mention">@alice@${new URL(site).host}</a> incoming ${n}</p>`,
          published: new Date().toISOString(),
          to: [PUBLIC],
          cc: [actor.document.followers, aliceActor],
          tag: [{ type: 'Mention', href: aliceActor, name: `@alice@${new URL(site).host}` }],
        }
        const create = { '@context': MISSKEY_CONTEXT, id: `${note.id}/activity`, type: 'Create', actor: actor.id, object: note, to: note.to, cc: note.cc }
        signed.push(await signPost(actor.keyId, actor.privateKeyPem, `${site}/ap/inbox`, create))
      }
      const floor = await verifyFloor(signed[0], everyone[0].actor.publicKeyPem, scaled(ctx, 3000, 500))
      // Grouped by instance, each instance sending its own in order.
      const byInstance = remotes.map((_, i) => signed.filter((__, n) => everyone[n % everyone.length].remote === remotes[i]))
      const answers: number[] = []
      began = performance.now()
      await Promise.all(
        byInstance.map(async (posts) => {
          for (const post of posts) answers.push((await sendSigned(post)).status)
        }),
      )
      const answered = (performance.now() - began) / 1000
      await waitUntil(async () => (await newestMention()) >= before + incoming, 'every incoming Note a post', 600_000)
      const processed = (performance.now() - began) / 1000
      // Counted: every Note is a post, once.
      let counted = 0
      let beforeId: string | undefined
      for (;;) {
        const page = (await api('GET', `users/me/mentions?count=200${beforeId ? `&before_id=${beforeId}` : ''}`)) as { id: string; text: string }[]
        counted += page.filter((p) => p.text.includes(' incoming ')).length
        if (page.length < 200) break
        beforeId = page[page.length - 1].id
      }
      const errors = answers.filter((s) => s !== 202).length
      ctx.log(`incoming: ${incoming} answered in ${answered.toFixed(1)} s, posts after ${processed.toFixed(1)} s; ${counted} counted, ${errors} errors`)

      return [
        { name: 'remote followers (instances x users)', value: followers, unit: `(${instances} x ${perInstance})` },
        { name: 'Follows answered (202)', value: followers / followsAnswered, unit: 'Follows/s' },
        { name: 'until every Accept verified at its instance', value: followsDone, unit: 's' },
        { name: 'deliveries not verified by the peers', value: unverified, unit: 'requests' },
        { name: 'Create deliveries per post', value: deliveries / rounds, unit: 'deliveries' },
        { name: 'post to first inbox, p50', value: toFirst.percentile(50), unit: 'ms' },
        { name: 'post to every inbox, p50', value: toAll.percentile(50), unit: 'ms' },
        { name: 'post to every inbox, max', value: toAll.percentile(100), unit: 'ms' },
        { name: 'incoming Creates answered (202)', value: incoming / answered, unit: 'activities/s' },
        { name: 'incoming Creates made posts', value: incoming / processed, unit: 'activities/s' },
        { name: 'incoming Creates counted as posts', value: counted, unit: `of ${incoming}` },
        { name: 'incoming errors', value: errors, unit: 'requests' },
        { name: 'floor: draft signatures verified by Misskey’s library, one process', value: floor, unit: 'verifications/s' },
        { name: 'server RSS after the runs', value: megabytesOf(server.child.pid!, 'VmRSS'), unit: 'MB' },
      ]
    } finally {
      await stop(server)
      for (const fn of teardowns) await fn()
    }
  },
}
