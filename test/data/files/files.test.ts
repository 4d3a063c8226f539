import t from 'tap'
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { openDomain, type Domain, type Upload, type Viewer } from '../../../data/index.js'
import { makeDomainInstance } from '../../fixtures/instance.js'
import { recordEvents } from '../../fixtures/events.js'
import { scratchDir } from '../../fixtures/scratch.js'

/** A temporary upload, as the server's body parser leaves one in the uploads folder. */
const uploadOf = (domain: Domain, data: string | Buffer, mime_type = 'text/plain', filename?: string): Upload => {
  const path = join(domain.files.uploadsDir, randomBytes(8).toString('hex'))
  writeFileSync(path, data)
  return { path, mime_type, ...(filename ? { filename } : {}) }
}
const byteFiles = (domain: Domain): string[] => readdirSync(join(domain.dataDir, 'files')).filter((n) => !n.startsWith('.'))

const viewerOf = async (domain: Domain, token: string): Promise<Viewer> => domain.auth.tokens.authenticate(token)

t.test('files and their bytes outlive a restart; orphaned bytes and unfinished uploads are swept, other files kept', async (t) => {
  const dir = scratchDir('svc-files-')
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const first = await openDomain(dir)
  await first.start()
  const alice = await first.users.accounts.create({ username: 'alice' })
  const { app } = await first.auth.apps.create({ name: 'A', redirect_uris: ['http://a.example/cb'] })
  const viewer = await viewerOf(first, (await first.auth.tokens.issueUserToken(app, alice, ['files'])).access_token)
  const { file } = await first.files.create(viewer, { type: 'com.example.doc' }, uploadOf(first, 'kept'))
  await first.close()
  // Bytes whose row never committed, an upload cut short, and a file svc never names.
  writeFileSync(join(dir, 'files', 'AAAAAAAAAAAAAAAAAAAAA'), 'orphan')
  writeFileSync(join(dir, 'files', '.uploads', 'half'), 'half')
  writeFileSync(join(dir, 'files', 'README'), 'an operator note')

  const again = await openDomain(dir)
  t.teardown(() => again.close())
  await again.start()
  t.same(byteFiles(again).sort(), ['README', file.content!.stored].sort())
  t.same(readdirSync(again.files.uploadsDir), [], 'no unfinished upload is left')
  const reader = await viewerOf(again, (await again.auth.tokens.issueUserToken(app, alice, ['files'])).access_token)
  const content = await again.files.contentFor(reader, file.id, {})
  const opened = await again.files.openSigned(file.id, undefined, content!.signed)
  t.equal(opened.size, 4)
  t.ok(existsSync(opened.path))
})

t.test('a content upload that loses the race to complete a file leaves no bytes behind', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const viewer = await viewerOf(svc.domain, alice.token)
  const { file } = await svc.domain.files.create(viewer, { type: 'com.example.doc' })
  const results = await Promise.allSettled([
    svc.domain.files.setContent(viewer, file.id, {}, uploadOf(svc.domain, 'one')),
    svc.domain.files.setContent(viewer, file.id, {}, uploadOf(svc.domain, 'two')),
  ])
  t.same(results.map((r) => r.status).sort(), ['fulfilled', 'rejected'], 'one wins, whichever')
  const row = (await svc.domain.files.get(viewer, file.id, {})).file
  t.same(byteFiles(svc.domain), [row.content!.stored], 'only the bytes the row points at')
  t.same(readdirSync(svc.domain.files.uploadsDir), [], 'the losing upload is gone too')
})

t.test('each change is an event carrying the row, never the write token', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const viewer = await viewerOf(svc.domain, alice.token)
  const seen = recordEvents(svc)
  const { file, file_token } = await svc.domain.files.create(viewer, { type: 'com.example.doc' })
  await svc.domain.files.setContent(viewer, file.id, {}, uploadOf(svc.domain, 'x'))
  await svc.domain.files.update(viewer, file.id, {}, { name: 'n.txt' })
  await svc.domain.files.remove(viewer, file.id, {})
  const fileEvents = seen.filter((e) => e.name.startsWith('file.'))
  t.same(
    fileEvents.map((e) => e.name),
    ['file.created', 'file.updated', 'file.updated', 'file.deleted'],
  )
  t.same(
    fileEvents.map((e) => (e.payload as { file: { complete: boolean } }).file.complete),
    [false, true, true, true],
  )
  t.notOk(JSON.stringify(fileEvents).includes(file_token), 'the write token is in no event')
})

t.test('storage.used counts every live file with its derived files, and drops a deleted one', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const viewer = await viewerOf(svc.domain, alice.token)
  const { file } = await svc.domain.files.create(viewer, { type: 'com.example.doc' }, uploadOf(svc.domain, '12345'), [
    { key: 'extra', ...uploadOf(svc.domain, '123') },
  ])
  t.equal(await svc.domain.files.usedBy(alice.user.id), 8)
  t.equal((await svc.domain.auth.tokens.describe(viewer.token!))?.storage.used, 8)
  await svc.domain.files.remove(viewer, file.id, {})
  t.equal(await svc.domain.files.usedBy(alice.user.id), 0)
})

t.test('kind follows the content’s mime type unless the client chose it', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const viewer = await viewerOf(svc.domain, alice.token)
  const guessed = await svc.domain.files.create(viewer, { type: 'com.example.doc' })
  t.equal(guessed.file.kind, 'other')
  t.equal((await svc.domain.files.setContent(viewer, guessed.file.id, {}, uploadOf(svc.domain, 'not really', 'image/png'))).kind, 'image')
  t.notOk((await svc.domain.files.get(viewer, guessed.file.id, {})).file.content?.image_info, 'no image_info for bytes sharp cannot read')
  const chosen = await svc.domain.files.create(viewer, { type: 'com.example.doc', kind: 'other' }, uploadOf(svc.domain, 'x', 'image/gif'))
  t.equal(chosen.file.kind, 'other')
})

t.test('an upload the service refuses is removed from the uploads folder', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const viewer = await viewerOf(svc.domain, alice.token)
  const upload = uploadOf(svc.domain, 'x')
  await t.rejects(svc.domain.files.create(viewer, { type: 'svc.core.mine' }, upload), { code: 'invalid' })
  t.notOk(existsSync(upload.path))
  t.same(byteFiles(svc.domain), [])
})

t.test('concurrent uploads cannot together pass the storage left: one is refused with quota and leaves no bytes', async (t) => {
  const svc = await makeDomainInstance(t, { limits: { following: 100, max_file_size: 1000, storage: 1000 } })
  const alice = await svc.person('alice')
  const viewer = await viewerOf(svc.domain, alice.token)
  const results = await Promise.allSettled(
    ['a', 'b'].map((c) => svc.domain.files.create(viewer, { type: 'com.example.doc' }, uploadOf(svc.domain, c.repeat(600)))),
  )
  const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
  t.equal(refused.length, 1)
  t.equal(refused[0].reason.code, 'quota')
  t.equal(byteFiles(svc.domain).length, 1)
  t.equal(await svc.domain.files.usedBy(alice.user.id), 600)
})

t.test('the sweep of stale uploads takes untouched temporary files only', async (t) => {
  const svc = await makeDomainInstance(t)
  const old = uploadOf(svc.domain, 'left behind')
  const fresh = uploadOf(svc.domain, 'arriving')
  const { utimesSync } = await import('node:fs')
  const past = new Date(Date.now() - 11 * 60_000)
  utimesSync(old.path, past, past)
  t.equal(await svc.domain.files.bytes.sweepStaleUploads(10 * 60_000), 1)
  t.notOk(existsSync(old.path))
  t.ok(existsSync(fresh.path))
})
