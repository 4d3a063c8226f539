/**
 * Backups taken while the instance writes: the archive holds every commit
 * up to its point and none after, whole; it verifies, restores into an
 * empty data dir that opens with the same posts and the same file bytes,
 * and a damaged copy or a taken data dir is refused.
 */
import t, { type Test } from 'tap'
import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as tar from 'tar'
import { openDomain, restoreBackup, verifyBackup, type Domain, type Upload, type Viewer } from '../../../data/index.js'
import { makeDomainInstance } from '../../fixtures/instance.js'
import { readyPgStore, pgUnavailable } from '../../fixtures/postgres.js'
import { scratchDir } from '../../fixtures/scratch.js'

const sha1 = (path: string) => createHash('sha1').update(readFileSync(path)).digest('hex')

const uploadOf = (domain: Domain, data: Buffer): Upload => {
  const path = join(domain.files.uploadsDir, randomBytes(8).toString('hex'))
  writeFileSync(path, data)
  return { path, mime_type: 'application/octet-stream' }
}

/** A folder for this test's archives and restores, removed at its end. */
const scratch = (t: Test): string => {
  const dir = scratchDir('svc-backup-test-')
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

type PostEvent = { seq: number; id: number }

async function postsWhileBackingUp(t: Test, compactMeanwhile: boolean) {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const viewer: Viewer = await svc.viewerOf(alice)
  const made: PostEvent[] = []
  svc.domain.events.onAny((event) => {
    if (event.name === 'post.created') made.push({ seq: event.seq, id: (event.payload as { post: { id: number } }).post.id })
  })
  const { file } = await svc.domain.files.create(viewer, { type: 'com.example.photo' }, uploadOf(svc.domain, randomBytes(50_000)))
  for (let i = 0; i < 20; i++) await svc.domain.posts.core.create(viewer, { text: `before ${i}` })
  const acknowledgedBefore = made.map((p) => p.id)
  let writing = true
  const writer = (async () => {
    for (let i = 0; writing; i++) await svc.domain.posts.core.create(viewer, { text: `during ${i}` })
  })()
  const compacting = compactMeanwhile ? svc.store.compact() : Promise.resolve()
  const out = scratch(t)
  const result = await svc.domain.backups.create(join(out, 'backup.tar.gz'))
  // Writes went on while the archive was written.
  await new Promise((resolve) => setTimeout(resolve, 50))
  writing = false
  await writer
  await compacting
  return { svc, out, result, made, acknowledgedBefore, file, viewer }
}

for (const compactMeanwhile of [false, true]) {
  t.test(
    `a backup taken while posts are written${compactMeanwhile ? ' and the store compacts' : ''} holds every commit up to its point and none after; it restores and opens`,
    async (t) => {
      const { svc, out, result, made, acknowledgedBefore, file } = await postsWhileBackingUp(t, compactMeanwhile)
      t.ok(
        made.some((p) => p.seq > result.events_position),
        'posts were written after the point too',
      )
      t.equal(result.bytes, statSync(result.file).size)
      const check = await verifyBackup(result.file)
      t.equal(check.events_position, result.events_position)
      const restored = join(out, 'restored')
      t.match(await restoreBackup(result.file, restored), { events_position: result.events_position })
      t.notOk(readdirSync(restored).includes('svc.lock'), 'no lock of the process that made it')
      const again = await openDomain(restored)
      t.teardown(() => again.close())
      const inBackup = made.filter((p) => p.seq <= result.events_position).map((p) => p.id)
      const after = made.filter((p) => p.seq > result.events_position).map((p) => p.id)
      for (const id of acknowledgedBefore) t.ok(inBackup.includes(id), `post ${id}, acknowledged before the backup, is before its point`)
      const present = async (id: number) => (await again.posts.core.get(id)) !== null
      t.same(
        await Promise.all(inBackup.map(present)),
        inBackup.map(() => true),
        'every post up to the point is there',
      )
      t.same(
        await Promise.all(after.map(present)),
        after.map(() => false),
        'no post after it',
      )
      t.equal(again.events.head(), result.events_position, 'the event log ends at the point')
      const bytes = (dir: string) => readdirSync(join(dir, 'files')).filter((n) => !n.startsWith('.'))
      t.same(bytes(restored), bytes(svc.dir), "the uploads' bytes")
      for (const name of bytes(restored)) t.equal(sha1(join(restored, 'files', name)), sha1(join(svc.dir, 'files', name)), `${name} is the same bytes`)
      t.ok(file.id > 0)
    },
  )
}

t.test('a damaged or unknown archive is refused, naming what is wrong', async (t) => {
  const svc = await makeDomainInstance(t)
  await svc.person('alice')
  const out = scratch(t)
  const { file } = await svc.domain.backups.create(join(out, 'good.tar.gz'))
  await t.rejects(svc.domain.backups.create(file), { code: 'conflict', message: /exists already/ }, 'an existing file is never overwritten')
  await t.rejects(svc.domain.backups.create('relative.tar.gz'), { code: 'invalid', message: /absolute path/ })

  const cut = join(out, 'cut.tar.gz')
  writeFileSync(cut, readFileSync(file).subarray(0, 400))
  await t.rejects(verifyBackup(cut), { code: 'invalid', message: /cut\.tar\.gz is not a complete svc backup/ })

  // The same archive with one byte of the store changed.
  const unpacked = join(out, 'unpacked')
  mkdirSync(unpacked)
  await tar.x({ file, cwd: unpacked })
  const journal = join(
    unpacked,
    'data',
    'store',
    readdirSync(join(unpacked, 'data', 'store')).find((n) => n.startsWith('journal-'))!,
  )
  const text = readFileSync(journal, 'utf8')
  writeFileSync(journal, text.replace('alice', 'alicf'))
  const changed = join(out, 'changed.tar.gz')
  await tar.c({ gzip: true, file: changed, cwd: unpacked }, ['backup.json', 'data'])
  await t.rejects(verifyBackup(changed), { code: 'invalid', message: /: store\/journal-\d+\.jsonl is not the file that was backed up/ })
  await t.rejects(restoreBackup(changed, join(out, 'never')), { code: 'invalid' })
  t.throws(() => statSync(join(out, 'never')), 'a refused restore leaves nothing behind')
  await t.rejects(verifyBackup(join(out, 'missing.tar.gz')), { code: 'invalid', message: /does not exist/ })
})

t.test('restoring into a data dir that holds anything is refused and changes nothing', async (t) => {
  const svc = await makeDomainInstance(t)
  const out = scratch(t)
  const { file } = await svc.domain.backups.create(join(out, 'b.tar.gz'))
  await t.rejects(restoreBackup(file, svc.dir), { code: 'conflict', message: /is not empty/ })
  const empty = join(out, 'empty')
  mkdirSync(empty)
  t.match(await restoreBackup(file, empty), { files: Number })
  t.ok(readdirSync(empty).includes('config.json'))
})

t.test('on PostgreSQL a backup says what to use instead', { skip: await pgUnavailable() }, async (t) => {
  const dir = scratchDir('svc-backup-pg-')
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const domain = await openDomain(dir, { store: await readyPgStore(t) })
  t.teardown(() => domain.close())
  await t.rejects(domain.backups.create(join(dir, 'b.tar.gz')), { code: 'invalid', message: /PostgreSQL: back the database up with its own tools \(pg_dump/ })
})
