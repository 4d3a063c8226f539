/**
 * kill -9 during concurrent writes: every write the server acknowledged is
 * there after a restart (the store answers only once a write is durable).
 */
import t from 'tap'
import { serve, svcJson, tempDir } from '../fixtures/svc-process.js'
import { killUnderLoad } from './kill-under-load.js'
import { appTokenGrant } from '../fixtures/password-grant.js'

const WORKERS = 16
const KILL_AFTER_ACKS = 60

t.test('tokens the server acknowledged survive a kill -9 in the middle of writing', async (t) => {
  const dir = tempDir(t)
  const d = ['--data-dir', dir]
  let server = await serve(dir)
  t.teardown(() => server.stop())
  const app = await svcJson(['app', 'create', '--name', 'Robo Client', ...d])

  const { acknowledged } = await killUnderLoad(server, WORKERS, KILL_AFTER_ACKS, async () => {
    const res = await appTokenGrant(server.url, app)
    if (res.status !== 200) throw new Error(`grant answered ${res.status}`)
    return ((await res.json()) as { access_token: string }).access_token
  })
  t.ok(acknowledged.length >= KILL_AFTER_ACKS)

  server = await serve(dir)
  const lost: string[] = []
  for (const token of acknowledged) {
    const res = await fetch(`${server.url}/stream/0/token`, { headers: { authorization: `Bearer ${token}` } })
    if (res.status !== 200) lost.push(token)
  }
  t.same(lost, [], `all ${acknowledged.length} acknowledged tokens are there after the restart`)
  const listed = await svcJson(['token', 'list', ...d])
  t.ok(listed.length >= acknowledged.length, 'the token list holds at least every acknowledged token')
})
