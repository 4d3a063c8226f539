import t from 'tap'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CURRENT_FORMAT, initDataDir, migrateDataDir, openDomain } from '../../../data/index.js'
import { FileStore } from '../../../data/store/embedded/file-store.js'
import { migrations } from '../../../data/store/migrations/index.js'
import { main } from '../../../bin/main.js'
import { userRow } from '../../fixtures/rows.js'
import { openWithStore } from '../../fixtures/open-store.js'
import { flatImage } from '../../fixtures/images.js'

const meta = (dir: string) => JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as { format: number }

/** A data dir as svc wrote it before formats were recorded: a store, a config, no meta.json. */
const formatZeroDir = async (dir: string): Promise<void> => {
  const store = await FileStore.open(dir)
  await store.transact((tx) => tx.users.insert(userRow('alice')))
  await store.close()
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ name: 'alice.example' }))
}

t.test('the current format is the last numbered migration, and migrations are numbered 1, 2, 3 ...', async (t) => {
  t.same(
    migrations.map((m) => m.version),
    migrations.map((_, i) => i + 1),
  )
  t.equal(CURRENT_FORMAT, migrations.length)
})

t.test('init creates a data dir with an empty store, a config and the current format, once', async (t) => {
  const dir = join(t.testdir(), 'svc-data')
  t.same(await initDataDir(dir), { created: true })
  t.equal(meta(dir).format, CURRENT_FORMAT)
  t.ok(existsSync(join(dir, 'store', 'journal-1.jsonl')))
  t.notOk(existsSync(join(dir, 'svc.lock')), 'init leaves the dir unlocked')
  t.same(await initDataDir(dir), { created: false })
})

t.test('openDomain creates a missing data dir', async (t) => {
  const dir = join(t.testdir(), 'fresh')
  const domain = await openDomain(dir)
  await domain.close()
  t.equal(meta(dir).format, CURRENT_FORMAT)
})

t.test('a format-0 data dir is refused until migrated, then opens with its data and a backup', async (t) => {
  const dir = t.testdir()
  await formatZeroDir(dir)
  await t.rejects(openDomain(dir), { code: 'unavailable', message: /has format 0, this svc needs format 1: run `svc migrate`/ })

  const result = await migrateDataDir(dir)
  t.equal(result.from, 0)
  t.equal(result.to, CURRENT_FORMAT)
  t.match(result.backup, /backups[/\\]\d{4}-\d\d-\d\dT/)
  t.ok(existsSync(join(result.backup!, 'store', 'journal-1.jsonl')), 'the backup holds the store')
  t.ok(existsSync(join(result.backup!, 'config.json')))
  t.notOk(existsSync(join(result.backup!, 'meta.json')), 'the backup is the dir as it was before')
  t.equal(meta(dir).format, CURRENT_FORMAT)
  t.ok(existsSync(join(dir, 'images')))

  const domain = await openDomain(dir)
  t.teardown(() => domain.close())
  t.equal((await domain.users.accounts.byUsername('alice'))?.name, 'Alice')
  t.equal(domain.config.name, 'alice.example', "the operator's config survived")
})

t.test('store files copied to the top of a format-0 dir are moved into store/ by the migration', async (t) => {
  const dir = t.testdir()
  await formatZeroDir(dir)
  for (const name of readdirSync(join(dir, 'store'))) renameSync(join(dir, 'store', name), join(dir, name))
  rmdirSync(join(dir, 'store'))
  const { backup } = await migrateDataDir(dir)
  t.ok(existsSync(join(backup!, 'journal-1.jsonl')))
  t.ok(existsSync(join(dir, 'store', 'journal-1.jsonl')))
  t.notOk(existsSync(join(dir, 'journal-1.jsonl')))
  const domain = await openDomain(dir)
  t.teardown(() => domain.close())
  t.equal((await domain.users.accounts.get(1))?.username, 'alice')
})

t.test('a migration that would overwrite a store file stops, and the dir keeps its old format', async (t) => {
  const dir = t.testdir()
  await formatZeroDir(dir)
  writeFileSync(join(dir, 'journal-1.jsonl'), '')
  await t.rejects(migrateDataDir(dir), { message: /both journal-1\.jsonl and store\/journal-1\.jsonl exist/ })
  t.notOk(existsSync(join(dir, 'meta.json')), 'format 0 still')
  t.equal(readdirSync(join(dir, 'backups')).length, 1, 'the backup was made first')
  t.notOk(existsSync(join(dir, 'svc.lock')), 'the lock is released')
})

t.test('migrating a current data dir changes nothing and makes no backup', async (t) => {
  const dir = t.testdir()
  await initDataDir(dir)
  t.same(await migrateDataDir(dir), { from: CURRENT_FORMAT, to: CURRENT_FORMAT })
  t.notOk(existsSync(join(dir, 'backups')))
})

t.test('migrate refuses a data dir held by a running server and touches nothing', async (t) => {
  const dir = t.testdir()
  await formatZeroDir(dir)
  writeFileSync(join(dir, 'svc.lock'), String(process.ppid))
  await t.rejects(migrateDataDir(dir), { code: 'conflict', message: /in use by process/ })
  t.notOk(existsSync(join(dir, 'backups')))
  t.notOk(existsSync(join(dir, 'meta.json')))
})

t.test('a data dir from a newer svc is refused by openDomain and by migrate', async (t) => {
  const dir = t.testdir()
  await initDataDir(dir)
  writeFileSync(join(dir, 'meta.json'), JSON.stringify({ format: CURRENT_FORMAT + 1, created_at: 'x' }))
  await t.rejects(openDomain(dir), { code: 'unavailable', message: /upgrade svc/ })
  await t.rejects(migrateDataDir(dir), { code: 'unavailable', message: /upgrade svc/ })
})

/** Runs the CLI in this process, answering its exit code and what it printed. */
const svc = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  const out = { stdout: '', stderr: '' }
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write }
  process.stdout.write = ((chunk: string) => ((out.stdout += chunk), true)) as typeof process.stdout.write
  process.stderr.write = ((chunk: string) => ((out.stderr += chunk), true)) as typeof process.stderr.write
  try {
    const code = await main(['node', 'svc', ...args])
    return { code, ...out }
  } finally {
    process.stdout.write = writes.stdout
    process.stderr.write = writes.stderr
  }
}

t.test('svc init and svc migrate print exactly one JSON value with --json', async (t) => {
  const dir = join(t.testdir(), 'cli')
  const init = await svc('init', '--data-dir', dir, '--json')
  t.equal(init.code, 0)
  t.same(JSON.parse(init.stdout), { data_dir: dir, created: true, format: CURRENT_FORMAT })
  const again = await svc('init', '--data-dir', dir, '--json')
  t.same(JSON.parse(again.stdout), { data_dir: dir, created: false, format: CURRENT_FORMAT })
  const migrate = await svc('migrate', '--data-dir', dir, '--json')
  t.equal(migrate.code, 0)
  t.same(JSON.parse(migrate.stdout), { data_dir: dir, from: CURRENT_FORMAT, to: CURRENT_FORMAT, backup: null })
})

t.test('svc migrate on a held data dir exits non-zero with one line on stderr', async (t) => {
  const dir = t.testdir()
  mkdirSync(join(dir, 'store'))
  writeFileSync(join(dir, 'svc.lock'), String(process.ppid))
  const run = await svc('migrate', '--data-dir', dir, '--json')
  t.not(run.code, 0)
  t.equal(run.stdout, '')
  t.match(run.stderr, /^svc: data dir .* is in use by process \d+ \(stop it first\)\n$/)
})

/** Every entry under `dir` (itself included) whose mode is not the owner's only: 0700 for dirs, 0600 for files. */
const tooOpen = (dir: string): string[] => {
  const found: string[] = []
  const walk = (path: string) => {
    const st = statSync(path)
    const mode = st.mode & 0o777
    if (mode !== (st.isDirectory() ? 0o700 : 0o600)) found.push(`${path} ${mode.toString(8)}`)
    if (st.isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry))
  }
  walk(dir)
  return found
}

t.test("alice's data dir is her own: the dir 0700 and every file 0600, from init through snapshots, new journals and uploads", async (t) => {
  // No umask to lean on: each file must be created with its mode.
  const umask = process.umask(0)
  t.teardown(() => process.umask(umask))
  const dir = join(t.testdir(), 'svc-data')
  await initDataDir(dir)
  t.same(readdirSync(dir).sort(), ['config.json', 'images', 'meta.json', 'store'])
  t.same(tooOpen(dir), [], 'after init')

  const { domain, store } = await openWithStore(dir)
  const alice = await domain.users.accounts.create({ username: 'alice' })
  t.ok(existsSync(join(dir, 'svc.lock')))
  await domain.users.images.upload(alice, 'avatar', await flatImage(64, 64))
  await store.compact()
  await domain.users.accounts.create({ username: 'bob' })
  t.ok(existsSync(join(dir, 'store', 'snapshot-2.jsonl')) && existsSync(join(dir, 'store', 'journal-2.jsonl')), 'a snapshot and a new journal were written')
  t.same(tooOpen(dir), [], 'while open, after an upload, a snapshot and a journal switch')
  await domain.close()
})

t.test('init makes an empty dir made ready for svc its own, and leaves a dir holding other things as it is', async (t) => {
  const empty = t.testdir({ ready: {}, busy: { 'notes.txt': 'x' } })
  chmodSync(join(empty, 'ready'), 0o755)
  chmodSync(join(empty, 'busy'), 0o755)
  await initDataDir(join(empty, 'ready'))
  await initDataDir(join(empty, 'busy'))
  t.equal(statSync(join(empty, 'ready')).mode & 0o777, 0o700)
  t.equal(statSync(join(empty, 'busy')).mode & 0o777, 0o755)
})

t.test('a data dir that is a file is refused with one line saying so', async (t) => {
  const path = join(t.testdir({ 'svc-data': 'not a dir' }), 'svc-data')
  await t.rejects(openDomain(path), { code: 'invalid', message: `data dir ${path} is a file, not a directory: give --data-dir (or SVC_DATA_DIR) a directory` })
})

t.test('migrate refuses a missing data dir and creates nothing', async (t) => {
  const dir = join(t.testdir(), 'missing')
  await t.rejects(migrateDataDir(dir), { code: 'not_found', message: `no svc data dir at ${dir}: run svc init` })
  t.notOk(existsSync(dir))
})
