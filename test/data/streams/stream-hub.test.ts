import t from 'tap'
import { settleOn } from '../../fixtures/wait.js'
import { USER_STREAM_BACKLOG, USER_STREAM_MAX_DELAY_MS, type StreamDelivery, type StreamSink } from '../../../data/index.js'
import { makeDomainInstance } from '../../fixtures/instance.js'
import { subscribeUnified } from '../../fixtures/streams.js'

const busy = (ms: number): void => {
  const end = performance.now() + ms
  while (performance.now() < end);
}

/**
 * A sink that keeps what it is sent, each send costing `costMs` of the
 * process's time; after `stall()` it is never ready again, as a consumer
 * that stopped reading.
 */
const collecting = (costMs = 0) => {
  const got: StreamDelivery[] = []
  const closed: string[] = []
  let stalled: Promise<void> | null = null
  let release = () => {}
  const sink: StreamSink = {
    send: (d) => {
      busy(costMs)
      got.push(d)
      return Promise.resolve()
    },
    whenReady: () => stalled,
    close: (reason) => void closed.push(reason),
  }
  const stall = () => void (stalled = new Promise((resolve) => (release = resolve)))
  const ready = () => {
    stalled = null
    release()
  }
  return { sink, got, closed, stall, ready }
}

const settle = settleOn

t.test('alice resumes while bob keeps posting: every post after her disconnect arrives once, in order', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  await svc.domain.relations.core.follow(await svc.viewerOf(alice), '@bob')
  const viewer = await svc.viewerOf(alice)
  const bobViewer = await svc.viewerOf(bob)
  const first = collecting()
  const { connectionId } = await svc.domain.streams.hub.connect(viewer, { options: {} }, first.sink)
  t.same(await subscribeUnified(svc, viewer, connectionId), ['home'])
  const before = await svc.domain.posts.core.create(bobViewer, { text: 'before' })
  await settle(() => first.got.length === 1)
  await svc.domain.streams.hub.disconnected(connectionId, first.sink)

  const made: number[] = []
  let posting = true
  const poster = (async () => {
    for (let i = 0; posting || i < 40; i++) made.push((await svc.domain.posts.core.create(bobViewer, { text: `post ${i}` })).id)
  })()
  await settle(() => made.length >= 20)
  const again = collecting()
  const resumed = await svc.domain.streams.hub.connect(viewer, { connection_id: connectionId, options: {} }, again.sink)
  t.equal(resumed.resumed, true)
  posting = false
  await poster
  await settle(() => again.got.length >= made.length)
  await new Promise((r) => setTimeout(r, 100))
  const ids = again.got.map((d) => (d.shape === 'posts' ? d.page.items[0].item.id : -1))
  t.same(ids, made, `all ${made.length} posts, once each, in order`)
  t.notOk(ids.includes(before.id), 'nothing from before the disconnect')
})

t.test('a consumer that stops reading is disconnected once its backlog is full, and resumes where it stopped', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  await svc.domain.relations.core.follow(await svc.viewerOf(alice), '@bob')
  const viewer = await svc.viewerOf(alice)
  const bobViewer = await svc.viewerOf(bob)
  const stuck = collecting()
  const { connectionId } = await svc.domain.streams.hub.connect(viewer, { options: {} }, stuck.sink)
  await subscribeUnified(svc, viewer, connectionId)
  await settle(() => svc.domain.streams.hub.snapshot().connections[0]?.live === true)
  stuck.stall()
  for (let i = 0; i < USER_STREAM_BACKLOG + 10; i += 100) {
    await Promise.all(Array.from({ length: 100 }, (_, j) => svc.domain.posts.core.create(bobViewer, { text: `flood ${i + j}` })))
  }
  await settle(() => stuck.closed.length > 0)
  t.match(stuck.closed, [/fell 1000 events behind/])
  t.equal(svc.domain.streams.hub.connected, 0, 'its backlog is gone with it')
  const again = collecting()
  await svc.domain.streams.hub.connect(viewer, { connection_id: connectionId, options: {} }, again.sink)
  await settle(() => again.got.length >= USER_STREAM_BACKLOG + 100)
  await new Promise((r) => setTimeout(r, 100))
  const texts = again.got.map((d) => (d.shape === 'posts' ? d.page.items[0].item.text : ''))
  t.equal(texts[0], 'flood 0', 'resumes with the event whose sending never finished')
  t.equal(texts.length, USER_STREAM_BACKLOG + 100, 'and every one after it')
})

t.test('an event that waited past the limit for its turn disconnects the consumer with a reason; the resume loses nothing', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const viewer = await svc.viewerOf(alice)
  await svc.domain.relations.core.follow(viewer, '@bob')
  const slow = collecting()
  const { connectionId } = await svc.domain.streams.hub.connect(viewer, { options: {} }, slow.sink)
  await subscribeUnified(svc, viewer, connectionId)
  await settle(() => svc.domain.streams.hub.snapshot().connections[0]?.live === true)
  slow.stall()
  const bobViewer = await svc.viewerOf(bob)
  const made: number[] = []
  for (let i = 0; i < 3; i++) made.push((await svc.domain.posts.core.create(bobViewer, { text: `late ${i}` })).id)
  await new Promise((r) => setTimeout(r, USER_STREAM_MAX_DELAY_MS + 100))
  slow.ready()
  await settle(() => slow.closed.length > 0)
  t.match(slow.closed, [new RegExp(`waited more than ${USER_STREAM_MAX_DELAY_MS / 1000} s .* reconnect with your connection_id`)], 'told why')
  t.equal(slow.got.length, 0, 'nothing late was sent')
  t.equal(svc.domain.streams.hub.load().shed, 1, 'the metric counts it')
  t.equal(svc.domain.streams.hub.connected, 0)

  const again = collecting()
  await svc.domain.streams.hub.connect(viewer, { connection_id: connectionId, options: {} }, again.sink)
  await settle(() => again.got.length >= 3)
  await new Promise((r) => setTimeout(r, 100))
  t.same(
    again.got.map((d) => (d.shape === 'posts' ? d.page.items[0].item.id : -1)),
    made,
    'every post it missed, once each, in order',
  )
})

t.test(
  'more asked than the process delivers: the costliest streams are disconnected with a reason, only as many as the excess, and resume losing nothing',
  async (t) => {
    const svc = await makeDomainInstance(t)
    const [bob, carol] = await svc.people('bob', 'carol')
    const hub = svc.domain.streams.hub
    const open = async (username: string, follows: string, costMs: number) => {
      const [who] = await svc.people(username)
      const viewer = await svc.viewerOf(who)
      await svc.domain.relations.core.follow(viewer, follows)
      const consumer = collecting(costMs)
      const { connectionId } = await hub.connect(viewer, { options: {} }, consumer.sink)
      await subscribeUnified(svc, viewer, connectionId)
      return { viewer, connectionId, ...consumer }
    }
    // Each delivery costs 3 ms: about 300 a second is all the process can do.
    const heavy = await Promise.all(Array.from({ length: 16 }, (_, i) => open(`reader${i}`, '@bob', 3)))
    const light = await Promise.all(Array.from({ length: 4 }, (_, i) => open(`quiet${i}`, '@carol', 3)))
    await settle(() => hub.snapshot().connections.every((c) => c.live))
    const bobViewer = await svc.viewerOf(bob)
    // 120 posts wait for 16 readers that are not reading yet; then all read at once: 1,920 deliveries, six seconds of work, asked in a moment.
    for (const h of heavy) h.stall()
    const made = (await Promise.all(Array.from({ length: 120 }, (_, i) => svc.domain.posts.core.create(bobViewer, { text: `post ${i}` })))).map((p) => p.id)
    made.sort((a, b) => a - b)
    await settle(() => heavy.every((h) => hub.snapshot().connections.find((c) => c.connection_id === h.connectionId)?.backlog === 120))
    for (const h of heavy) h.ready()
    await settle(() => heavy.every((h) => h.closed.length > 0 || h.got.length === made.length), 60_000)
    const carolPost = await svc.domain.posts.core.create(await svc.viewerOf(carol), { text: 'quiet news' })
    await settle(() => light.every((l) => l.got.length === 1))

    const shed = heavy.filter((h) => h.closed.length > 0)
    const kept = heavy.filter((h) => h.closed.length === 0)
    const behind = /the server is behind on its streams; reconnect with your connection_id to resume/
    t.ok(shed.length > 0, `${shed.length} of 16 busy readers disconnected`)
    t.ok(kept.length > 0, `${kept.length} kept: not everyone goes for an excess`)
    for (const h of shed) t.match(h.closed, [behind])
    for (const h of kept) t.equal(h.got.length, made.length, 'a reader that stayed got every post')
    t.ok(
      light.every((l) => l.closed.length === 0 && l.got[0]?.shape === 'posts' && l.got[0].page.items[0].item.id === carolPost.id),
      'the streams that asked little were never disconnected and got their post',
    )
    t.ok(hub.load().shed >= shed.length, 'the metric counts them')

    for (const h of shed) {
      const again = collecting()
      const resumed = await hub.connect(h.viewer, { connection_id: h.connectionId, options: {} }, again.sink)
      t.equal(resumed.resumed, true)
      await settle(() => h.got.length + again.got.length >= made.length)
      const ids = [...h.got, ...again.got].map((d) => (d.shape === 'posts' ? d.page.items[0].item.id : -1))
      t.same(ids, made, 'before and after the resume: every post once, in order')
    }
  },
)

t.test('after a crash the streams left open are closed at the saved position, so a resume repeats rather than skips', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice] = await svc.people('alice')
  const viewer = await svc.viewerOf(alice)
  const { stream } = await svc.domain.streams.user.open(viewer, { options: {} }, () => false)
  t.equal(stream.closed_at, null)
  await svc.domain.streams.user.recover(stream.cursor + 7)
  const after = await svc.domain.streams.user.find(stream.connection_id)
  t.ok(after?.closed_at, 'closed')
  t.equal(after?.cursor, stream.cursor + 7)
})

t.test('a closed stream expires after five minutes', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice] = await svc.people('alice')
  const viewer = await svc.viewerOf(alice)
  const { stream } = await svc.domain.streams.user.open(viewer, { options: {} }, () => false)
  await svc.domain.streams.user.close(stream.connection_id, stream.cursor)
  t.equal(await svc.domain.streams.user.sweep(Date.now() + 60_000), 0, 'kept a minute later')
  t.equal(await svc.domain.streams.user.sweep(Date.now() + 5 * 60_000 + 1000), 1, 'gone after five')
  t.equal(await svc.domain.streams.user.find(stream.connection_id), null)
})

t.test("the hub's snapshot shows a stalled consumer's backlog and how far behind the log it is", async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const viewer = await svc.viewerOf(alice)
  await svc.domain.relations.core.follow(viewer, '@bob')
  const stalled = collecting()
  const { connectionId } = await svc.domain.streams.hub.connect(viewer, { options: {} }, stalled.sink)
  await subscribeUnified(svc, viewer, connectionId)
  await settle(() => svc.domain.streams.hub.snapshot().connections[0]?.live === true)
  stalled.stall()
  const bobViewer = await svc.viewerOf(bob)
  const before = svc.domain.streams.hub.snapshot()
  t.match(before.connections, [
    { connection_id: connectionId, user_id: alice.user.id, backlog: 0, cursor: before.head, subscriptions: [{ subscription_id: 'home' }] },
  ])
  for (let i = 0; i < 5; i++) await svc.domain.posts.core.create(bobViewer, { text: `post ${i}` })
  await settle(() => svc.domain.streams.hub.snapshot().connections[0].backlog === 5)
  const after = svc.domain.streams.hub.snapshot()
  t.equal(after.connections[0].backlog, 5, 'the consumer takes nothing: all five wait in the backlog')
  t.equal(after.head - after.connections[0].cursor, 5, 'five events behind the log')
  t.equal(after.connections[0].live, true)
})
