import t from 'tap'
import { createConnection } from 'node:net'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { svc, svcJson } from '../fixtures/svc-in-process.js'
import { initDir, serve, svcProcess, tempDir } from '../fixtures/svc-process.js'
import { freePort } from '../fixtures/free-port.js'

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
  const second = await svcProcess(['serve', '--data-dir', dir, '--port', '0', '--host', '127.0.0.1'])
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
  const r = await svc(['app', 'create', '--name', 'Carol Client', '--data-dir', await initDir(t)])
  t.equal(r.code, 0)
  t.match(r.stdout, /^client_id: \S+\nclient_secret: \S+\npassword_grant_secret: \S+\nname: Carol Client\n/)
})

t.test('a port already in use is one line saying so and what to do, not a raw EADDRINUSE', async (t) => {
  const first = await serve(tempDir(t))
  t.teardown(() => first.stop())
  const port = new URL(first.url).port
  const r = await svc(['serve', '--data-dir', tempDir(t), '--port', port, '--host', '127.0.0.1'])
  t.not(r.code, 0)
  t.equal(
    r.stderr,
    `svc: port ${port} on 127.0.0.1 is already in use (another svc or another program listens there): stop it, or choose another port with --port\n`,
  )
})

t.test('a mistake in config.json stops serve with one line naming the file and the key', async (t) => {
  const dir = await initDir(t)
  const path = join(dir, 'config.json')
  const config = JSON.parse(readFileSync(path, 'utf8'))
  writeFileSync(path, JSON.stringify({ ...config, rate_limits: { write: { limit: -1 } } }))
  const r = await svc(['serve', '--data-dir', dir, '--port', '0'])
  t.not(r.code, 0)
  t.equal(r.stderr, `svc: ${path}: rate_limits.write.limit must be greater than or equal to 1\n`)
  writeFileSync(path, '{ "open_registration": no }')
  const broken = await svc(['user', 'list', '--data-dir', dir])
  t.not(broken.code, 0)
  t.equal(broken.stderr, `svc: ${path} is not valid JSON: invalid symbol at line 1, column 24\n`)
})

t.test('svc serve logs a JSON line per request on stdout, answers its probes, and serves metrics on 127.0.0.1 only', async (t) => {
  const dir = await initDir(t)
  const metricsPort = await freePort()
  const path = join(dir, 'config.json')
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), metrics_port: metricsPort }))
  const server = await serve(dir)
  t.teardown(() => server.stop())
  t.equal((await fetch(`${server.url}/livez`)).status, 200)
  t.equal((await fetch(`${server.url}/readyz`)).status, 200)
  t.equal((await fetch(`${server.url}/stream/0/posts/stream/global`)).status, 200)
  const missing = await (await fetch(`${server.url}/stream/0/users/@nobody`)).json()
  t.equal((await fetch(`${server.url}/metrics`)).status, 404, 'no metrics on the public port')
  const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
  t.match(metrics, /^svc_http_request_duration_seconds_count\{method="GET",route="\/posts\/stream\/global",status="200"\} 1$/m)
  t.match(metrics, /^svc_user_streams_connected 0$/m)
  t.match(server.stderr(), `svc: metrics at http://127.0.0.1:${metricsPort}/metrics`)
  t.equal(await server.stop(), 0)
  const lines = server
    .stdout()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
  t.match(lines[0], { level: 30, msg: /^listening on http:\/\/127\.0\.0\.1:\d+/ }, 'what stderr says is in the log too')
  t.match(
    lines.find((line) => line.route === '/posts/stream/global'),
    { method: 'GET', path: '/posts/stream/global', status: 200, duration_ms: Number },
  )
  t.match(
    lines.find((line) => line.route === '/users/{user_id}'),
    { status: 404, error_id: missing.meta.error_id },
  )
  t.match(lines.at(-1), { msg: 'stopped' })
})

t.test('--metrics-port wins over the config; a bad one is refused with one line', async (t) => {
  const dir = await initDir(t)
  const [configured, metricsPort] = [await freePort(), await freePort()]
  const path = join(dir, 'config.json')
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), metrics_port: configured }))
  const server = await serve(dir, ['--metrics-port', String(metricsPort)])
  t.teardown(() => server.stop())
  t.equal((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status, 200)
  await t.rejects(fetch(`http://127.0.0.1:${configured}/metrics`), 'nothing on the configured port')
  const bad = await svc(['serve', '--data-dir', tempDir(t), '--port', '0', '--metrics-port', 'nine'])
  t.not(bad.code, 0)
  t.equal(bad.stderr, 'svc: invalid port nine\n')
})
