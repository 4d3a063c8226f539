import t from 'tap'
import { spawnSync } from 'node:child_process'
import { appendFileSync, existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { FileStore } from '../../../../data/store/embedded/file-store.js'
import { fileStoreContract } from './file-store-contract.js'
import { followRow, postRow, userRow } from '../../../fixtures/rows.js'

t.test('the file store keeps the store contract', async (t) => fileStoreContract(t))

type Tap = Parameters<Parameters<typeof t.test>[0]>[0]

const storeDir = (dataDir: string): string => join(dataDir, 'store')

/** Every row of every table, for comparing a store before and after. */
const everything = async (store: FileStore): Promise<Record<string, unknown[]>> => {
  const out: Record<string, unknown[]> = {}
  for (const name of Object.keys(store.stats().rows) as (keyof typeof store.read)[]) {
    const table = store.read[name]
    out[name] = await table.getMany(await table.scan({ limit: Infinity, order: 'asc' }))
  }
  return out
}

type Sync = () => Promise<void>

/** Replaces a FileHandle's fsync (`sync`) or fdatasync (`datasync`) on every handle (the journal's included) until the test ends. */
const replaceHandleSync = async (t: Tap, dir: string, method: 'sync' | 'datasync', make: (original: Sync) => Sync): Promise<void> => {
  const probe = await open(join(dir, 'probe'), 'w')
  const proto = Object.getPrototypeOf(probe) as Record<'sync' | 'datasync', Sync>
  await probe.close()
  const original = proto[method]
  proto[method] = make(original)
  t.teardown(() => {
    proto[method] = original
  })
}

const people = (store: FileStore, names: string[]) => store.transact((tx) => names.map((name) => tx.users.insert(userRow(name))))

t.test('committed writes survive closing and reopening the store', async (t) => {
  const dir = t.testdir()
  const store = await FileStore.open(dir)
  const [alice, bob] = await people(store, ['alice', 'bob'])
  await store.transact((tx) => {
    tx.posts.insert(postRow(alice.id, 'hello from alice', ['svc']))
    tx.users.put({ ...bob, name: 'Bobby' })
  })
  const before = await everything(store)
  await store.close()
  const again = await FileStore.open(dir)
  t.teardown(() => again.close())
  t.same(await everything(again), before)
  t.same(await again.read.posts.ids('hashtag', 'svc', { limit: 5 }), [1])
})

t.test('an id removed before a restart is not handed out again, with or without a snapshot', async (t) => {
  const dir = t.testdir()
  let store = await FileStore.open(dir)
  const [, , carol] = await people(store, ['alice', 'bob', 'carol'])
  await store.transact((tx) => tx.users.remove(carol.id))
  await store.close()
  store = await FileStore.open(dir)
  const dave = (await people(store, ['dave']))[0]
  t.equal(dave.id, 4)
  await store.transact((tx) => tx.users.remove(dave.id))
  await store.compact()
  await store.close()
  store = await FileStore.open(dir)
  t.teardown(() => store.close())
  t.equal((await people(store, ['erin']))[0].id, 5)
})

t.test('a torn last journal line is cut off and the store opens with everything before it', async (t) => {
  const dir = t.testdir()
  const store = await FileStore.open(dir)
  await people(store, ['alice'])
  await store.close()
  const journal = join(storeDir(dir), 'journal-1.jsonl')
  const whole = readFileSync(journal, 'utf8')
  appendFileSync(journal, '[["p","users",{"id":2,"username":"bo')
  const again = await FileStore.open(dir)
  t.teardown(() => again.close())
  t.equal(await again.read.users.size(), 1)
  t.equal(readFileSync(journal, 'utf8'), whole, 'the torn tail is gone from the file')
  t.equal((await people(again, ['bob']))[0].id, 2, 'writing goes on after the cut')
})

t.test('a corrupt line in the middle of the journal refuses to open with a clear error', async (t) => {
  const dir = t.testdir()
  const store = await FileStore.open(dir)
  await people(store, ['alice'])
  await people(store, ['bob'])
  await store.close()
  const journal = join(storeDir(dir), 'journal-1.jsonl')
  const [first, second] = readFileSync(journal, 'utf8').split('\n')
  writeFileSync(journal, `${first}\n${second.slice(0, 10)}#garbage\n${first}\n`)
  await t.rejects(FileStore.open(dir), { message: /journal .*journal-1\.jsonl is corrupt at byte \d+ \(line 2\)/ })
  const again = await FileStore.open(dir).catch(() => null)
  t.equal(again, null, 'the failed open released the lock and still refuses')
})

/**
 * A store compacted once, with the journal that compaction deleted put back:
 * the files a crash before the end of the compaction leaves.
 */
const compactedWithOldJournal = async (dir: string): Promise<Record<string, unknown[]>> => {
  const store = await FileStore.open(dir)
  await people(store, ['alice', 'bob'])
  const oldJournal = readFileSync(join(storeDir(dir), 'journal-1.jsonl'))
  await store.compact()
  await people(store, ['carol'])
  const before = await everything(store)
  await store.close()
  writeFileSync(join(storeDir(dir), 'journal-1.jsonl'), oldJournal)
  return before
}

t.test('a torn line at the end of an older journal is corruption, not a crash tail', async (t) => {
  const dir = t.testdir()
  const store = await FileStore.open(dir)
  await people(store, ['alice'])
  await store.close()
  const journal = join(storeDir(dir), 'journal-1.jsonl')
  const line = readFileSync(journal, 'utf8')
  appendFileSync(journal, '[["p","users",{"id":2')
  // A newer journal exists only once every line of the older one was durable.
  writeFileSync(join(storeDir(dir), 'journal-2.jsonl'), line.replace('"id":1', '"id":3').replace('alice', 'carol'))
  await t.rejects(FileStore.open(dir), { message: /journal-1\.jsonl is corrupt/ })
})

t.test('a compaction interrupted before its rename is recovered from the journals', async (t) => {
  const dir = t.testdir()
  const before = await compactedWithOldJournal(dir)
  const snapshot = join(storeDir(dir), 'snapshot-2.jsonl')
  writeFileSync(`${snapshot}.tmp`, readFileSync(snapshot).subarray(0, 20))
  unlinkSync(snapshot)
  const again = await FileStore.open(dir)
  t.teardown(() => again.close())
  t.same(await everything(again), before)
  t.notOk(
    readdirSync(storeDir(dir)).some((f) => f.endsWith('.tmp')),
    'the tmp file is removed',
  )
})

t.test('a compaction that renamed its snapshot but kept the old journal opens from the snapshot', async (t) => {
  const dir = t.testdir()
  const before = await compactedWithOldJournal(dir)
  const again = await FileStore.open(dir)
  t.teardown(() => again.close())
  t.same(await everything(again), before)
  t.same(
    readdirSync(storeDir(dir)).sort(),
    ['index.bin', 'journal-2.jsonl', 'snapshot-2.jsonl'],
    'the old journal is gone; the index file of the last close stays',
  )
})

t.test('after a compaction the reopened store equals the store before it', async (t) => {
  const dir = t.testdir()
  const store = await FileStore.open(dir)
  const users = await people(store, ['alice', 'bob', 'carol', 'robo'])
  for (let i = 0; i < 60; i++) {
    await store.transact((tx) => {
      const post = tx.posts.insert(postRow(users[i % 4].id, `post ${i}`, i % 5 === 0 ? ['svc'] : []))
      if (i % 7 === 0) tx.follows.insert(followRow(users[i % 4].id, 100 + i))
      if (i % 9 === 0) tx.posts.remove(post.id - 1)
    })
  }
  const before = await everything(store)
  const seq = (await people(store, ['dave']))[0].id
  await store.transact((tx) => tx.users.remove(seq))
  await store.compact()
  t.equal(store.stats().journalBytes, 0, 'the journal restarts empty')
  await store.close()
  const again = await FileStore.open(dir)
  t.teardown(() => again.close())
  t.same(await everything(again), before)
  t.same(await again.read.posts.ids('hashtag', 'svc', { limit: 100 }), await store.read.posts.ids('hashtag', 'svc', { limit: 100 }))
  t.equal((await people(again, ['erin']))[0].id, seq + 1)
})

t.test('commits made while a compaction runs are all kept', async (t) => {
  const dir = t.testdir()
  const store = await FileStore.open(dir)
  const [alice] = await people(store, ['alice'])
  await Promise.all(Array.from({ length: 300 }, (_, i) => store.transact((tx) => tx.posts.insert(postRow(alice.id, `early ${i}`)))))
  const compaction = store.compact()
  const writes = Array.from({ length: 300 }, (_, i) =>
    store.transact(async (tx) => {
      if (i % 3 === 0) tx.posts.remove(i + 1)
      else tx.posts.insert(postRow(alice.id, `during ${i}`))
    }),
  )
  await Promise.all([compaction, ...writes])
  const before = await everything(store)
  await store.close()
  const again = await FileStore.open(dir)
  t.teardown(() => again.close())
  t.same(await everything(again), before)
})

t.test('compact() asked during a compaction resolves only once a snapshot covers what came before the call', async (t) => {
  const dir = t.testdir()
  const store = await FileStore.open(dir)
  t.teardown(() => store.close())
  await people(store, ['alice'])
  // The first compaction's snapshot waits for its fsync (files only: directories' fsyncs and the journal's fdatasync go on) until the others are asked.
  let release = () => {}
  const asked = new Promise<void>((resolve) => (release = resolve))
  await replaceHandleSync(
    t,
    dir,
    'sync',
    (original) =>
      async function (this: FileHandle) {
        if ((await this.stat()).isFile()) await asked
        return original.call(this)
      },
  )
  const first = store.compact()
  await people(store, ['bob'])
  const second = store.compact()
  const third = store.compact()
  release()
  t.equal(second, third, 'callers that ask meanwhile share the follow-up')
  await Promise.all([first, second])
  t.equal(store.stats().journalBytes, 0, "bob's commit is in the snapshot, not left in the journal")
  t.same(readdirSync(storeDir(dir)).sort(), ['journal-3.jsonl', 'snapshot-3.jsonl'])
})

t.test('closing during a compaction waits for it and loses nothing', async (t) => {
  const dir = t.testdir()
  const store = await FileStore.open(dir)
  await people(store, ['alice', 'bob', 'carol'])
  const compaction = store.compact()
  const late = store.transact((tx) => tx.users.insert(userRow('robo')))
  await Promise.all([store.close(), compaction, late])
  await t.rejects(store.compact(), { code: 'unavailable' })
  const before = await everything(store)
  t.equal(before.users.length, 4)
  const again = await FileStore.open(dir)
  t.teardown(() => again.close())
  t.same(await everything(again), before)
})

t.test('concurrent transactions share fsyncs (group commit)', async (t) => {
  const dir = t.testdir()
  const store = await FileStore.open(dir)
  t.teardown(() => store.close())
  let syncs = 0
  await replaceHandleSync(
    t,
    dir,
    'datasync',
    (original) =>
      function (this: unknown) {
        syncs++
        return original.call(this)
      },
  )
  const rows = await Promise.all(Array.from({ length: 200 }, (_, i) => store.transact((tx) => tx.users.insert(userRow(`user${i}`)))))
  t.equal(rows.length, 200)
  t.ok(syncs >= 1, 'the commits were fsynced')
  t.ok(syncs <= 10, `200 commits took ${syncs} fdatasync calls`)
  syncs = 0
  await store.transact((tx) => tx.users.insert(userRow('alice')))
  t.equal(syncs, 1, 'a lone commit still waits for its own fsync')
})

t.test('a row that cannot be serialised fails its transaction and leaves the tables alone', async (t) => {
  const dir = t.testdir()
  const store = await FileStore.open(dir)
  t.teardown(() => store.close())
  await t.rejects(
    store.transact((tx) => {
      tx.users.insert(userRow('alice'))
      tx.users.insert({ ...userRow('robo'), annotations: [{ type: 'x', value: { big: 1n } }] })
    }),
    TypeError,
  )
  t.equal(await store.read.users.size(), 0)
  t.equal((await people(store, ['bob']))[0].username, 'bob')
})

t.test('after a failed fsync the store refuses every later write', async (t) => {
  const dir = t.testdir()
  const store = await FileStore.open(dir)
  t.teardown(() => store.close().catch(() => undefined))
  let failing = true
  await replaceHandleSync(
    t,
    dir,
    'datasync',
    (original) =>
      function (this: unknown) {
        return failing ? Promise.reject(Object.assign(new Error('EIO: disk on fire'), { code: 'EIO' })) : original.call(this)
      },
  )
  await t.rejects(
    store.transact((tx) => tx.users.insert(userRow('alice'))),
    { code: 'unavailable', message: /disk on fire/ },
  )
  failing = false
  await t.rejects(
    store.transact((tx) => tx.users.insert(userRow('bob'))),
    { code: 'unavailable', message: /restart svc/ },
  )
})

t.test('a lock left by a dead process does not stop the next start', async (t) => {
  const dir = t.testdir()
  const dead = spawnSync(process.execPath, ['-e', '']).pid
  writeFileSync(join(dir, 'svc.lock'), String(dead))
  const store = await FileStore.open(dir)
  t.match(readFileSync(join(dir, 'svc.lock'), 'utf8'), new RegExp(`^${process.pid}( \\d+)?$`))
  await store.close()
  t.notOk(existsSync(join(dir, 'svc.lock')), 'closing releases the lock')
})

t.test('a lock whose pid now belongs to another process is taken over', async (t) => {
  const dir = t.testdir()
  // The parent is alive, but it did not start at tick 1: that pid was reused.
  writeFileSync(join(dir, 'svc.lock'), `${process.ppid} 1`)
  const store = await FileStore.open(dir)
  t.match(readFileSync(join(dir, 'svc.lock'), 'utf8'), new RegExp(`^${process.pid}\\b`))
  await store.close()
})

t.test('a data dir held by a live process is refused with a clear conflict', async (t) => {
  const dir = t.testdir()
  writeFileSync(join(dir, 'svc.lock'), String(process.ppid))
  await t.rejects(FileStore.open(dir), { code: 'conflict', message: `data dir ${dir} is in use by process ${process.ppid} (stop it first)` })
  t.equal(readFileSync(join(dir, 'svc.lock'), 'utf8'), String(process.ppid), 'the live lock is left alone')
})

t.test('one process cannot open the same data dir twice', async (t) => {
  const dir = t.testdir()
  const store = await FileStore.open(dir)
  await t.rejects(FileStore.open(dir), { code: 'conflict', message: /already open in this process/ })
  await store.close()
  const again = await FileStore.open(dir)
  await again.close()
})
