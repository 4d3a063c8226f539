/**
 * Federation between two real `svc serve` processes on this machine, each
 * with its own data dir and public URL, as README's Federation section
 * starts them: alice on A finds @bob@B by handle and follows him (pending
 * until B accepts); bob's post reaches her unified stream and her user
 * stream; her reply reaches his thread on B; his mention of @alice@A
 * reaches her mentions; his deletion and her unfollow propagate.
 */
import t from 'tap'
import { freePort } from '../fixtures/free-port.js'
import { openWebSocket } from '../fixtures/streams.js'
import { waitUntil } from '../fixtures/wait.js'
import { initDir, serve, svcJson } from '../fixtures/svc-process.js'
import { api, signIn } from '../fixtures/password-grant.js'

/** `svc serve` at `http://127.0.0.1:PORT`, that as its public URL, private addresses allowed; with one user and a token of hers. */
async function instance(t: Parameters<typeof initDir>[0], username: string) {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const dir = await initDir(t)
  const served = await serve(dir, ['--port', String(port), '--public-url', url], { SVC_FEDERATION_ALLOW_PRIVATE: '1' })
  t.teardown(() => served.stop())
  const d = ['--data-dir', dir]
  const app = await svcJson(['app', 'create', '--name', 'Client', ...d])
  await svcJson(['user', 'create', '--username', username, '--password', 'correct horse', ...d])
  const token = await signIn({ url }, app, username, 'correct horse', 'stream follow write_post')
  return { url, authority: new URL(url).host, token, call: (method: string, path: string, body?: unknown) => api({ url }, token, method, path, body) }
}

const texts = (res: { body: { data: { text?: string; is_deleted?: boolean }[] } }) => res.body.data.filter((p) => !p.is_deleted).map((p) => p.text)

t.test('alice on A and bob on B follow, post, reply, mention, delete and unfollow across servers', async (t) => {
  const [a, b] = await Promise.all([instance(t, 'alice'), instance(t, 'bob')])

  const found = await a.call('GET', `users/@bob@${b.authority}`)
  t.equal(found.status, 200, JSON.stringify(found.body))
  t.match(found.body.data, { username: `bob@${b.authority}`, canonical_url: `${b.url}/@bob` })

  const follow = await a.call('POST', `users/@bob@${b.authority}/follow`)
  t.equal(follow.status, 200)
  t.match(follow.body.data, { you_follow: false, follow_pending: true }, 'pending until B accepts')
  await waitUntil(async () => (await a.call('GET', `users/@bob@${b.authority}`)).body.data.you_follow === true, 'the Accept from B')
  t.same(
    (await b.call('GET', 'users/@bob/followers')).body.data.map((u: { username: string }) => u.username),
    [`alice@${a.authority}`],
    "alice among bob's followers on B",
  )

  const ws = await openWebSocket(a.url, a.token)
  await a.call('GET', `posts/stream/unified?connection_id=${ws.connectionId}&subscription_id=home`)
  const first = await b.call('POST', 'posts', { text: 'hello from B' })
  t.equal(first.status, 200)
  const frame = await ws.next(15_000)
  t.match(frame.data, [{ text: 'hello from B', user: { username: `bob@${b.authority}` } }], 'live on her user stream')
  // Closed now: a server stopping with a stream open waits for it.
  ws.close()
  await waitUntil(async () => texts(await a.call('GET', 'posts/stream/unified')).includes('hello from B'), 'in her unified stream')
  const copy = (await a.call('GET', 'posts/stream/unified')).body.data[0]

  t.equal((await a.call('POST', 'posts', { text: 'hi bob', reply_to: copy.id })).status, 200)
  await waitUntil(async () => texts(await b.call('GET', `posts/${first.body.data.id}/replies`)).includes('hi bob'), 'her reply in his thread on B')

  t.equal((await b.call('POST', 'posts', { text: `@alice@${a.authority} are you there?` })).status, 200)
  await waitUntil(async () => texts(await a.call('GET', 'users/me/mentions')).includes(`@alice@${a.authority} are you there?`), 'his mention in her mentions')

  t.equal((await b.call('DELETE', `posts/${first.body.data.id}`)).status, 200)
  await waitUntil(async () => !texts(await a.call('GET', 'posts/stream/unified')).includes('hello from B'), 'his deletion on A')

  t.equal((await a.call('DELETE', `users/@bob@${b.authority}/follow`)).status, 200)
  await waitUntil(async () => (await b.call('GET', 'users/@bob/followers')).body.data.length === 0, 'her unfollow on B')
})
