import t from 'tap'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { svc, svcJson } from './svc-in-process.js'
import { initDir, serve } from '../fixtures/svc-process.js'

/** The same story with and without a server on the data dir. */
for (const mode of ['directly on the data dir', 'through the running server']) {
  t.test(`the admin commands work ${mode}`, async (t) => {
    const dir = await initDir(t)
    const d = ['--data-dir', dir]
    if (mode !== 'directly on the data dir') {
      const server = await serve(dir)
      t.teardown(() => server.stop())
      t.equal(statSync(join(dir, 'admin.sock')).mode & 0o777, 0o600, 'only the local user may use the admin socket')
    }

    const app = await svcJson(['app', 'create', '--name', 'Alice Client', '--redirect-uri', 'http://client.example/cb', '--redirect-uri', 'myapp://cb', ...d])
    t.match(app, {
      name: 'Alice Client',
      redirect_uris: ['http://client.example/cb', 'myapp://cb'],
      client_id: String,
      client_secret: String,
      password_grant_secret: String,
    })
    t.notOk('secret_hash' in app, 'no hash leaves the server')

    const alice = await svcJson(['user', 'create', '--username', 'alice', '--password', 'correct horse', '--name', 'Alice', ...d])
    t.match(alice, { id: /^\d+$/, username: 'alice', name: 'Alice', type: 'human', counts: { posts: 0 }, avatar_image: { is_default: true } })
    t.notOk('password_hash' in alice, 'the password hash is not printed')
    const robo = await svcJson(['user', 'create', '--username', 'robo', '--password', 'beep boop beep', '--type', 'bot', ...d])
    t.equal(robo.type, 'bot')

    const dup = await svc(['user', 'create', '--username', 'alice', '--password', 'another one', ...d])
    t.not(dup.code, 0, 'a taken username fails')
    t.equal(dup.stderr.trim().split('\n').length, 1, 'with one line of reason')
    t.match(dup.stderr, /taken/)
    t.equal(dup.stdout, '')

    const users = await svcJson(['user', 'list', ...d])
    t.same(
      users.map((u: { username: string }) => u.username),
      ['alice', 'robo'],
    )
    const apps = await svcJson(['app', 'list', ...d])
    t.same(
      apps.map((a: { name: string; client_id: string }) => [a.name, a.client_id === app.client_id]),
      [
        ['svc web', false],
        ['Alice Client', true],
      ],
      "svc init registered the web client; then alice's",
    )
    t.notOk('client_secret' in apps[1], 'listed apps do not show secrets')

    const issued = await svcJson(['token', 'create', '--username', 'alice', '--client-id', app.client_id, '--scopes', 'stream,write_post', ...d])
    t.match(issued, { access_token: String, username: 'alice', token: { scopes: ['basic', 'stream', 'write_post'], user: { username: 'alice' } } })
    const second = await svcJson(['token', 'create', '--username', 'robo', '--client-id', app.client_id, ...d])

    const listed = await svc(['token', 'list', '--json', ...d])
    t.notMatch(listed.stdout, issued.access_token, 'the token list never shows a token secret')
    const tokens = JSON.parse(listed.stdout)
    t.same(
      tokens.map((x: { user: { username: string } }) => x.user.username),
      ['alice', 'robo'],
    )
    t.match(tokens[0], { id: issued.token_id, kind: 'user', app: { client_id: app.client_id }, scopes: ['basic', 'stream', 'write_post'] })

    const byString = await svcJson(['token', 'revoke', issued.access_token, ...d])
    t.equal(byString.id, issued.token_id, 'a token is revoked by its access token')
    const byId = await svc(['token', 'revoke', second.token_id, ...d])
    t.equal(byId.code, 0, 'or by its id')
    t.match(byId.stdout, /revoked token/)
    t.same(await svcJson(['token', 'list', ...d]), [])
    const again = await svc(['token', 'revoke', issued.access_token, ...d])
    t.not(again.code, 0, 'a revoked token cannot be revoked again')

    const text = await svc(['user', 'list', ...d])
    t.match(text.stdout, /@alice\tAlice\thuman/, 'without --json the list is lines of text')
  })
}

t.test('bad input fails with one line on stderr', async (t) => {
  const dir = await initDir(t)
  for (const args of [
    ['user', 'create', '--username', 'bad name!', '--password', 'correct horse'],
    ['user', 'create', '--username', 'carol', '--password', 'short'],
    ['user', 'create', '--username', 'carol', '--password', 'correct horse', '--type', 'robot'],
    ['token', 'create', '--username', 'nobody', '--client-id', 'nope'],
    ['app', 'create', '--name', 'Evil', '--redirect-uri', 'javascript:alert(1)'],
  ]) {
    const r = await svc([...args, '--data-dir', dir, '--json'])
    t.not(r.code, 0, args.join(' '))
    t.equal(r.stdout, '', 'nothing on stdout')
    t.match(r.stderr, /^.+\n$/, 'one line of reason')
  }
})

t.test('an unknown scope is refused rather than silently dropped', async (t) => {
  const dir = await initDir(t)
  const app = await svcJson(['app', 'create', '--name', 'Client', '--data-dir', dir])
  await svcJson(['user', 'create', '--username', 'bob', '--password', 'correct horse', '--data-dir', dir])
  const r = await svc(['token', 'create', '--username', 'bob', '--client-id', app.client_id, '--scopes', 'stream,emial', '--data-dir', dir])
  t.not(r.code, 0)
  t.match(r.stderr, /unknown scope emial/)
})

t.test('the data dir comes from SVC_DATA_DIR when --data-dir is not given', async (t) => {
  const dir = await initDir(t)
  const r = await svc(['user', 'create', '--username', 'carol', '--password', 'correct horse', '--json'], { env: { SVC_DATA_DIR: dir } })
  t.equal(r.code, 0, r.stderr)
  t.same(
    (await svcJson(['user', 'list', '--data-dir', dir])).map((u: { username: string }) => u.username),
    ['carol'],
  )
})
