import t from 'tap'
import { isoNow, type ChannelRow, type Interaction, type UserRow } from '../../../data/index.js'
import { makeDomainInstance, type DomainInstance } from '../../fixtures/instance.js'
import { writePost, writeRelation, writeStar } from '../../fixtures/post-rows.js'

const summary = (page: { items: { item: Interaction }[] }) =>
  page.items.map(
    ({ item }) =>
      `${item.action} ${item.objects.map((o) => ('username' in o ? o.username : o.id)).join(',')} by ${item.users.map((u) => u.username).join(',')}`,
  )

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000)

t.test('alice sees who followed her and who starred, reposted and replied to her posts, grouped', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const [alice, bob, carol, robo] = [await svc.person('alice'), await svc.person('bob'), await svc.person('carol'), await svc.person('robo', { type: 'bot' })]
  const hello = await writePost(svc, alice.user, { text: 'hello', created_at: hoursAgo(10).toISOString() })
  await writeRelation(svc, 'follows', bob.user, alice.user, hoursAgo(9))
  await writeRelation(svc, 'follows', carol.user, alice.user, hoursAgo(8))
  await writeStar(svc, bob.user, hello, hoursAgo(7))
  await writeStar(svc, alice.user, hello, hoursAgo(6))
  await writePost(svc, robo.user, { repost_of: hello, created_at: hoursAgo(5).toISOString() })
  await writePost(svc, carol.user, { reply_to: hello, created_at: hoursAgo(4).toISOString() })
  await writePost(svc, alice.user, { reply_to: hello, created_at: hoursAgo(3).toISOString() })
  await writeStar(svc, carol.user, hello, hoursAgo(2))
  const viewer = await svc.domain.auth.tokens.authenticate(alice.token)
  const page = await svc.domain.posts.interactions.list(viewer, undefined, { count: 20 })
  t.same(summary(page), [`star ${hello.id} by carol,bob`, `reply ${hello.id} by carol`, `repost ${hello.id} by robo`, 'follow alice by carol,bob'])
  t.equal(page.items[0].item.event_date, page.items[0].item.event_date.replace(/\.\d+Z$/, 'Z'))
  t.ok(Date.parse(page.items[0].item.event_date) > Date.parse(page.items[1].item.event_date))
  const follows = await svc.domain.posts.interactions.list(viewer, ['follow', 'repost'], { count: 20 })
  t.same(summary(follows), [`repost ${hello.id} by robo`, 'follow alice by carol,bob'])
})

t.test('the same action more than a day apart makes two interactions, and pages walk back in time', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const [alice, bob, carol] = [await svc.person('alice'), await svc.person('bob'), await svc.person('carol')]
  const hello = await writePost(svc, alice.user, { created_at: hoursAgo(100).toISOString() })
  await writeStar(svc, bob.user, hello, hoursAgo(72))
  await writeStar(svc, carol.user, hello, hoursAgo(1))
  const viewer = await svc.domain.auth.tokens.authenticate(alice.token)
  const first = await svc.domain.posts.interactions.list(viewer, undefined, { count: 1 })
  t.same(summary(first), [`star ${hello.id} by carol`])
  t.equal(first.more, true)
  const second = await svc.domain.posts.interactions.list(viewer, undefined, { count: 1, before_id: first.items[0].pagination_id })
  t.same(summary(second), [`star ${hello.id} by bob`])
  t.equal(second.more, false)
})

t.test('muted and blocked users, deleted replies and removed reposts leave no interaction', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const [alice, bob, carol] = [await svc.person('alice'), await svc.person('bob'), await svc.person('carol')]
  const hello = await writePost(svc, alice.user)
  await writeRelation(svc, 'follows', bob.user, alice.user)
  await writeRelation(svc, 'mutes', alice.user, bob.user)
  await writeStar(svc, carol.user, hello)
  await writeRelation(svc, 'blocks', carol.user, alice.user)
  const dave = await svc.person('dave')
  await writePost(svc, dave.user, { reply_to: hello, is_deleted: true })
  const viewer = await svc.domain.auth.tokens.authenticate(alice.token)
  const page = await svc.domain.posts.interactions.list(viewer, undefined, { count: 20 })
  t.same(page.items, [])
  t.equal(page.more, false)
})

t.test('interactions need a signed-in user', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  await t.rejects(svc.domain.posts.interactions.list({}, undefined, { count: 20 }), { code: 'forbidden' })
})

const acl = (user_ids: number[] = [], isPublic = false) => ({ any_user: false, immutable: false, public: isPublic, user_ids })

const writeChannel = (svc: DomainInstance, owner: UserRow, at: Date, shape: { type?: string; readers?: number[]; is_inactive?: boolean } = {}) =>
  svc.store.transact((tx) =>
    tx.channels.insert({
      type: shape.type ?? 'svc.core.broadcast',
      owner_id: owner.id,
      readers: shape.readers ? acl(shape.readers) : acl([], true),
      writers: acl([owner.id]),
      editors: acl(),
      annotations: [],
      is_inactive: shape.is_inactive ?? false,
      created_at: isoNow(at),
    }),
  )

const writeSubscription = (svc: DomainInstance, channel: ChannelRow, user: UserRow, at: Date) =>
  svc.store.transact((tx) => tx.subscriptions.insert({ channel_id: channel.id, user_id: user.id, created_at: isoNow(at) }))

const writeUnsubscription = (svc: DomainInstance, channel: ChannelRow, user: UserRow, at: Date) =>
  svc.store.transact((tx) => tx.broadcast_unsubscriptions.insert({ channel_id: channel.id, user_id: user.id, unsubscribed_at: isoNow(at) }))

/** alice owns a broadcast channel: made 9 hours ago, joined by bob and carol, left by dave, among a star and a follow. */
const broadcastStory = async (t: Parameters<typeof makeDomainInstance>[0]) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const [alice, bob, carol, dave] = [await svc.person('alice'), await svc.person('bob'), await svc.person('carol'), await svc.person('dave')]
  const hello = await writePost(svc, alice.user, { created_at: hoursAgo(10).toISOString() })
  const news = await writeChannel(svc, alice.user, hoursAgo(9))
  await writeSubscription(svc, news, alice.user, hoursAgo(9))
  await writeSubscription(svc, news, bob.user, hoursAgo(8))
  await writeStar(svc, bob.user, hello, hoursAgo(6))
  await writeUnsubscription(svc, news, dave.user, hoursAgo(5))
  const carolJoined = hoursAgo(3)
  await writeSubscription(svc, news, carol.user, carolJoined)
  await writeRelation(svc, 'follows', bob.user, alice.user, hoursAgo(1))
  // None of these are alice's active broadcast channels.
  const chat = await writeChannel(svc, alice.user, hoursAgo(9), { type: 'com.example.chat' })
  await writeSubscription(svc, chat, bob.user, hoursAgo(2))
  const closed = await writeChannel(svc, alice.user, hoursAgo(9), { is_inactive: true })
  await writeUnsubscription(svc, closed, carol.user, hoursAgo(2))
  const bobs = await writeChannel(svc, bob.user, hoursAgo(9))
  await writeSubscription(svc, bobs, alice.user, hoursAgo(2))
  await writeSubscription(svc, bobs, carol.user, hoursAgo(2))
  const viewer = await svc.domain.auth.tokens.authenticate(alice.token)
  return { svc, alice, bob, carol, dave, hello, news, viewer, carolJoined }
}

t.test("alice hears of her broadcast channel's creation, who subscribed and who left, in time order among her other interactions", async (t) => {
  const { svc, hello, news, viewer, carolJoined } = await broadcastStory(t)
  const page = await svc.domain.posts.interactions.list(viewer, undefined, { count: 20 })
  t.same(summary(page), [
    'follow alice by bob',
    `broadcast_subscribe ${news.id} by carol,bob`,
    `broadcast_unsubscribe ${news.id} by dave`,
    `star ${hello.id} by bob`,
    `broadcast_create ${news.id} by alice`,
  ])
  t.equal(page.items[1].item.event_date, isoNow(carolJoined), 'a group is dated by its latest subscription')
  t.equal(page.items[4].item.event_date, news.created_at)
  t.same(page.items[1].item.objects, [news])
  const broadcasts = await svc.domain.posts.interactions.list(viewer, ['broadcast_create', 'broadcast_unsubscribe'], { count: 20 })
  t.same(summary(broadcasts), [`broadcast_unsubscribe ${news.id} by dave`, `broadcast_create ${news.id} by alice`])
  const subscribes = await svc.domain.posts.interactions.list(viewer, ['broadcast_subscribe', 'welcome'], { count: 20 })
  t.same(summary(subscribes), [`broadcast_subscribe ${news.id} by carol,bob`])
})

t.test('pages of interactions walk back through broadcast interactions too', async (t) => {
  const { svc, hello, news, viewer } = await broadcastStory(t)
  const first = await svc.domain.posts.interactions.list(viewer, undefined, { count: 2 })
  t.same(summary(first), ['follow alice by bob', `broadcast_subscribe ${news.id} by carol,bob`])
  t.equal(first.more, true)
  const second = await svc.domain.posts.interactions.list(viewer, undefined, { count: 2, before_id: first.items[1].pagination_id })
  t.same(summary(second), [`broadcast_unsubscribe ${news.id} by dave`, `star ${hello.id} by bob`])
  t.equal(second.more, true)
  const third = await svc.domain.posts.interactions.list(viewer, undefined, { count: 2, before_id: second.items[1].pagination_id })
  t.same(summary(third), [`broadcast_create ${news.id} by alice`])
  t.equal(third.more, false)
})

t.test('subscribers alice muted or blocked are left out, and a token that may not read her private broadcast channel sees none of it', async (t) => {
  const { svc, alice, bob, dave, news, viewer } = await broadcastStory(t)
  await writeRelation(svc, 'mutes', alice.user, bob.user)
  await writeRelation(svc, 'blocks', dave.user, alice.user)
  t.same(summary(await svc.domain.posts.interactions.list(viewer, ['broadcast_subscribe', 'broadcast_unsubscribe'], { count: 20 })), [
    `broadcast_subscribe ${news.id} by carol`,
  ])
  const secret = await writeChannel(svc, alice.user, hoursAgo(1), { readers: [bob.user.id] })
  const basic = await svc.domain.auth.tokens.authenticate((await svc.domain.auth.tokens.issueUserToken(svc.app, alice.user, ['basic'])).access_token)
  t.same(
    summary(await svc.domain.posts.interactions.list(basic, ['broadcast_create'], { count: 20 })),
    [`broadcast_create ${news.id} by alice`],
    'the public channel shows; the private one needs a messages scope',
  )
  t.same(summary(await svc.domain.posts.interactions.list(viewer, ['broadcast_create'], { count: 20 })), [
    `broadcast_create ${secret.id} by alice`,
    `broadcast_create ${news.id} by alice`,
  ])
})

t.test('leaving a broadcast channel, by unsubscribing or muting, is kept once per user; other channels and deactivation keep nothing', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const [alice, bob, carol] = [await svc.person('alice'), await svc.person('bob'), await svc.person('carol')]
  const [asAlice, asBob, asCarol] = await Promise.all([alice, bob, carol].map((p) => svc.domain.auth.tokens.authenticate(p.token)))
  const news = await svc.domain.channels.core.create(asAlice, { type: 'svc.core.broadcast', readers: { public: true } })
  const chat = await svc.domain.channels.core.create(asAlice, { type: 'com.example.chat', readers: { public: true } })
  const left = async (channel: ChannelRow) => {
    const r = svc.store.read
    return (await r.broadcast_unsubscriptions.getMany(await r.broadcast_unsubscriptions.ids('channel', channel.id, { limit: 10 }))).map((u) => u.user_id)
  }
  await svc.domain.channels.subscriptions.subscribe(asBob, news.id)
  await svc.domain.channels.subscriptions.unsubscribe(asBob, news.id)
  await svc.domain.channels.subscriptions.subscribe(asBob, news.id)
  await svc.domain.channels.subscriptions.mute(asBob, news.id)
  await svc.domain.channels.subscriptions.unsubscribe(asCarol, news.id)
  t.same(await left(news), [bob.user.id], 'carol was never subscribed')
  await svc.domain.channels.subscriptions.subscribe(asBob, chat.id)
  await svc.domain.channels.subscriptions.unsubscribe(asBob, chat.id)
  t.same(await left(chat), [])
  t.same(summary(await svc.domain.posts.interactions.list(asAlice, ['broadcast_subscribe', 'broadcast_unsubscribe'], { count: 20 })), [
    `broadcast_unsubscribe ${news.id} by bob`,
  ])
  await svc.domain.channels.subscriptions.subscribe(asCarol, news.id)
  await svc.domain.channels.core.deactivate(asAlice, news.id)
  t.same(await left(news), [bob.user.id])
  t.same(await svc.domain.posts.interactions.list(asAlice, undefined, { count: 20 }).then(summary), [], 'a deactivated channel drops out')
})
