/**
 * The admin socket's watches, through a real socket on an in-process
 * server's domain: a topic's picture at once, again as things change (no
 * faster than the throttle), ordinary operations answered on the same
 * connection meanwhile, and nothing more after an unwatch. The console's
 * client side re-subscribes after the server comes back.
 */
import t from 'tap'
import { createConnection, type Socket } from 'node:net'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  callAdminSocket,
  watchAdminSocket,
  type AdminResponse,
  type AppStreamSink,
  type AppStreamsPicture,
  type EventTail,
  type FiltersPicture,
  type StreamSink,
  type UserStreamsPicture,
} from '../../data/index.js'
import { serveAdminSocket } from '../../server/index.js'
import { makeDomainInstance, makeInstance, type DomainInstance } from '../fixtures/instance.js'
import { subscribeUnified } from '../fixtures/streams.js'

/** A raw admin socket connection: send request lines, wait for answer lines. */
async function connect(t: { teardown(fn: () => unknown): void }, path: string) {
  const lines: AdminResponse[] = []
  const socket: Socket = createConnection(path)
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  t.teardown(() => socket.destroy())
  let buffered = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => {
    buffered += chunk
    let end: number
    while ((end = buffered.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buffered.slice(0, end)) as AdminResponse)
      buffered = buffered.slice(end + 1)
    }
  })
  const until = async (check: (lines: AdminResponse[]) => boolean, what: string): Promise<AdminResponse[]> => {
    const deadline = Date.now() + 20_000
    while (!check(lines)) {
      if (Date.now() > deadline) throw new Error(`never got ${what}; got ${JSON.stringify(lines)}`)
      await sleep(10)
    }
    return lines
  }
  return {
    lines,
    send: (request: object) => socket.write(JSON.stringify(request) + '\n'),
    until,
    /** The results of the lines with `id`, in order. */
    of: (id: number) => lines.filter((l) => l.id === id).map((l) => (l.ok ? l.result : l.error)),
  }
}

async function serving(t: { teardown(fn: () => unknown): void }, svc: DomainInstance) {
  const admin = await serveAdminSocket(svc.domain, { baseUrl: 'http://svc.test', log: () => {} })
  t.teardown(() => admin.close())
  return admin
}

const tailOf = (result: unknown) => result as EventTail

t.test('a watch of the events pushes the tail at once, then each new post, while other operations are answered', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice] = await svc.people('alice')
  const admin = await serving(t, svc)
  const conn = await connect(t, admin.path)

  conn.send({ id: 1, op: 'watch', args: { topic: 'events' } })
  await conn.until(() => conn.of(1).length === 1, 'the first picture')
  const first = tailOf(conn.of(1)[0])
  t.equal(first.head, svc.domain.events.head())
  t.match(first.events[0], { seq: first.head, name: 'token.authorized', summary: /token \d+ of @alice in Test Client/ }, 'newest first')

  const post = await svc.domain.posts.core.create(await svc.domain.auth.tokens.authenticate(alice.token), { text: 'hello' })
  await conn.until(() => conn.of(1).some((r) => tailOf(r).events[0]?.name === 'post.created'), 'the post pushed')
  t.match(tailOf(conn.of(1).at(-1)).events[0], { name: 'post.created', summary: `post ${post.id} by @alice` })

  conn.send({ id: 2, op: 'user.list' })
  await conn.until(() => conn.of(2).length === 1, 'the user list')
  t.same(
    (conn.of(2)[0] as { username: string }[]).map((u) => u.username),
    ['alice'],
  )
})

t.test('unwatch stops the pictures; a bad watch or unwatch is a clear error and the connection goes on', async (t) => {
  const svc = await makeDomainInstance(t)
  const [bob] = await svc.people('bob')
  const bobViewer = await svc.domain.auth.tokens.authenticate(bob.token)
  const conn = await connect(t, (await serving(t, svc)).path)

  conn.send({ id: 'w', op: 'watch', args: { topic: 'no_such' } })
  conn.send({ op: 'watch', args: { topic: 'events' } })
  conn.send({ id: 5, op: 'unwatch', args: { watch: 99 } })
  await conn.until((l) => l.length === 3, 'three refusals')
  t.match(conn.lines[0], {
    id: 'w',
    ok: false,
    error: { code: 'invalid', message: /unknown watch topic no_such \(topics: user_streams, events, app_streams, filters, federation\)/ },
  })
  t.match(conn.lines[1], { ok: false, error: { code: 'invalid', message: /a watch needs an "id"/ } })
  t.match(conn.lines[2], { id: 5, ok: false, error: { code: 'not_found', message: 'no watch 99 on this connection' } })

  conn.send({ id: 7, op: 'watch', args: { topic: 'events' } })
  await conn.until(() => conn.of(7).length === 1, 'the first picture')
  conn.send({ id: 7, op: 'watch', args: { topic: 'events' } })
  await conn.until(() => conn.of(7).length === 2, 'the refusal of a second watch 7')
  t.match(conn.of(7)[1], { code: 'invalid', message: 'watch 7 is already running' })

  conn.send({ id: 8, op: 'unwatch', args: { watch: 7 } })
  await conn.until(() => conn.of(8).length === 1, 'the unwatch answer')
  t.same(conn.of(8), [{ unwatched: 7 }])
  const pictures = conn.of(7).length
  await svc.domain.posts.core.create(bobViewer, { text: 'nobody watches' })
  await sleep(400)
  t.equal(conn.of(7).length, pictures, 'no picture after the unwatch')
})

t.test('a burst of posts is pushed at most about four times a second, the last picture holding them all', async (t) => {
  const svc = await makeDomainInstance(t)
  const [carol] = await svc.people('carol')
  const viewer = await svc.domain.auth.tokens.authenticate(carol.token)
  const conn = await connect(t, (await serving(t, svc)).path)
  conn.send({ id: 1, op: 'watch', args: { topic: 'events' } })
  await conn.until(() => conn.of(1).length === 1, 'the first picture')
  const started = Date.now()
  // About a second of posting, one post every 30 ms.
  for (let i = 0; i < 30; i++) {
    await svc.domain.posts.core.create(viewer, { text: `post ${i}` })
    await sleep(30)
  }
  const head = svc.domain.events.head()
  await conn.until(() => tailOf(conn.of(1).at(-1)).head === head, 'the last post')
  const seconds = (Date.now() - started) / 1000
  const pushed = conn.of(1).length - 1
  t.ok(pushed >= 2, `pictures came while the posts did (${pushed})`)
  t.ok(pushed <= Math.ceil(seconds * 4) + 1, `${pushed} pictures in ${seconds.toFixed(2)} s`)
  t.equal(tailOf(conn.of(1).at(-1)).events.filter((e) => e.name === 'post.created').length, 30)
})

t.test('the user streams topic shows a connected stream with its owner, subscriptions, backlog and position, then waiting for a resume', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice] = await svc.people('alice')
  const viewer = await svc.domain.auth.tokens.authenticate(alice.token)
  const sink: StreamSink = { send: () => Promise.resolve(), whenReady: () => null, close: () => {} }
  const { connectionId } = await svc.domain.streams.hub.connect(viewer, { options: {} }, sink)
  await subscribeUnified(svc, viewer, connectionId)

  const conn = await connect(t, (await serving(t, svc)).path)
  conn.send({ id: 1, op: 'watch', args: { topic: 'user_streams' } })
  await conn.until(() => conn.of(1).length === 1, 'the first picture')
  const first = conn.of(1)[0] as UserStreamsPicture
  t.equal(first.backlog_limit, 1000)
  t.match(first.streams, [
    {
      connection_id: connectionId,
      user: { username: 'alice' },
      app: 'Test Client',
      connected: true,
      live: true,
      backlog: 0,
      cursor: first.head,
      subscriptions: [{ subscription_id: 'home', endpoint: 'posts/stream/unified' }],
    },
  ])

  await svc.domain.streams.hub.disconnected(connectionId, sink)
  await conn.until(() => (conn.of(1).at(-1) as UserStreamsPicture).streams[0]?.connected === false, 'the stream waiting for a resume')
  t.match((conn.of(1).at(-1) as UserStreamsPicture).streams[0], { connection_id: connectionId, subscriptions: [{ subscription_id: 'home' }] })
})

const hello = { match_policy: 'include_any', clauses: [{ object_type: 'post', operator: 'matches', field: '/data/text', value: 'hello' }] }

t.test('the app streams topic shows each stream with its app, key, types, queue and filter in words; a consumer shows connected', async (t) => {
  const svc = await makeDomainInstance(t)
  const app = await svc.domain.auth.tokens.authenticate(svc.appToken)
  const { stream } = await svc.domain.streams.apps.create(app, { object_types: ['post', 'star'], type: 'long_poll', key: 'firehose', filter: hello })
  await svc.domain.streams.apps.create(app, { object_types: ['user'], type: 'long_poll' })

  const conn = await connect(t, (await serving(t, svc)).path)
  conn.send({ id: 1, op: 'watch', args: { topic: 'app_streams' } })
  await conn.until(() => conn.of(1).length === 1, 'the first picture')
  const first = conn.of(1)[0] as AppStreamsPicture
  t.match(first.streams, [
    {
      id: String(stream.id),
      app: { name: 'Test Client', client_id: svc.app.client_id },
      key: 'firehose',
      object_types: ['post', 'star'],
      connected: false,
      // Its own creation and the second stream's: events since its queue began.
      queue_depth: svc.domain.events.head() - stream.cursor,
      queue_limit: svc.domain.streams.appHub.queueLimit,
      filter: { id: String(stream.filter_id), match_policy: 'include_any', clauses: ['post /data/text matches "hello"'] },
    },
    { object_types: ['user'], connected: false, filter: null },
  ])
  t.notOk('key' in first.streams[1], 'no key, none shown')

  const sink: AppStreamSink = { renderKey: 'test', render: async () => ({}), write: async () => {}, close: () => {} }
  svc.domain.streams.appHub.connect(stream, {}, sink)
  await conn.until(() => (conn.of(1).at(-1) as AppStreamsPicture).streams[0].connected, 'the consumer connected')
  t.match((conn.of(1).at(-1) as AppStreamsPicture).streams, [{ id: String(stream.id), connected: true }, { connected: false }])
})

t.test(
  "the filters topic shows users' filters and apps' inline ones, whose, in words, and how many streams use each; changes come as they happen",
  async (t) => {
    const svc = await makeDomainInstance(t)
    const [alice] = await svc.people('alice')
    const asAlice = await svc.domain.auth.tokens.authenticate(alice.token)
    const bots = await svc.domain.filters.create(asAlice, {
      name: 'no bots',
      match_policy: 'exclude_any',
      clauses: [{ object_type: 'post', operator: 'equals', field: '/data/user/type', value: 'bot' }],
    })
    const app = await svc.domain.auth.tokens.authenticate(svc.appToken)
    const { stream } = await svc.domain.streams.apps.create(app, { object_types: ['post'], type: 'long_poll', filter: hello })

    const conn = await connect(t, (await serving(t, svc)).path)
    conn.send({ id: 1, op: 'watch', args: { topic: 'filters' } })
    await conn.until(() => conn.of(1).length === 1, 'the first picture')
    t.same((conn.of(1)[0] as FiltersPicture).filters, [
      { id: String(bots.id), name: 'no bots', match_policy: 'exclude_any', clauses: ['post /data/user/type equals "bot"'], owner: '@alice', streams: 0 },
      { id: String(stream.filter_id), match_policy: 'include_any', clauses: ['post /data/text matches "hello"'], owner: 'app Test Client', streams: 1 },
    ])

    await svc.domain.streams.apps.create(app, { object_types: ['post'], type: 'long_poll', filter_id: bots.id })
    await conn.until(() => (conn.of(1).at(-1) as FiltersPicture).filters[0].streams === 1, "a stream using alice's filter")
    await svc.domain.filters.replace(asAlice, bots.id, {
      name: 'humans',
      match_policy: 'include_all',
      clauses: [{ object_type: 'post', operator: 'one_of', field: '/data/user/id', value: [1, '2'] }],
    })
    await conn.until(() => (conn.of(1).at(-1) as FiltersPicture).filters[0].name === 'humans', 'the changed filter')
    t.same((conn.of(1).at(-1) as FiltersPicture).filters[0].clauses, ['post /data/user/id one_of [1, "2"]'])
  },
)

t.test("the console's watch tells of the lost server and watches again once a server answers on the socket", async (t) => {
  const svc = await makeDomainInstance(t)
  let admin = await serveAdminSocket(svc.domain, { baseUrl: 'http://svc.test', log: () => {} })
  t.teardown(() => admin.close())
  const pictures: EventTail[] = []
  const errors: string[] = []
  const stop = watchAdminSocket(admin.path, 'events', { picture: (p) => pictures.push(p as EventTail), error: (e) => errors.push(e.message) }, 100)
  t.teardown(stop)
  const until = async (check: () => boolean, what: string) => {
    const deadline = Date.now() + 20_000
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`never ${what}`)
      await sleep(10)
    }
  }
  await until(() => pictures.length === 1, 'a first picture')
  await admin.close()
  await until(() => errors.length > 0, 'an error')
  t.match(errors[0], /no server answers on .*admin\.sock/)
  admin = await serveAdminSocket(svc.domain, { baseUrl: 'http://svc.test', log: () => {} })
  await svc.people('dave')
  await until(() => pictures.at(-1)!.events.some((e) => e.summary === '@dave'), 'a picture from the new server')
  t.pass('watching again')
})

t.test('a backup tells its progress over the socket before its answer: rising, to the whole', async (t) => {
  const svc = await makeInstance(t)
  const [alice] = await svc.people('alice')
  for (let i = 0; i < 20; i++) await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: `post ${i} ${'x'.repeat(200)}` } })
  const admin = await serving(t, svc)
  const heard: [number, number][] = []
  const to = join(t.testdir(), 'backup.tar.gz')
  const result = (await callAdminSocket(admin.path, 'backup.create', { to }, (done, total) => heard.push([done, total]))) as { file: string }
  t.equal(result.file, to, 'the answer came after the progress')
  t.ok(heard.length >= 2, `progress was told (${heard.length} lines)`)
  const [done, total] = heard.at(-1)!
  t.equal(done, total, 'the last line says all of it is done')
  t.ok(total > 0 && heard.every(([, n]) => n === total), 'one total throughout')
  t.ok(
    heard.every(([d], i) => i === 0 || d >= heard[i - 1][0]),
    'never going back',
  )
})
