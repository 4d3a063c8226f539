import t from 'tap'
import { createConnection } from 'node:net'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ensureBuilt, serve, svc, svcJson, tempDir } from './svc-process.js'

ensureBuilt()

/** Sends raw lines to the admin socket; answers the answer lines. */
const talk = (path: string, lines: string[], answers: number): Promise<any[]> =>
  new Promise((resolve, reject) => {
    let seen = ''
    const socket = createConnection(path, () => socket.write(lines.join('\n') + '\n'))
    socket.setEncoding('utf8')
    socket.on('error', reject)
    socket.on('data', (chunk: string) => {
      seen += chunk
      const got = seen.split('\n').filter(Boolean)
      if (got.length >= answers) {
        socket.end()
        resolve(got.map((l) => JSON.parse(l)))
      }
    })
  })

t.test('a second server on the same data dir is refused, and SIGINT stops the first cleanly', async (t) => {
  const dir = tempDir(t)
  const first = await serve(dir)
  t.teardown(() => first.stop())
  const second = await svc(['serve', '--data-dir', dir, '--port', '0', '--host', '127.0.0.1'])
  t.not(second.code, 0)
  t.match(second.stderr, /in use by process/)
  await svcJson(['user', 'create', '--username', 'bob', '--password', 'correct horse', '--data-dir', dir])
  const exited = new Promise((resolve) => first.child.once('exit', resolve))
  first.child.kill('SIGINT')
  t.equal(await exited, 0)
  t.notOk(existsSync(join(dir, 'admin.sock')), 'the admin socket is gone')
  t.same(
    (await svcJson(['user', 'list', '--data-dir', dir])).map((u: { username: string }) => u.username),
    ['bob'],
    'and the user made through it is on disk',
  )
})

t.test('the admin socket answers each line in order and refuses bad requests', async (t) => {
  const dir = tempDir(t)
  const server = await serve(dir)
  t.teardown(() => server.stop())
  const answers = await talk(join(dir, 'admin.sock'), ['not json', '{"id":2,"op":"no.such"}', '{"id":3,"op":"user.list"}'], 3)
  t.match(answers[0], { ok: false, error: { code: 'invalid' } })
  t.match(answers[1], { id: 2, ok: false, error: { code: 'invalid', message: /unknown admin operation/ } })
  t.same(answers[2], { id: 3, ok: true, result: [] })
})

t.test('serve refuses a bad port with one line', async (t) => {
  const r = await svc(['serve', '--data-dir', tempDir(t), '--port', 'eighty'])
  t.not(r.code, 0)
  t.equal(r.stderr.trim().split('\n').length, 1)
  t.match(r.stderr, /invalid port/)
})

t.test('app create without --json prints the secrets as lines', async (t) => {
  const r = await svc(['app', 'create', '--name', 'Carol Client', '--data-dir', tempDir(t)])
  t.equal(r.code, 0)
  t.match(r.stdout, /^client_id: \S+\nclient_secret: \S+\npassword_grant_secret: \S+\nname: Carol Client\n/)
})
