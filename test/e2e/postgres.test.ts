/**
 * An instance on PostgreSQL, as an operator runs one: `svc init --store`
 * records the store in the new config, `svc serve` finds it there, admin
 * commands run beside the server on the same database (no data dir lock
 * between them), and what one process changes the other's streams learn of.
 * Then kill -9 under writes: every acknowledged post is there after a restart.
 */
import t from 'tap'
import { waitUntil } from '../fixtures/wait.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { serve, svcJson, svcProcess, tempDir } from '../fixtures/svc-process.js'
import { freshPgStore, pgUnavailable } from '../fixtures/postgres.js'
import { killUnderLoad } from './kill-under-load.js'
import { passwordGrant } from '../fixtures/password-grant.js'

const skip = await pgUnavailable()

const post = async (url: string, token: string, text: string): Promise<Response> =>
  fetch(`${url}/stream/0/posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  })

t.test('svc on PostgreSQL: init, serve, admin commands beside the server, kill -9 under writes', { skip }, async (t) => {
  const store = await freshPgStore(t)
  const dir = tempDir(t)
  const d = ['--data-dir', dir]

  const init = await svcProcess(['init', ...d, '--store', store])
  t.equal(init.code, 0, init.stderr)
  t.equal(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).store, store, 'the new config names the store')
  const migrate = await svcProcess(['migrate', ...d])
  t.match(migrate.stderr, /the PostgreSQL store is already at format \d+/)

  let server = await serve(dir)
  t.teardown(() => server.stop())
  const app = await svcJson(['app', 'create', '--name', 'Patter', ...d])
  t.match(app.client_id, /^\w+$/, 'an admin command ran beside the server')
  await svcJson(['user', 'create', '--username', 'alice', '--password', 'correct horse', ...d])
  const grant = await passwordGrant(server.url, app, 'alice', 'correct horse', 'stream write_post')
  t.equal(grant.status, 200, 'the server sees the user the command made')
  const { access_token: token } = (await grant.json()) as { access_token: string }
  t.equal((await post(server.url, token, 'hello from postgres')).status, 200)

  const global = async (): Promise<string[]> => {
    const res = await fetch(`${server.url}/stream/0/posts/stream/global`)
    return ((await res.json()) as { data: { text: string }[] }).data.map((p) => p.text)
  }
  t.same(await global(), ['hello from postgres'])
  await svcJson(['user', 'suspend', 'alice', ...d])
  // The command's commit is acknowledged before the server has read its notification: it follows within moments.
  await waitUntil(async () => (await global()).length === 0, 'the global stream without alice', 5000)
  t.same(await global(), [], 'the server learnt of the suspension made by another process')
  await svcJson(['user', 'unsuspend', 'alice', ...d])
  const fresh = await passwordGrant(server.url, app, 'alice', 'correct horse', 'stream write_post')
  const { access_token: again } = (await fresh.json()) as { access_token: string }

  const { acknowledged } = await killUnderLoad(server, 8, 40, async (n) => {
    const res = await post(server.url, again, `post ${n}`)
    if (res.status !== 200) throw new Error(`POST /posts answered ${res.status}`)
    return ((await res.json()) as { data: { id: string } }).data.id
  })
  server = await serve(dir)
  const lost: string[] = []
  for (const id of acknowledged) {
    const res = await fetch(`${server.url}/stream/0/posts/${id}`)
    if (res.status !== 200) lost.push(id)
  }
  t.same(lost, [], `all ${acknowledged.length} acknowledged posts are there after the restart`)
})

t.test('a store URL that is not postgres:// is refused before anything starts', async (t) => {
  const dir = tempDir(t)
  const res = await svcProcess(['serve', '--data-dir', dir, '--store', 'mysql://x', '--port', '0'])
  t.not(res.code, 0)
  t.match(res.stderr, /invalid store mysql:\/\/x: give a postgres:\/\/ URL/)
})
