/**
 * kill -9 during concurrent uploads: every file the server acknowledged is
 * there after a restart with its bytes and its SHA-1, and the files folder
 * holds no byte file that no File points at (bytes are fsynced before the
 * row commits; what a crash leaves behind is swept when the store opens).
 * The uploads come from several users, each within the uploads one user may
 * have under way at once.
 */
import { createHash, randomBytes } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { UPLOADS_PER_USER } from '../../data/index.js'
import { serve, svcJson, tempDir } from '../fixtures/svc-process.js'
import { killUnderLoad } from './kill-under-load.js'
import { api, signIn } from '../fixtures/password-grant.js'

const WORKERS = 20
const SIZE = 200_000
const KILL_AFTER_ACKS = 40
const USERS = Math.ceil(WORKERS / UPLOADS_PER_USER)

interface Acked {
  id: string
  sha1: string
  /** The uploader's token. */
  token: string
}

const sha1Of = (bytes: Uint8Array): string => createHash('sha1').update(bytes).digest('hex')

/** `POST /files` as a browser sends it: multipart FormData with a `content` part and the `type` field. */
async function uploadOver(url: string, token: string, bytes: Buffer, n: number): Promise<Response> {
  const form = new FormData()
  form.set('type', 'com.example.crash')
  form.set('content', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), `crash-${n}.bin`)
  return fetch(`${url}/stream/0/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
}

/** Every File of the signed-in user, every page. */
async function allFiles(server: { url: string }, token: string): Promise<any[]> {
  const out: any[] = []
  let before = ''
  for (;;) {
    const page = await api(server, token, 'GET', `users/me/files?count=200${before}`)
    if (page.status !== 200) throw new Error(`GET /users/me/files answered ${page.status}`)
    out.push(...page.body.data)
    if (!page.body.meta.more) return out
    before = `&before_id=${page.body.meta.min_id}`
  }
}

t.test('files the server acknowledged survive a kill -9 in the middle of concurrent uploads, and no orphaned bytes remain', async (t) => {
  const dir = tempDir(t)
  const d = ['--data-dir', dir]
  let server = await serve(dir)
  t.teardown(() => server.stop())
  const app = await svcJson(['app', 'create', '--name', 'Crash Uploader', ...d])
  const tokens: string[] = []
  for (let i = 0; i < USERS; i++) {
    await svcJson(['user', 'create', '--username', `uploader${i}`, '--password', 'many bytes in flight', ...d])
    tokens.push(await signIn(server, app, `uploader${i}`, 'many bytes in flight', 'files'))
  }
  // Each upload goes to the uploader with the fewest under way: with WORKERS at once, none has more than UPLOADS_PER_USER.
  const underWay = tokens.map(() => 0)

  const { acknowledged, sent } = await killUnderLoad(server, WORKERS, KILL_AFTER_ACKS, async (n): Promise<Acked> => {
    const who = underWay.indexOf(Math.min(...underWay))
    underWay[who]++
    try {
      const bytes = randomBytes(SIZE)
      const res = await uploadOver(server.url, tokens[who], bytes, n)
      const body = (await res.json()) as any
      if (res.status !== 200) throw new Error(`upload ${n} answered ${res.status}: ${JSON.stringify(body.meta)}`)
      return { id: body.data.id, sha1: sha1Of(bytes), token: tokens[who] }
    } finally {
      underWay[who]--
    }
  })
  t.ok(acknowledged.length >= KILL_AFTER_ACKS, `${acknowledged.length} uploads acknowledged of ${sent} sent`)

  const filesDir = join(dir, 'files')
  const leftByCrash = await readdir(join(filesDir, '.uploads')).catch(() => [] as string[])
  t.comment(`right after the kill: ${leftByCrash.length} temporary uploads in files/.uploads, ${(await readdir(filesDir)).length - 1} byte files`)

  server = await serve(dir)
  const wrong: string[] = []
  for (const ack of acknowledged) {
    const got = await api(server, ack.token, 'GET', `files/${ack.id}`)
    if (got.status !== 200) {
      wrong.push(`file ${ack.id}: GET answered ${got.status}`)
      continue
    }
    const file = got.body.data
    if (!file.complete || file.sha1 !== ack.sha1 || file.size !== SIZE)
      wrong.push(`file ${ack.id}: complete ${file.complete}, sha1 ${file.sha1}, size ${file.size}`)
    const content = await fetch(file.url)
    const bytes = new Uint8Array(await content.arrayBuffer())
    if (content.status !== 200 || sha1Of(bytes) !== ack.sha1)
      wrong.push(`file ${ack.id}: its url answered ${content.status} with ${bytes.length} bytes of sha1 ${sha1Of(bytes)}`)
  }
  t.same(wrong, [], `all ${acknowledged.length} acknowledged files are there with their bytes and sha1`)

  // Rows the crash committed without an answer are kept too; each holds its root content and its derived files.
  const rows = (await Promise.all(tokens.map((token) => allFiles(server, token)))).flat()
  t.ok(rows.length >= acknowledged.length, `${rows.length} files listed, at least the ${acknowledged.length} acknowledged`)
  t.ok(
    rows.every((f) => f.complete),
    'every file listed is complete',
  )
  const expected = rows.reduce((n, f) => n + 1 + Object.keys(f.derived_files ?? {}).length, 0)
  const names = (await readdir(filesDir)).filter((name) => name !== '.uploads')
  t.ok(
    names.every((name) => /^[A-Za-z0-9_-]{21}$/.test(name)),
    'the files folder holds only byte files svc named',
  )
  t.equal(names.length, expected, `the files folder holds exactly the ${expected} byte files of the ${rows.length} files: no orphans`)
  const stale = await readdir(join(filesDir, '.uploads')).catch(() => [] as string[])
  t.same(stale, [], 'the temporary uploads the crash cut short are gone after the restart')
})
