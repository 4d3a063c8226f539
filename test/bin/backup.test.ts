/**
 * `svc backup` against a running `svc serve`, as an operator runs it: taken
 * while posts are being written, restored into a new data dir, served again:
 * every post acknowledged before the backup is there, and the photo's bytes
 * are the same; `verify` exits 0 on it and 1 on a damaged copy.
 */
import t from 'tap'
import { createHash, randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { multipartOf } from '../fixtures/files.js'
import { svc, svcJson } from '../fixtures/svc-in-process.js'
import { initDir, serve, tempDir } from '../fixtures/svc-process.js'
import { freshPgStore, pgUnavailable } from '../fixtures/postgres.js'

const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex')

t.test('a backup taken while posts are written restores into a server with every post acknowledged before it, and the same file bytes', async (t) => {
  const dir = tempDir(t)
  const d = ['--data-dir', dir]
  const first = await serve(dir)
  t.teardown(() => first.stop())
  await svcJson(['user', 'create', '--username', 'alice', '--password', 'correct horse', ...d])
  const app = await svcJson(['app', 'create', '--name', 'Robo', ...d])
  const { access_token: token } = await svcJson(['token', 'create', '--username', 'alice', '--client-id', app.client_id, '--scopes', 'write_post,files', ...d])
  const auth = { authorization: `Bearer ${token}` }
  const photo = randomBytes(40_000)
  const body = multipartOf([
    { name: 'type', data: 'com.example.photo' },
    { name: 'content', data: photo, filename: 'photo.bin', type: 'application/octet-stream' },
  ])
  const uploaded = await (
    await fetch(`${first.url}/stream/0/files`, { method: 'POST', headers: { ...auth, ...body.headers }, body: new Uint8Array(body.payload) })
  ).json()
  t.equal(uploaded.meta.code, 200)
  const post = async (text: string): Promise<string> => {
    const res = await fetch(`${first.url}/stream/0/posts`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    })
    if (res.status !== 200) throw new Error(`POST /posts answered ${res.status}`)
    return ((await res.json()) as { data: { id: string } }).data.id
  }
  const acknowledged: string[] = []
  for (let i = 0; i < 10; i++) acknowledged.push(await post(`before ${i}`))
  let writing = true
  const writer = (async () => {
    for (let i = 0; writing; i++) await post(`during ${i}`)
  })()
  const file = join(tempDir(t), 'instance.tar.gz')
  const made = await svc(['backup', 'create', '--to', file, '--json', ...d])
  t.equal(made.code, 0, made.stderr)
  const result = JSON.parse(made.stdout)
  t.match(result, { file, events_position: Number, bytes: Number })
  writing = false
  await writer
  t.equal(await first.stop(), 0)

  const verified = await svc(['backup', 'verify', file, '--json'])
  t.equal(verified.code, 0, verified.stderr)
  t.match(JSON.parse(verified.stdout), { events_position: result.events_position })
  const restoredDir = join(tempDir(t), 'restored')
  const restored = await svc(['backup', 'restore', file, '--data-dir', restoredDir, '--json'])
  t.equal(restored.code, 0, restored.stderr)
  t.match(JSON.parse(restored.stdout), { data_dir: restoredDir, events_position: result.events_position })

  const again = await serve(restoredDir)
  t.teardown(() => again.stop())
  const missing: string[] = []
  for (const id of acknowledged) if ((await fetch(`${again.url}/stream/0/posts/${id}`)).status !== 200) missing.push(id)
  t.same(missing, [], `all ${acknowledged.length} posts acknowledged before the backup are there`)
  const content = await fetch(`${again.url}/stream/0/files/${uploaded.data.id}/content`, { headers: auth, redirect: 'follow' })
  t.equal(content.status, 200)
  t.equal(sha1(Buffer.from(await content.arrayBuffer())), sha1(photo), "the photo's bytes")

  const cut = join(tempDir(t), 'cut.tar.gz')
  writeFileSync(cut, readFileSync(file).subarray(0, 300))
  const refused = await svc(['backup', 'verify', cut])
  t.equal(refused.code, 1)
  t.match(refused.stderr, /^svc: .*cut\.tar\.gz is not a complete svc backup: .*\n$/)
  const into = await svc(['backup', 'restore', file, '--data-dir', restoredDir])
  t.equal(into.code, 3, 'a conflict, as svc says of a taken data dir')
  t.match(into.stderr, /is not empty: restore into an empty or new data dir/)
})

t.test('with --store a backup restores into an empty PostgreSQL store, which the restored data dir then uses', { skip: await pgUnavailable() }, async (t) => {
  const dir = await initDir(t)
  const d = ['--data-dir', dir]
  await svcJson(['user', 'create', '--username', 'alice', '--password', 'correct horse', ...d])
  const file = join(tempDir(t), 'b.tar.gz')
  t.match(await svcJson(['backup', 'create', '--to', file, ...d]), { file })
  const url = await freshPgStore(t)
  const restoredDir = join(tempDir(t), 'restored')
  const restored = await svcJson(['backup', 'restore', file, '--data-dir', restoredDir, '--store', url])
  t.match(restored, { data_dir: restoredDir, store: String })
  t.equal(JSON.parse(readFileSync(join(restoredDir, 'config.json'), 'utf8')).store, url)
  t.same(
    (await svcJson(['user', 'list', '--data-dir', restoredDir])).map((u: { username: string }) => u.username),
    ['alice'],
    'read back from PostgreSQL',
  )
  const again = await svc(['backup', 'restore', file, '--data-dir', join(tempDir(t), 'other'), '--store', url])
  t.equal(again.code, 3, 'a store that holds data is not restored into')
  t.match(again.stderr, /already holds/)
})
