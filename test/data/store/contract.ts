/**
 * What ANY store must do. The file store runs this suite; a PostgreSQL store
 * (`postgres/postgres-store.test.ts`) runs the very same one. `openStore` answers a fresh, empty
 * store each time; `reopenStore` closes a store and opens the same data
 * again; the suite closes every store it opens.
 */
import tap from 'tap'
import { DomainError, type EventRow, type Store } from '../../../data/index.js'
import { followRow, postRow, userRow } from '../../fixtures/rows.js'

type Tap = Parameters<Parameters<typeof tap.test>[0]>[0]
export type OpenStore = (t: Tap) => Promise<Store>
export type ReopenStore = (store: Store) => Promise<Store>

const tick = () => new Promise((resolve) => setImmediate(resolve))

export function storeContract(t: Tap, openStore: OpenStore, reopenStore: ReopenStore): void {
  const open = async (t: Tap): Promise<Store> => {
    const store = await openStore(t)
    t.teardown(() => store.close())
    return store
  }
  const reopen = async (t: Tap, store: Store): Promise<Store> => {
    const again = await reopenStore(store)
    t.teardown(() => again.close())
    return again
  }
  /** Every event row the store's listeners are handed from now on, one array per transaction. */
  const listen = (store: Store): (readonly EventRow[])[] => {
    const batches: (readonly EventRow[])[] = []
    store.onEvents((rows) => batches.push(rows))
    return batches
  }
  const eventRows = async (store: Store): Promise<EventRow[]> =>
    store.read.event_log.getMany(await store.read.event_log.scan({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' }))

  /** alice (1), bob (2) and carol (3); alice and bob post in turns: alice 1,3,5,7; bob 2,4,6. */
  const withPosts = async (t: Tap): Promise<Store> => {
    const store = await open(t)
    await store.transact((tx) => {
      for (const name of ['alice', 'bob', 'carol']) tx.users.insert(userRow(name))
      for (let i = 1; i <= 7; i++) tx.posts.insert(postRow(i % 2 === 1 ? 1 : 2, `post ${i}`, i % 3 === 0 ? ['svc', 'tea'] : []))
    })
    return store
  }

  t.test('absence is null or empty, never an error', async (t) => {
    const store = await open(t)
    t.equal(await store.read.users.get(1), null)
    t.equal(await store.read.users.one('username', 'nobody'), null)
    t.same(await store.read.users.getMany([1, 2]), [])
    t.same(await store.read.posts.ids('user', 1, { limit: 10 }), [])
    t.same(await store.read.posts.idsAny('user', [1, 2], { limit: 10 }), [])
    t.same(await store.read.posts.scan({ limit: 10 }), [])
    t.equal(await store.read.posts.count('user', 1), 0)
    t.equal(await store.read.posts.size(), 0)
  })

  t.test('the first row of every table gets id 1 and each table counts on its own', async (t) => {
    const store = await open(t)
    const [alice, post, bob] = await store.transact((tx) => [
      tx.users.insert(userRow('alice')),
      tx.posts.insert(postRow(1, 'hello')),
      tx.users.insert(userRow('bob')),
    ])
    t.equal(alice.id, 1)
    t.equal(post.id, 1)
    t.equal(bob.id, 2)
  })

  t.test('ids keep increasing and are never handed out again, even after the newest row is removed', async (t) => {
    const store = await open(t)
    const first = await store.transact((tx) => [tx.users.insert(userRow('alice')), tx.users.insert(userRow('bob'))])
    await store.transact((tx) => tx.users.remove(first[1].id))
    const carol = await store.transact((tx) => tx.users.insert(userRow('carol')))
    t.ok(carol.id > first[1].id, `carol's id ${carol.id} comes after bob's removed id ${first[1].id}`)
    t.equal(Number.isInteger(carol.id), true)
  })

  t.test('a committed row reads back whole, frozen, by id and by its unique key', async (t) => {
    const store = await open(t)
    const alice = await store.transact((tx) => tx.users.insert(userRow('alice')))
    const read = await store.read.users.get(alice.id)
    t.same(read, alice)
    t.ok(Object.isFrozen(read), 'rows are frozen: change them with put')
    t.same(await store.read.users.one('username', 'alice'), alice)
    t.equal(await store.read.users.size(), 1)
  })

  t.test('getMany answers the rows that exist, in the order asked', async (t) => {
    const store = await withPosts(t)
    const rows = await store.read.users.getMany([3, 99, 1, 2])
    t.same(
      rows.map((u) => u.username),
      ['carol', 'alice', 'bob'],
    )
  })

  t.test('put replaces a whole row and moves it between index keys', async (t) => {
    const store = await withPosts(t)
    const alice = (await store.read.users.get(1))!
    await store.transact((tx) => tx.users.put({ ...alice, username: 'alicia', username_key: 'alicia' }))
    t.equal(await store.read.users.one('username', 'alice'), null)
    t.equal((await store.read.users.one('username', 'alicia'))?.id, 1)
    const post = (await store.read.posts.get(3))!
    await store.transact((tx) => tx.posts.put({ ...post, user_id: 3 }))
    t.same(await store.read.posts.ids('user', 1, { limit: 10 }), [7, 5, 1])
    t.same(await store.read.posts.ids('user', 3, { limit: 10 }), [3])
  })

  t.test('put of a row under several keys moves only the keys that changed', async (t) => {
    const store = await withPosts(t)
    const post = (await store.read.posts.get(6))!
    const coffee = { ...post.entities, hashtags: [...post.entities.hashtags.slice(1), { pos: 0, len: 7, name: 'coffee' }] }
    await store.transact((tx) => tx.posts.put({ ...post, entities: coffee }))
    t.same(await store.read.posts.ids('hashtag', 'svc', { limit: 10 }), [3])
    t.same(await store.read.posts.ids('hashtag', 'tea', { limit: 10 }), [6, 3])
    t.same(await store.read.posts.ids('hashtag', 'coffee', { limit: 10 }), [6])
    await store.transact((tx) => tx.posts.put({ ...post, entities: { ...post.entities, hashtags: [] } }))
    t.same(await store.read.posts.ids('hashtag', 'tea', { limit: 10 }), [3])
    t.equal(await store.read.posts.count('hashtag', 'coffee'), 0)
  })

  t.test('remove takes a row out of the table and of every index', async (t) => {
    const store = await withPosts(t)
    await store.transact((tx) => {
      tx.posts.remove(3)
      tx.users.remove(3)
    })
    t.equal(await store.read.posts.get(3), null)
    t.equal(await store.read.posts.count('user', 1), 3)
    t.same(await store.read.posts.ids('hashtag', 'svc', { limit: 10 }), [6])
    t.equal(await store.read.users.one('username', 'carol'), null)
    t.equal(await store.read.posts.size(), 6)
  })

  t.test('a row is found under each key its index derives from it', async (t) => {
    const store = await withPosts(t)
    t.same(await store.read.posts.ids('hashtag', 'svc', { limit: 10 }), [6, 3])
    t.same(await store.read.posts.ids('hashtag', 'tea', { limit: 10 }), [6, 3])
    t.equal(await store.read.posts.count('hashtag', 'svc'), 2)
  })

  t.test('id windows answer newest first by default and oldest first with asc', async (t) => {
    const store = await withPosts(t)
    const posts = store.read.posts
    t.same(await posts.ids('user', 1, { limit: 10 }), [7, 5, 3, 1])
    t.same(await posts.ids('user', 1, { limit: 2 }), [7, 5], 'desc takes the newest')
    t.same(await posts.ids('user', 1, { limit: 2, order: 'asc' }), [1, 3], 'asc takes the oldest')
    t.same(await posts.ids('user', 1, { limit: 0 }), [])
    t.equal(await posts.count('user', 1), 4)
    t.equal(await posts.count('user', 2), 3)
  })

  t.test('since and before bound a window strictly on both sides', async (t) => {
    const store = await withPosts(t)
    const posts = store.read.posts
    t.same(await posts.ids('user', 1, { since: 1, before: 7, limit: 10 }), [5, 3])
    t.same(await posts.ids('user', 1, { since: 1, before: 7, limit: 1 }), [5], 'desc takes the one nearest before')
    t.same(await posts.ids('user', 1, { since: 1, before: 7, limit: 1, order: 'asc' }), [3], 'asc takes the one nearest since')
    t.same(await posts.ids('user', 1, { since: 2, limit: 10, order: 'asc' }), [3, 5, 7])
    t.same(await posts.ids('user', 1, { before: 2, limit: 10 }), [1])
    t.same(await posts.ids('user', 1, { since: 7, limit: 10 }), [])
    t.same(await posts.ids('user', 1, { since: 5, before: 5, limit: 10 }), [])
  })

  t.test('idsAny merges several keys into one window without repeats', async (t) => {
    const store = await withPosts(t)
    const posts = store.read.posts
    t.same(await posts.idsAny('user', [1, 2], { limit: 10 }), [7, 6, 5, 4, 3, 2, 1])
    t.same(await posts.idsAny('user', [2, 1], { limit: 3 }), [7, 6, 5])
    t.same(await posts.idsAny('user', [1, 2], { since: 2, before: 6, limit: 10, order: 'asc' }), [3, 4, 5])
    t.same(await posts.idsAny('hashtag', ['svc', 'tea'], { limit: 10 }), [6, 3], 'a post under two keys comes once')
    t.same(await posts.idsAny('user', [], { limit: 10 }), [])
  })

  t.test('scan windows every id of a table and can filter rows', async (t) => {
    const store = await withPosts(t)
    const posts = store.read.posts
    t.same(await posts.scan({ limit: 3 }), [7, 6, 5])
    t.same(await posts.scan({ limit: 3, order: 'asc', since: 4 }), [5, 6, 7])
    t.same(await posts.scan({ limit: 2, before: 7 }, (p) => p.user_id === 2), [6, 4], 'the limit counts matching rows')
    t.same(await posts.scan({ limit: 10, order: 'asc' }, (p) => p.entities.hashtags.length > 0), [3, 6])
  })

  t.test('transact answers what its work answers, once the writes are visible', async (t) => {
    const store = await open(t)
    const answer = await store.transact((tx) => {
      tx.users.insert(userRow('alice'))
      return 'done'
    })
    t.equal(answer, 'done')
    t.equal((await store.read.users.one('username', 'alice'))?.username, 'alice')
  })

  t.test('a transaction whose work throws keeps nothing it wrote', async (t) => {
    const store = await withPosts(t)
    const oops = new Error('robo changed its mind')
    await t.rejects(
      store.transact(async (tx) => {
        tx.users.insert(userRow('robo'))
        tx.posts.remove(1)
        const bob = (await tx.users.get(2))!
        tx.users.put({ ...bob, name: 'Robert' })
        throw oops
      }),
      oops,
    )
    t.equal(await store.read.users.one('username', 'robo'), null)
    t.ok(await store.read.posts.get(1), 'the removed post is still there')
    t.equal((await store.read.users.get(2))?.name, 'Bob')
    const dave = await store.transact((tx) => tx.users.insert(userRow('dave')))
    t.equal((await store.read.users.get(dave.id))?.username, 'dave', 'the store keeps working after a failed transaction')
  })

  t.test('a unique clash rejects with conflict and rolls back the whole transaction', async (t) => {
    const store = await withPosts(t)
    const err = await store
      .transact((tx) => {
        tx.posts.insert(postRow(3, 'carol was here'))
        tx.follows.insert(followRow(3, 1))
        tx.users.insert(userRow('Alice'))
      })
      .then(
        () => null,
        (e: unknown) => e,
      )
    t.ok(err instanceof DomainError && err.code === 'conflict', `rejects with conflict (got ${String(err)})`)
    t.equal(await store.read.posts.size(), 7, 'the post written before the clash is gone')
    t.equal(await store.read.follows.size(), 0)
    t.equal((await store.read.users.one('username', 'alice'))?.name, 'Alice', 'the row that was there is untouched')
  })

  t.test('two rows of one transaction may not share a unique key either', async (t) => {
    const store = await withPosts(t)
    await t.rejects(
      store.transact((tx) => {
        tx.follows.insert(followRow(1, 2))
        tx.follows.insert(followRow(1, 2))
      }),
      { code: 'conflict' },
    )
    t.equal(await store.read.follows.count('user', 1), 0)
  })

  t.test('putting a row with its own unique key again is no clash', async (t) => {
    const store = await withPosts(t)
    const alice = (await store.read.users.get(1))!
    await store.transact((tx) => tx.users.put({ ...alice, name: 'Alice A.' }))
    t.equal((await store.read.users.one('username', 'alice'))?.name, 'Alice A.')
  })

  t.test('reads inside a transaction see the state before its own writes', async (t) => {
    const store = await withPosts(t)
    await store.transact(async (tx) => {
      const robo = tx.users.insert(userRow('robo'))
      t.equal(await tx.users.get(robo.id), null)
      t.equal(await tx.users.one('username', 'robo'), null)
      tx.posts.remove(1)
      t.ok(await tx.posts.get(1))
      t.equal(await tx.posts.count('user', 1), 4)
    })
    t.equal((await store.read.users.one('username', 'robo'))?.type, 'bot')
    t.equal(await store.read.posts.get(1), null)
  })

  t.test('transactions run one at a time, so a read-then-write is never lost', async (t) => {
    const store = await withPosts(t)
    const rename = (suffix: string) =>
      store.transact(async (tx) => {
        const alice = (await tx.users.get(1))!
        await tick()
        tx.users.put({ ...alice, name: alice.name + suffix })
      })
    await Promise.all([rename('!'), rename('?'), rename('.')])
    t.equal((await store.read.users.get(1))?.name, 'Alice!?.', 'each saw the one before it, in the order asked')
  })

  t.test('concurrent inserts all land, with distinct increasing ids', async (t) => {
    const store = await open(t)
    const names = Array.from({ length: 50 }, (_, i) => `user${i}`)
    const rows = await Promise.all(names.map((name) => store.transact((tx) => tx.users.insert(userRow(name)))))
    const ids = rows.map((r) => r.id)
    t.same(
      ids,
      [...ids].sort((a, b) => a - b),
      'ids follow the order of the calls',
    )
    t.equal(new Set(ids).size, 50)
    t.equal(await store.read.users.size(), 50)
  })

  t.test('a transaction kept past its end refuses to write', async (t) => {
    const store = await open(t)
    let kept: Parameters<Parameters<Store['transact']>[0]>[0] | null = null
    await store.transact((tx) => {
      kept = tx
    })
    t.throws(() => kept!.users.insert(userRow('robo')))
    t.equal(await store.read.users.size(), 0)
  })

  t.test('emit keeps an event with the writes of its transaction, numbered by the event_log id, and hands it on before transact resolves', async (t) => {
    const store = await open(t)
    const batches = listen(store)
    const alice = await store.transact((tx) => {
      const alice = tx.users.insert(userRow('alice'))
      tx.emit('user.created', { user: alice })
      return alice
    })
    t.equal(batches.length, 1, 'the listener ran before transact resolved')
    const [row] = batches[0]
    t.match(row, { id: 1, name: 'user.created', payload: { user: { id: alice.id, username: 'alice' } } })
    t.ok(Number.isInteger(row.at) && row.at <= Date.now(), 'stamped with the time in ms')
    t.same(await eventRows(store), [row], 'the event is a row of event_log')
    const [bob, carol] = await store.transact((tx) => {
      const people = [tx.users.insert(userRow('bob')), tx.users.insert(userRow('carol'))]
      for (const user of people) tx.emit('user.created', { user })
      return people
    })
    t.same(
      batches[1].map((e) => [e.id, e.payload]),
      [
        [2, { user: bob }],
        [3, { user: carol }],
      ],
      'one batch per transaction, in the order emitted',
    )
  })

  t.test('concurrent transactions hand their events on in seq order, each once', async (t) => {
    const store = await open(t)
    const seen: number[] = []
    store.onEvents((rows) => seen.push(...rows.map((r) => r.id)))
    const names = Array.from({ length: 30 }, (_, i) => `user${i}`)
    await Promise.all(
      names.map((name) =>
        store.transact(async (tx) => {
          const user = tx.users.insert(userRow(name))
          await tick()
          tx.emit('user.created', { user })
        }),
      ),
    )
    t.same(
      seen,
      names.map((_, i) => i + 1),
    )
  })

  t.test('a transaction that throws or clashes emits nothing, and a listener that throws breaks no commit', async (t) => {
    const store = await withPosts(t)
    const batches = listen(store)
    await t.rejects(
      store.transact((tx) => {
        tx.emit('user.created', { user: { ...userRow('robo'), id: 99 } })
        throw new Error('robo changed its mind')
      }),
    )
    await t.rejects(
      store.transact((tx) => {
        const user = tx.users.insert(userRow('Alice'))
        tx.emit('user.created', { user })
      }),
      { code: 'conflict' },
    )
    t.same(batches, [], 'nothing handed on')
    t.same(await eventRows(store), [], 'nothing kept')
    const warnings: string[] = []
    const onWarning = (w: Error) => warnings.push(w.message)
    process.on('warning', onWarning)
    t.teardown(() => process.off('warning', onWarning))
    store.onEvents(() => {
      throw new Error('a broken listener')
    })
    const dave = await store.transact((tx) => {
      const dave = tx.users.insert(userRow('dave'))
      tx.emit('user.created', { user: dave })
      return dave
    })
    t.equal((await store.read.users.get(dave.id))?.username, 'dave', 'the commit stands')
    t.equal(batches.length, 1, 'the other listener still got it')
    await tick()
    t.match(warnings, [/a broken listener/])
  })

  t.test('events survive closing and reopening, and their sequence goes on after the last one', async (t) => {
    const first = await openStore(t)
    const alice = await first.transact((tx) => {
      const alice = tx.users.insert(userRow('alice'))
      tx.emit('user.created', { user: alice })
      return alice
    })
    await first.transact((tx) => tx.emit('user.updated', { user: alice }))
    const kept = await eventRows(first)
    const store = await reopen(t, first)
    t.same(await eventRows(store), kept)
    t.same(
      kept.map((e) => e.name),
      ['user.created', 'user.updated'],
    )
    const batches = listen(store)
    await store.transact((tx) => tx.emit('user.updated', { user: alice }))
    t.equal(batches[0][0].id, 3)
  })

  t.test('removeBelow removes every row under an id in one op, atomically, and the ids stay spent', async (t) => {
    const store = await withPosts(t)
    await store.transact((tx) => tx.posts.removeBelow(4))
    t.same(await store.read.posts.scan({ limit: 10, order: 'asc' }), [4, 5, 6, 7])
    t.same(await store.read.posts.ids('user', 1, { limit: 10 }), [7, 5], 'gone from the indexes too')
    t.same(await store.read.posts.ids('hashtag', 'svc', { limit: 10 }), [6])
    await store.transact((tx) => tx.posts.removeBelow(2))
    t.equal(await store.read.posts.size(), 4, 'below the oldest row: nothing to do')
    await t.rejects(
      store.transact((tx) => {
        tx.posts.removeBelow(7)
        tx.users.insert(userRow('Alice'))
      }),
      { code: 'conflict' },
    )
    t.same(await store.read.posts.scan({ limit: 10, order: 'asc' }), [4, 5, 6, 7], 'a clash after it puts the rows back')
    t.same(await store.read.posts.ids('user', 1, { limit: 10 }), [7, 5])
    await store.transact((tx) => tx.posts.removeBelow(100))
    t.equal(await store.read.posts.size(), 0)
    const again = await reopen(t, store)
    t.equal(await again.read.posts.size(), 0, 'the removal is durable')
    const post = await again.transact((tx) => tx.posts.insert(postRow(1, 'after the trim')))
    t.ok(post.id >= 100, `ids under the trim are never handed out again (got ${post.id})`)
  })

  t.test('trimming the front of the event log keeps the rest, across a reopen', async (t) => {
    const first = await openStore(t)
    for (let i = 0; i < 5; i++) await first.transact((tx) => tx.emit('user.created', { user: { ...userRow(`user${i}`), id: i + 1 } }))
    await first.transact((tx) => tx.event_log.removeBelow(4))
    const store = await reopen(t, first)
    t.same(
      (await eventRows(store)).map((e) => e.id),
      [4, 5],
    )
  })

  t.test('a closed store refuses transactions', async (t) => {
    const store = await openStore(t)
    await store.close()
    await t.rejects(
      store.transact((tx) => tx.users.insert(userRow('alice'))),
      { code: 'unavailable' },
    )
  })
}
