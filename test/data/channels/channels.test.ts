import t from 'tap'
import type { DomainEvent } from '../../../data/index.js'
import { recordEvents } from '../../fixtures/events.js'
import { makeDomainInstance } from '../../fixtures/instance.js'

t.test('creating a channel emits channel.created and the owner’s subscription, after the commit', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const seen: DomainEvent[] = []
  svc.domain.events.onAny((e) => seen.push(e))
  const channel = await svc.domain.channels.core.create(await svc.viewerOf(alice.token), { type: 'com.example.chat' })
  t.same(
    seen.map((e) => e.name),
    ['channel.created', 'subscription.added'],
  )
  t.same((seen[0] as DomainEvent<'channel.created'>).payload.subscribed_user_ids, [alice.user.id])
  t.same(await svc.store.read.channels.get(channel.id), channel)
})

t.test('ACL defaults: nobody but the owner, all mutable', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const channel = await svc.domain.channels.core.create(await svc.viewerOf(alice.token), { type: 'com.example.chat' })
  for (const acl of [channel.readers, channel.writers, channel.editors]) t.same(acl, { any_user: false, immutable: false, public: false, user_ids: [] })
})

t.test('editors write and read; writers read; the owner alone edits and deactivates', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const channel = await svc.domain.channels.core.create(await svc.viewerOf(alice.token), {
    type: 'com.example.chat',
    editors: { user_ids: ['@bob'] },
    readers: { user_ids: ['@carol'] },
  })
  const access = svc.domain.channels.access
  t.equal(await access.level(await svc.viewerOf(bob.token), channel), 'edit')
  t.equal(await access.level(await svc.viewerOf(carol.token), channel), 'read')
  t.equal(await access.level(await svc.viewerOf(alice.token), channel), 'edit')
  await t.rejects(svc.domain.channels.core.update(await svc.viewerOf(bob.token), channel.id, { annotations: [] }), { code: 'forbidden' })
  await t.rejects(svc.domain.channels.core.deactivate(await svc.viewerOf(bob.token), channel.id), { code: 'forbidden' })
  t.ok(await svc.domain.channels.messages.create(await svc.viewerOf(bob.token), channel.id, { text: 'an editor writes' }))
})

t.test('updating and deactivating emit channel.updated with the subscribers left', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const av = await svc.viewerOf(alice.token)
  const channel = await svc.domain.channels.core.create(av, { type: 'com.example.chat', readers: { any_user: true } })
  await svc.domain.channels.subscriptions.subscribe(await svc.viewerOf(bob.token), channel.id)
  const seen: DomainEvent[] = []
  svc.domain.events.onAny((e) => seen.push(e))
  await svc.domain.channels.core.update(av, channel.id, { annotations: [{ type: 'com.example.topic', value: { t: 1 } }] })
  t.same(
    seen.map((e) => e.name),
    ['channel.updated'],
  )
  t.same([...(seen[0] as DomainEvent<'channel.updated'>).payload.subscribed_user_ids].sort(), [alice.user.id, bob.user.id].sort())
  seen.length = 0
  const gone = await svc.domain.channels.core.deactivate(av, channel.id)
  t.equal(gone.is_inactive, true)
  t.same(
    seen.map((e) => e.name),
    ['subscription.removed', 'subscription.removed', 'channel.updated'],
  )
  t.same((seen[2] as DomainEvent<'channel.updated'>).payload.subscribed_user_ids, [])
  t.equal(await svc.store.read.subscriptions.count('channel', channel.id), 0)
})

t.test('a PM channel cannot be deactivated, and its ACLs cannot be changed', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  await svc.person('carol')
  const av = await svc.viewerOf(alice.token)
  const { channel } = await svc.domain.channels.pm.send(av, ['@bob'], { text: 'hi' })
  await t.rejects(svc.domain.channels.core.deactivate(av, channel.id), { code: 'invalid' })
  await t.rejects(svc.domain.channels.core.update(av, channel.id, { writers: { user_ids: ['@carol'] } }), { code: 'invalid' })
})

t.test('subscribe and unsubscribe emit once per change', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const channel = await svc.domain.channels.core.create(await svc.viewerOf(alice.token), { type: 'com.example.chat', readers: { public: true } })
  const bv = await svc.viewerOf(bob.token)
  const seen: string[] = []
  svc.domain.events.onAny((e) => seen.push(e.name))
  await svc.domain.channels.subscriptions.subscribe(bv, channel.id)
  await svc.domain.channels.subscriptions.subscribe(bv, channel.id)
  await svc.domain.channels.subscriptions.unsubscribe(bv, channel.id)
  await svc.domain.channels.subscriptions.unsubscribe(bv, channel.id)
  t.same(seen, ['subscription.added', 'subscription.removed'])
})

t.test('marking broadcasts read moves the channel markers and emits marker.set with the channel', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const bv = await svc.viewerOf(bob.token)
  const av = await svc.viewerOf(alice.token)
  const news = await svc.domain.channels.core.create(bv, { type: 'svc.core.broadcast', readers: { public: true } })
  await svc.domain.channels.subscriptions.subscribe(av, news.id)
  const m = await svc.domain.channels.messages.create(bv, news.id, { text: 'issue 1' })
  t.equal(await svc.domain.channels.inbox.numUnread(av, 'svc.core.broadcast'), 1)
  const seen: DomainEvent<'marker.set'>[] = []
  svc.domain.events.on('marker.set', (e) => seen.push(e))
  t.equal(await svc.domain.channels.inbox.markBroadcastsRead(av), 0)
  t.equal(seen.length, 1)
  t.equal(seen[0].payload.channel?.id, news.id)
  t.equal(seen[0].payload.marker.last_read_id, m.id)
})

t.test('auto_subscribe subscribes everyone on the ACLs who has not muted the channel, and never on broadcast channels', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const dave = await svc.person('dave')
  const asAlice = await svc.viewerOf(alice.token)
  const subscribers = async (id: number) => (await svc.domain.channels.subscriptions.subscriberIds(asAlice, id)).sort()
  const seen: DomainEvent[] = []
  svc.domain.events.onAny((e) => seen.push(e))
  const chat = await svc.domain.channels.core.create(asAlice, {
    type: 'com.example.chat',
    writers: { user_ids: ['@bob'] },
    readers: { user_ids: ['@carol'] },
    auto_subscribe: true,
  })
  t.same(await subscribers(chat.id), [alice.user.id, bob.user.id, carol.user.id].sort())
  t.same((seen[0] as DomainEvent<'channel.created'>).payload.subscribed_user_ids.sort(), [alice.user.id, bob.user.id, carol.user.id].sort())
  t.equal(seen.filter((e) => e.name === 'subscription.added').length, 3)

  const plain = await svc.domain.channels.core.create(asAlice, { type: 'com.example.chat', writers: { user_ids: ['@bob'] } })
  t.same(await subscribers(plain.id), [alice.user.id], 'without auto_subscribe only the owner')

  await svc.domain.channels.subscriptions.mute(await svc.viewerOf(carol.token), chat.id)
  await svc.domain.channels.core.update(asAlice, chat.id, { readers: { user_ids: ['@carol', '@dave'] }, auto_subscribe: true })
  t.same(await subscribers(chat.id), [alice.user.id, bob.user.id, dave.user.id].sort(), 'carol muted it; dave is new')

  const broadcast = await svc.domain.channels.core.create(asAlice, { type: 'svc.core.broadcast', readers: { user_ids: ['@bob'] }, auto_subscribe: true })
  t.same(await subscribers(broadcast.id), [alice.user.id], 'broadcasts are opt-in')
})

t.test('a refused channel change emits nothing', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const av = await svc.viewerOf(alice.token)
  const channel = await svc.domain.channels.core.create(av, { type: 'com.example.chat', readers: { immutable: true } })
  const seen = recordEvents(svc)
  await t.rejects(svc.domain.channels.core.create(av, { type: 'svc.core.pm' }), { code: 'invalid' })
  await t.rejects(svc.domain.channels.core.update(av, channel.id, { readers: { any_user: true } }), { code: 'invalid' })
  await t.rejects(svc.domain.channels.core.deactivate(await svc.viewerOf(bob.token), channel.id), { code: 'not_found' })
  await t.rejects(svc.domain.channels.markers.set(await svc.viewerOf(bob.token), [{ name: `channel:${channel.id}`, id: 1 }]), { code: 'not_found' })
  t.same(seen, [])
})
