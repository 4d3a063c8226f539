/**
 * The index file: a clean close leaves one, the next open reads it instead of
 * every row, and any doubt about it (a compaction since, a damaged or
 * foreign file, a journal changed under it) falls back to the JSON files.
 */
import t from 'tap'
import { cpSync, readFileSync, statSync, utimesSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { FileStore } from '../../../../data/store/embedded/file-store.js'
import { readIndexFile, writeIndexFile } from '../../../../data/store/embedded/index-file.js'
import type { Key } from '../../../../data/store/port.js'
import { followRow, postRow, userRow } from '../../../fixtures/rows.js'

type Tap = Parameters<Parameters<typeof t.test>[0]>[0]

const storeDir = (dataDir: string): string => join(dataDir, 'store')
const indexFile = (dataDir: string): string => join(storeDir(dataDir), 'index.bin')

/** Every row of every table and some index answers, for comparing a store before and after. */
const everything = async (store: FileStore): Promise<unknown> => {
  const out: Record<string, unknown> = {}
  for (const name of Object.keys(store.stats().rows) as (keyof typeof store.read)[]) {
    const table = store.read[name]
    out[name] = await table.getMany(await table.scan({ limit: Infinity, order: 'asc' }))
  }
  out.hashtag = await store.read.posts.ids('hashtag', 'svc', { limit: 100 })
  out.timeline = await store.read.posts.idsAny('user', [1, 2], { limit: 100 })
  out.username = (await store.read.users.one('username', 'bob'))?.id
  out.followers = await store.read.follows.count('target', 1)
  return out
}

/** A compacted store with more written after its snapshot, closed: snapshot, journal and index file. */
async function closedStore(t: Tap): Promise<{ dir: string; before: unknown }> {
  const dir = t.testdir()
  const store = await FileStore.open(dir)
  const [alice, bob] = await store.transact((tx) => [tx.users.insert(userRow('alice')), tx.users.insert(userRow('bob'))])
  for (let i = 0; i < 40; i++) {
    await store.transact((tx) => {
      const post = tx.posts.insert(postRow(i % 2 ? alice.id : bob.id, `post ${i} ünïcode`, i % 3 ? [] : ['svc']))
      tx.posts.put({ ...post, thread_id: post.id })
    })
  }
  await store.compact()
  await store.transact((tx) => {
    tx.follows.insert(followRow(bob.id, alice.id))
    tx.posts.remove(3)
  })
  const before = await everything(store)
  await store.close()
  return { dir, before }
}

/** Overwrites the snapshot's last line (its header, which no row lookup reads) with garbage, keeping the file's size and time. */
function spoilSnapshotKeepingItsLooks(dir: string): void {
  const path = join(storeDir(dir), 'snapshot-2.jsonl')
  const { atime, mtime } = statSync(path)
  const bytes = readFileSync(path)
  bytes.fill(0x23, bytes.lastIndexOf(10, bytes.length - 2) + 1, bytes.length - 1)
  writeFileSync(path, bytes)
  utimesSync(path, atime, mtime)
}

t.test('a store closed cleanly opens from its index file, without reading the snapshot', async (t) => {
  const { dir, before } = await closedStore(t)
  t.ok(existsSync(indexFile(dir)), 'the close wrote an index file')
  // Were the snapshot read, its spoiled header would stop the open.
  spoilSnapshotKeepingItsLooks(dir)
  const again = await FileStore.open(dir)
  t.teardown(() => again.close())
  const after = (await everything(again)) as Record<string, unknown>
  const expected = before as Record<string, unknown>
  t.same(after.posts, expected.posts, 'the rows, read from the files the index points into')
  t.same(after.hashtag, expected.hashtag, 'the indexes, loaded')
  t.same(after.timeline, expected.timeline)
  t.same(after.username, expected.username)
  t.same(after.followers, expected.followers)
  t.equal((await again.transact((tx) => tx.posts.insert(postRow(1, 'next')))).id, 41, 'sequences go on where they were')
})

t.test('what was written after the index file is replayed from the journal, as after kill -9', async (t) => {
  const { dir } = await closedStore(t)
  const running = await FileStore.open(dir)
  await running.transact((tx) => {
    tx.posts.insert(postRow(1, 'after the index #svc', ['svc']))
    tx.users.put({ ...userRow('bob'), id: 2, name: 'Bobby' })
  })
  const expected = await everything(running)
  // A copy of the files as they are now: what a crash right here leaves.
  const crashed = join(dir, 'crashed')
  cpSync(storeDir(dir), storeDir(crashed), { recursive: true })
  await running.close()
  const again = await FileStore.open(crashed)
  t.teardown(() => again.close())
  t.same(await everything(again), expected)
})

t.test('a compaction removes the index file, and a later crash opens from the JSON files', async (t) => {
  const { dir, before } = await closedStore(t)
  const running = await FileStore.open(dir)
  await running.compact()
  t.notOk(existsSync(indexFile(dir)), 'it pointed into files the compaction removed')
  const crashed = join(dir, 'crashed')
  cpSync(storeDir(dir), storeDir(crashed), { recursive: true })
  await running.close()
  const again = await FileStore.open(crashed)
  t.teardown(() => again.close())
  t.same(await everything(again), before)
})

t.test('an index file that is damaged, foreign or out of date is not used', async (t) => {
  const cases: [string, (dir: string) => void][] = [
    ['cut short', (dir) => writeFileSync(indexFile(dir), readFileSync(indexFile(dir)).subarray(0, 300))],
    ['not an index file', (dir) => writeFileSync(indexFile(dir), 'hello\n')],
    [
      'written under another schema',
      (dir) => writeFileSync(indexFile(dir), readFileSync(indexFile(dir), 'latin1').replace(/"schema":"[0-9a-f]+"/, `"schema":"${'0'.repeat(64)}"`), 'latin1'),
    ],
    [
      'covering a journal changed since',
      (dir) => {
        const journal = join(storeDir(dir), 'journal-2.jsonl')
        writeFileSync(journal, readFileSync(journal, 'utf8').replace('"follows"', '"follows" '))
      },
    ],
  ]
  for (const [label, damage] of cases) {
    const { dir, before } = await closedStore(t)
    damage(dir)
    const again = await FileStore.open(dir)
    t.same(await everything(again), before, `${label}: the JSON files are read`)
    await again.close()
    spoilSnapshotKeepingItsLooks(dir)
    damage(dir)
    await t.rejects(FileStore.open(dir), { message: /snapshot .* is corrupt/ }, `${label}: proven by a spoiled snapshot stopping the open`)
  }
})

t.test('index keys of any text, an empty one or one with a newline included, come back as they were written', async (t) => {
  const dir = t.testdir()
  const coverage = { snapshot: 0, snapshotSize: 0, snapshotMtimeMs: 0, journal: 1, journalBytes: 0, journalSha256: '' }
  const state = (keys: Key[]) => ({
    seq: 3,
    ids: Float64Array.from([1, 2, 3]),
    files: Uint32Array.from([3, 3, 3]),
    offsets: Float64Array.from([0, 10, 20]),
    lengths: Uint32Array.from([9, 9, 9]),
    indexes: { name: { keys, starts: Uint32Array.from(keys.map((_, i) => i).concat(keys.length)), ids: Float64Array.from(keys.map((_, i) => i + 1)) } },
  })
  for (const keys of [[''], ['', 'a'], ['a\nb', 'c'], ['x', 'y'], [1, 'mixed']] as Key[][]) {
    await writeIndexFile(dir, coverage, new Map([['t', state(keys)]]))
    const read = await readIndexFile(dir, async () => true)
    t.same(read?.tables.get('t')?.indexes.name.keys, keys, JSON.stringify(keys))
  }
})
