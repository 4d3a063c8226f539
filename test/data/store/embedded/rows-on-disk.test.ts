/**
 * Rows live on disk and are read back when asked for. With a cache of one
 * byte per table every read goes to the files, so these tests see
 * what a store far bigger than its cache does.
 */
import t from 'tap'
import { appendFileSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { FileStore } from '../../../../data/store/embedded/file-store.js'
import { fileStoreContract } from './file-store-contract.js'
import { postRow, userRow } from '../../../fixtures/rows.js'

const TINY_CACHE = { cacheBytes: 1 }

t.test('the store contract holds when every read goes to disk', async (t) => fileStoreContract(t, TINY_CACHE))

const texts = async (store: FileStore, ids: number[]): Promise<string[]> => (await store.read.posts.getMany(ids)).map((p) => p.text)

t.test('rows written during compactions are read back whole, from the files that are left', async (t) => {
  const dir = t.testdir()
  const store = await FileStore.open(dir, { ...TINY_CACHE, compactBytes: 4096 })
  const [alice] = await store.transact((tx) => [tx.users.insert(userRow('alice'))])
  const expected = new Map<number, string>()
  const writes: Promise<unknown>[] = []
  for (let i = 0; i < 400; i++) {
    const text = `post ${i} ${'é'.repeat(i % 7)}`
    writes.push(
      store.transact((tx) => {
        const post = tx.posts.insert(postRow(alice.id, text))
        tx.posts.put({ ...post, thread_id: post.id })
        expected.set(post.id, text)
      }),
    )
    // Edits of older rows while snapshots copy them.
    if (i % 10 === 9) {
      const id = i - 5
      writes.push(
        store.transact(async (tx) => {
          const old = await tx.posts.get(id)
          if (old) tx.posts.put({ ...old, text: `edited ${id}` })
          expected.set(id, `edited ${id}`)
        }),
      )
    }
  }
  await Promise.all(writes)
  await store.compact()
  const ids = [...expected.keys()].sort((a, b) => a - b)
  t.same(
    await texts(store, ids),
    ids.map((id) => expected.get(id)),
    'every row as last written',
  )
  const files = readdirSync(join(dir, 'store')).filter((f) => f.endsWith('.jsonl'))
  t.ok(files.length <= 2, `only the last snapshot and journal are left: ${files.join(', ')}`)
  t.ok(store.stats().snapshots > 2, `several compactions ran: ${store.stats().snapshots}`)
  await store.close()
  const again = await FileStore.open(dir, TINY_CACHE)
  t.teardown(() => again.close())
  t.same(
    await texts(again, ids),
    ids.map((id) => expected.get(id)),
    'the same after reopening',
  )
  t.same(await again.read.posts.ids('user', alice.id, { limit: 3 }), ids.slice(-3).reverse())
})

t.test('a journal line edited by hand still opens, and the next snapshot writes its rows out', async (t) => {
  const dir = t.testdir()
  const store = await FileStore.open(dir, TINY_CACHE)
  const [alice] = await store.transact((tx) => [tx.users.insert(userRow('alice'))])
  await store.close()
  // The same op as svc writes it, but spaced and escaped as a person or another tool might.
  const row = { ...postRow(alice.id, 'caf\u00e9'), id: 1, thread_id: 1 }
  const edited = JSON.stringify([['p', 'posts', row]], null, 0)
    .replace('café', 'caf\\u00e9')
    .replace('["p",', '[ "p", ')
  appendFileSync(join(dir, 'store', 'journal-1.jsonl'), edited + '\n')
  const again = await FileStore.open(dir, TINY_CACHE)
  t.equal((await again.read.posts.get(1))?.text, 'café', 'the edited line is read')
  await again.transact((tx) => void tx.users.insert(userRow('bob')))
  t.equal((await again.read.users.get(1))?.username, 'alice', 'the rows around it are read from disk')
  await again.compact()
  t.match(readFileSync(join(dir, 'store', 'snapshot-2.jsonl'), 'utf8'), /"text":"café"/, 'the snapshot holds it as svc writes it')
  t.equal((await again.read.posts.get(1))?.text, 'café')
  await again.close()
  const third = await FileStore.open(dir, TINY_CACHE)
  t.teardown(() => third.close())
  t.equal((await third.read.posts.get(1))?.text, 'café')
  t.equal((await third.read.users.get(2))?.username, 'bob')
})
