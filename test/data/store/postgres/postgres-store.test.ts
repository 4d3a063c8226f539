/**
 * The PostgreSQL store against the same contract as the file store, each
 * store in a schema of its own; then what only it has to show: its schema's
 * migrations, and one commit order when two stores (two nodes) write at once.
 */
import t from 'tap'
import { settleOn } from '../../../fixtures/wait.js'
import { PostgresStore } from '../../../../data/store/postgres/postgres-store.js'
import { migratePostgres, PG_FORMAT, pgMigrations } from '../../../../data/store/postgres/pg-schema.js'
import { connect } from '../../../../data/store/postgres/postgres-store.js'
import { pgSchema, pgUnavailable, PG_URL, readyPgSchema } from '../../../fixtures/postgres.js'
import { storeContract } from '../contract.js'
import { Bus } from '../../../../data/bus/bus.js'
import { REDIS_URL, redisUnavailable } from '../../../fixtures/redis.js'
import { userRow } from '../../../fixtures/rows.js'

const skip = await pgUnavailable()

t.test('the PostgreSQL store keeps the store contract', { skip }, async (t) => {
  const schemas = new Map<unknown, string>()
  const openIn = async (schema: string) => {
    const store = await PostgresStore.open(PG_URL, { schema, migrate: true, max: 4 })
    schemas.set(store, schema)
    return store
  }
  storeContract(
    t,
    // Each story's schema is emptied for the next rather than made anew: making svc's tables costs the server about half a second.
    async (t) => openIn(await readyPgSchema(t)),
    async (store) => {
      await store.close()
      return openIn(schemas.get(store) as string)
    },
  )
})

t.test('a database without svc schema is refused until migrated, and migrating twice changes nothing', { skip }, async (t) => {
  const schema = pgSchema(t)
  await t.rejects(PostgresStore.open(PG_URL, { schema }), { code: 'unavailable', message: /no svc schema yet: run svc init/ })
  const sql = connect(PG_URL, { schema })
  t.teardown(() => sql.end())
  await sql`CREATE SCHEMA IF NOT EXISTS ${sql(schema)}`
  const first = await migratePostgres(sql)
  t.same({ from: first.from, to: first.to, reindexed: first.reindexed }, { from: null, to: PG_FORMAT, reindexed: true })
  // Every migration, numbered apart by the branches that made them (a number may be missing until they meet).
  t.equal(first.applied.length, pgMigrations.length)
  const again = await migratePostgres(sql)
  t.same(again, { from: PG_FORMAT, to: PG_FORMAT, applied: [], reindexed: false })
  const store = await PostgresStore.open(PG_URL, { schema })
  t.teardown(() => store.close())
  t.equal(await store.read.users.size(), 0)
})

t.test('changed index definitions are refused until svc migrate derives the entries again', { skip }, async (t) => {
  const schema = pgSchema(t)
  const store = await PostgresStore.open(PG_URL, { schema, migrate: true })
  await store.transact((tx) => tx.users.insert(userRow('alice')))
  await store.close()
  const sql = connect(PG_URL, { schema })
  t.teardown(() => sql.end())
  // As if an older svc had written them: other definitions, and entries lost.
  await sql`UPDATE svc_meta SET value = '"older"' WHERE name = 'schema_fingerprint'`
  await sql`DELETE FROM svc_users_keys`
  await t.rejects(PostgresStore.open(PG_URL, { schema }), { code: 'unavailable', message: /run svc migrate/ })
  t.equal((await migratePostgres(sql)).reindexed, true)
  const again = await PostgresStore.open(PG_URL, { schema })
  t.teardown(() => again.close())
  t.equal((await again.read.users.one('username', 'alice'))?.username, 'alice', 'the username index holds alice again')
})

t.test('two stores on one database (two nodes) write in one order: no lost update, distinct ids', { skip }, async (t) => {
  const schema = await readyPgSchema(t)
  const a = await PostgresStore.open(PG_URL, { schema, migrate: true })
  const b = await PostgresStore.open(PG_URL, { schema })
  t.teardown(() => Promise.all([a.close(), b.close()]))
  const alice = await a.transact((tx) => tx.users.insert(userRow('alice')))
  const bump = (store: PostgresStore) =>
    store.transact(async (tx) => {
      const row = (await tx.users.get(alice.id))!
      await new Promise((resolve) => setTimeout(resolve, 2))
      tx.users.put({ ...row, name: `${row.name}+` })
    })
  await Promise.all(Array.from({ length: 10 }, (_, i) => bump(i % 2 === 0 ? a : b)))
  t.equal((await b.read.users.get(alice.id))?.name, `${alice.name}${'+'.repeat(10)}`, 'each read-then-write saw the one before it')
  const users = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).transact((tx) => tx.users.insert(userRow(`user${i}`)))))
  t.equal(new Set(users.map((u) => u.id)).size, 20, 'no id handed out twice across nodes')
  await t.rejects(
    b.transact((tx) => tx.users.insert(userRow('alice'))),
    { code: 'conflict' },
    'a unique key taken on the other node is a conflict here',
  )
})

t.test('events committed on one node reach the listeners of another, in seq order, each once', { skip }, async (t) => {
  const schema = await readyPgSchema(t)
  const a = await PostgresStore.open(PG_URL, { schema, migrate: true })
  const b = await PostgresStore.open(PG_URL, { schema })
  t.teardown(() => Promise.all([a.close(), b.close()]))
  const seen: number[] = []
  b.onEvents((rows) => seen.push(...rows.map((r) => r.id)))
  const emit = (store: PostgresStore, i: number) => store.transact((tx) => tx.emit('user.updated', { user: userRow(`user${i}`) } as never))
  for (let i = 0; i < 10; i++) await emit(i % 3 === 0 ? b : a, i)
  await settleOn(() => seen.length >= 10)
  t.same(seen, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "b saw its own and a's events, in order, once")
})

t.test('with a bus, another node hears of events through Redis', { skip: skip || (await redisUnavailable()) }, async (t) => {
  const schema = await readyPgSchema(t)
  const [busA, busB] = await Promise.all([Bus.open(REDIS_URL, schema), Bus.open(REDIS_URL, schema)])
  // Polling (the fallback for a lost message) is put out of reach: only the bus can deliver in time.
  const a = await PostgresStore.open(PG_URL, { schema, migrate: true, bell: busA.bell('events'), pollMs: 600_000 })
  const b = await PostgresStore.open(PG_URL, { schema, bell: busB.bell('events'), pollMs: 600_000 })
  t.teardown(async () => {
    await Promise.all([a.close(), b.close()])
    await Promise.all([busA.close(), busB.close()])
  })
  const seen: number[] = []
  b.onEvents((rows) => seen.push(...rows.map((r) => r.id)))
  await a.transact((tx) => tx.emit('user.updated', { user: userRow('alice') } as never))
  await settleOn(() => seen.length >= 1)
  t.same(seen, [1])
})
