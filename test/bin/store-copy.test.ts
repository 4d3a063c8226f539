/**
 * `svc store copy`: an instance grown on the embedded store moves to
 * PostgreSQL with its ids, and goes on there from where it was.
 */
import t from 'tap'
import { serve, svcJson, svcProcess, tempDir } from '../fixtures/svc-process.js'
import { freshPgStore, pgUnavailable } from '../fixtures/postgres.js'
import { passwordGrant } from '../fixtures/password-grant.js'

const skip = await pgUnavailable()

const post = async (url: string, token: string, text: string): Promise<{ id: string; text: string }> => {
  const res = await fetch(`${url}/stream/0/posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  })
  return ((await res.json()) as { data: { id: string; text: string } }).data
}

t.test('copy moves every row with its id into an empty PostgreSQL store, which then goes on from there', { skip }, async (t) => {
  const dir = tempDir(t)
  const d = ['--data-dir', dir]
  let server = await serve(dir)
  const app = await svcJson(['app', 'create', '--name', 'Patter', ...d])
  await svcJson(['user', 'create', '--username', 'alice', '--password', 'correct horse', ...d])
  const grant = async () =>
    ((await (await passwordGrant(server.url, app, 'alice', 'correct horse', 'stream write_post')).json()) as { access_token: string }).access_token
  let token = await grant()
  const posts = [await post(server.url, token, 'one'), await post(server.url, token, 'two'), await post(server.url, token, 'three')]
  t.equal(await server.stop(), 0)

  const store = await freshPgStore(t)
  const copied = await svcProcess(['store', 'copy', '--from', dir, '--to', store, '--json'])
  t.equal(copied.code, 0, copied.stderr)
  const report = JSON.parse(copied.stdout) as { total: number; tables: Record<string, number> }
  t.equal(report.tables.posts, 3)
  t.equal(report.tables.users, 1)
  t.ok(report.tables.event_log > 0, 'the event log came along')
  t.equal(
    report.total,
    Object.values(report.tables).reduce((a, b) => a + b, 0),
  )
  t.match(copied.stderr, /copied data dir .* to postgres:\/\//)

  const again = await svcProcess(['store', 'copy', '--from', dir, '--to', store])
  t.equal(again.code, 3, 'a second copy is a conflict')
  t.match(again.stderr, /already holds \w+: copy into an empty database/)

  server = await serve(dir, ['--store', store])
  t.teardown(() => server.stop())
  const res = await fetch(`${server.url}/stream/0/users/@alice/posts`)
  const listed = ((await res.json()) as { data: { id: string; text: string }[] }).data
  t.same(
    listed.map((p) => [p.id, p.text]),
    posts.reverse().map((p) => [p.id, p.text]),
    'the same posts under the same ids',
  )
  token = await grant()
  const next = await post(server.url, token, 'four')
  t.equal(Number(next.id), Number(posts[0].id) + 1, 'ids go on after the last one copied')
})

t.test('copy refuses a data dir a server holds, and needs somewhere to copy to', async (t) => {
  const dir = tempDir(t)
  const server = await serve(dir)
  t.teardown(() => server.stop())
  const held = await svcProcess(['store', 'copy', '--from', dir, '--to', 'postgres://127.0.0.1:1/none'])
  t.not(held.code, 0)
  t.match(held.stderr, /held|process \d+/)
  const nowhere = await svcProcess(['store', 'copy', '--from', dir], { SVC_STORE_URL: '' })
  t.not(nowhere.code, 0)
  t.match(nowhere.stderr, /svc store copy needs --to postgres:\/\//)
})
