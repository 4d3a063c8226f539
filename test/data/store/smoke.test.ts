import t from 'tap'
import { FileStore } from '../../../data/store/file-store.js'

t.test('a committed row survives reopening the store', async (t) => {
  const dir = t.testdir()
  const store = await FileStore.open(dir)
  const alice = await store.transact((tx) =>
    tx.users.insert({
      username: 'alice', username_key: 'alice', name: 'Alice', type: 'human', locale: 'en_US', timezone: 'UTC',
      description: { text: '', entities: { mentions: [], hashtags: [], links: [] } }, annotations: [], created_at: 'x',
    }),
  )
  t.equal(alice.id, 1)
  await store.close()
  const again = await FileStore.open(dir)
  t.equal((await again.read.users.one('username', 'alice'))?.id, 1)
  await again.compact()
  await again.close()
  const third = await FileStore.open(dir)
  t.equal((await third.read.users.get(1))?.name, 'Alice')
  await third.close()
})
