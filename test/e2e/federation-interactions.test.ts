/**
 * Stars, reposts, private messages and a domain block between two real
 * `svc serve` processes (a.svc.test and b.svc.test, as in
 * federation.test.ts), alice on A and bob on B following each other: each
 * stars and reposts the other's post and is listed among its stargazers
 * and reposters on the author's instance, and the undos cross too; alice's
 * pm to @bob@B arrives in a pm channel on B and in no post stream, and his
 * answer comes back; alice's photo (a public file, posted as an oEmbed
 * photo with alt text) reaches bob as a photo B keeps and serves
 * itself, the same bytes, her alt text its title; `svc federation block`
 * of B on A refuses what B sends from then on, and A sends B nothing.
 */
import { createHash } from 'node:crypto'
import t, { type Test } from 'tap'
import { follows, instance, texts, type Instance } from '../fixtures/federating-serve.js'
import { freePortOnAll } from '../fixtures/free-port.js'
import { HOST_A, HOST_B, needsHosts } from '../fixtures/hosts.js'
import { noisyPng } from '../fixtures/images.js'
import { svcJson } from '../fixtures/svc-in-process.js'
import { waitUntil } from '../fixtures/wait.js'

const skip = await needsHosts(HOST_A, HOST_B)

const usernames = async (x: Instance, path: string): Promise<string[]> => (await x.call('GET', path)).body.data.map((u: { username: string }) => u.username)

/** The id on `x` of the post whose text is `text`, as `x` shows it in its user's unified stream. */
async function copyOf(x: Instance, text: string): Promise<string> {
  await waitUntil(async () => texts(await x.call('GET', 'posts/stream/unified')).includes(text), `"${text}" on ${x.authority}`)
  return (await x.call('GET', 'posts/stream/unified')).body.data.find((p: { text: string }) => p.text === text).id
}

/** The user of `from` stars and reposts `post` of `to`'s user; resolves once `to` lists `who` among its stargazers and reposters. Answers the post's id on `from`. */
async function starAndRepost(t: Test, from: Instance, to: Instance, post: { id: string; text: string }, who: string): Promise<string> {
  const copy = await copyOf(from, post.text)
  t.equal((await from.call('POST', `posts/${copy}/star`)).status, 200, `starred on ${from.authority}`)
  t.equal((await from.call('POST', `posts/${copy}/repost`)).status, 200, `reposted on ${from.authority}`)
  await waitUntil(async () => (await usernames(to, `posts/${post.id}/stars`)).includes(who), `${who} among the stargazers on ${to.authority}`)
  await waitUntil(async () => (await usernames(to, `posts/${post.id}/reposters`)).includes(who), `${who} among the reposters on ${to.authority}`)
  return copy
}

/** `POST /files` on `x` as a client outside the server sends it: `png`, a public file. */
async function uploadPhoto(x: Instance, png: Buffer): Promise<{ id: string; file_token: string }> {
  const form = new FormData()
  form.append('type', 'com.example.photo')
  form.append('public', '1')
  form.append('content', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'cat.png')
  const res = await fetch(`${x.url}/stream/0/files`, { method: 'POST', headers: { authorization: `Bearer ${x.token}` }, body: form })
  const body = (await res.json()) as { data: { id: string; file_token: string } }
  if (res.status !== 200) throw new Error(`the upload answered ${res.status}: ${JSON.stringify(body)}`)
  return body.data
}

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex')

t.test('alice on A and bob on B star, repost, message and share photos across servers; a block of B on A stops both directions', { skip }, async (t) => {
  const port = await freePortOnAll([HOST_A.address, HOST_B.address])
  const [a, b] = await Promise.all([instance(t, HOST_A, port, 'alice'), instance(t, HOST_B, port, 'bob')])
  const alice = `alice@${a.authority}`
  const bob = `bob@${b.authority}`
  await follows(t, a, b, 'bob')
  await follows(t, b, a, 'alice')

  // bob's post, starred and reposted by alice on A: listed on B; and the other way round.
  const his = (await b.call('POST', 'posts', { text: 'tea on B' })).body.data
  const hisOnA = await starAndRepost(t, a, b, his, alice)
  t.match((await b.call('GET', `posts/${his.id}`)).body.data, { num_stars: 1, num_reposts: 1 }, 'counted on B')
  const hers = (await a.call('POST', 'posts', { text: 'coffee on A' })).body.data
  await starAndRepost(t, b, a, hers, bob)

  // The undos cross too.
  t.equal((await a.call('DELETE', `posts/${hisOnA}/star`)).status, 200)
  t.equal((await a.call('DELETE', `posts/${hisOnA}/repost`)).status, 200)
  await waitUntil(async () => (await usernames(b, `posts/${his.id}/stars`)).length === 0, 'her star undone on B')
  await waitUntil(async () => (await usernames(b, `posts/${his.id}/reposters`)).length === 0, 'her repost undone on B')

  // A private message to @bob@B: a pm channel on B, no post anywhere; his answer comes back.
  const sent = await a.call('POST', 'channels/pm/messages', { text: 'just between us', destinations: [`@${bob}`] })
  t.equal(sent.status, 200, JSON.stringify(sent.body.meta))
  const pmOf = async (x: Instance) => (await x.call('GET', 'channels?channel_types=svc.core.pm')).body.data
  await waitUntil(async () => (await pmOf(b)).length > 0, 'the pm channel on B')
  const [channel] = await pmOf(b)
  const messagesOn = async (x: Instance, id: string) => (await x.call('GET', `channels/${id}/messages`)).body.data.map((m: { text: string }) => m.text)
  t.same(await messagesOn(b, channel.id), ['just between us'], 'the message on B')
  for (const path of ['posts/stream/unified', 'posts/stream/global', 'users/me/mentions'])
    t.notOk(texts(await b.call('GET', path)).includes('just between us'), `not in ${path} on B`)
  t.equal((await b.call('POST', `channels/${channel.id}/messages`, { text: 'agreed' })).status, 200)
  await waitUntil(async () => (await messagesOn(a, sent.body.data.channel_id)).includes('agreed'), 'his answer on A')

  // alice's photo, with its alt text: B fetches it once and shows it from its own addresses.
  const png = await noisyPng(320, 240)
  const file = await uploadPhoto(a, png)
  const photo = { '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'oembed' }, title: 'A grey cat asleep' }
  const posted = await a.call('POST', 'posts', { text: 'my cat', annotations: [{ type: 'svc.core.oembed', value: photo }] })
  t.equal(posted.status, 200, JSON.stringify(posted.body.meta))
  type Shown = { text: string; annotations: { type: string; value: Record<string, unknown> }[] }
  let shown: Shown | undefined
  await waitUntil(async () => {
    shown = ((await b.call('GET', 'posts/stream/unified?include_annotations=1')).body.data as Shown[]).find((p) => p.text === 'my cat')
    return shown !== undefined
  }, 'her photo post on B')
  const oembeds = shown!.annotations.filter((x) => x.type === 'svc.core.oembed')
  t.equal(oembeds.length, 1, 'one photo')
  const { value } = oembeds[0] ?? { value: {} }
  t.match(value, { type: 'photo', width: 320, height: 240, title: 'A grey cat asleep' }, 'her alt text as its title')
  for (const key of ['url', 'thumbnail_url']) t.ok(String(value[key]).startsWith(`${b.url}/`), `its ${key} is on B`)
  t.notMatch(JSON.stringify(shown!.annotations), a.authority, 'nothing in the annotations leads to A')
  const served = await fetch(String(value.url))
  t.equal(served.status, 200)
  t.ok(served.url.startsWith(`${b.url}/`), 'served by B, any redirect followed')
  t.equal(served.headers.get('content-type'), 'image/png')
  t.equal(sha1(new Uint8Array(await served.arrayBuffer())), sha1(png), 'the bytes alice uploaded')
  t.equal((await fetch(String(value.thumbnail_url))).status, 200, 'its thumbnail served by B')

  // A blocks B: what B sends is refused (B's queue shows A answering 403), and A sends B nothing.
  const block = await svcJson(['federation', 'block', HOST_B.name, '--json', '--data-dir', a.dir])
  t.match(block, { block: { domain: HOST_B.name, severity: 'suspend' }, accounts: 1 })
  t.same(
    (await svcJson(['federation', 'list', '--json', '--data-dir', a.dir])).map((x: { domain: string }) => x.domain),
    [HOST_B.name],
  )
  t.equal((await b.call('POST', 'posts', { text: 'after the block' })).status, 200)
  const queueOf = (x: Instance) => svcJson(['federation', 'queue', '--json', '--data-dir', x.dir])
  await waitUntil(
    async () => (await queueOf(b)).hosts.some((h: { host: string; last_error: string | null }) => h.host === a.authority && /403/.test(h.last_error ?? '')),
    "B's delivery refused by A",
  )
  t.notOk(texts(await a.call('GET', 'posts/stream/unified')).includes('after the block'), 'not on A')
  t.equal((await a.call('GET', `users/@${bob}`)).status, 404, 'bob is gone from A')
  const toB = async () => (await queueOf(a)).hosts.find((h: { host: string }) => h.host === b.authority) ?? { delivered: 0, pending: 0 }
  const deliveredToB = async () => (await toB()).delivered
  // What was queued for B before the block is sent or dropped first.
  await waitUntil(async () => (await toB()).pending === 0, 'nothing queued for B')
  const before = await deliveredToB()
  t.equal((await a.call('POST', 'posts', { text: 'while B is blocked' })).status, 200)
  await waitUntil(async () => {
    const { outbox } = await queueOf(a)
    return outbox.cursor === outbox.head
  }, "A's outbox past her post")
  t.equal(await deliveredToB(), before, 'nothing more delivered to B')
  t.equal((await queueOf(a)).hosts.find((h: { host: string }) => h.host === b.authority)?.pending ?? 0, 0, 'nothing waiting for B')
})
