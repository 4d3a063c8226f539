import t from 'tap'
import type { DomainEvent } from '../../../data/index.js'
import { recordEvents } from '../../fixtures/events.js'
import { makeDomainInstance, type DomainInstance } from '../../fixtures/instance.js'

const follow = (svc: DomainInstance, userId: number, targetId: number) =>
  svc.store.transact((tx) => tx.follows.insert({ user_id: userId, target_id: targetId, created_at: '2026-01-01T00:00:00Z' }))

t.test('a PM group resolves to one channel whatever the order and spelling of its destinations', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const pm = svc.domain.channels.pm
  const first = await pm.send(await svc.viewerOf(alice.token), ['@bob', '@carol'], { text: 'hello both' })
  const second = await pm.send(await svc.viewerOf(alice.token), [String(carol.user.id), '@BOB'], { text: 'again' })
  const third = await pm.send(await svc.viewerOf(bob.token), [alice.user.id, '@carol', '@alice'], { text: 'bob here' })
  t.equal(second.channel.id, first.channel.id)
  t.equal(third.channel.id, first.channel.id, 'a different sender of the same group finds it too')
  const pair = await pm.send(await svc.viewerOf(alice.token), ['@bob'], { text: 'just us' })
  t.not(pair.channel.id, first.channel.id, 'a different group gets its own channel')
  t.equal(first.channel.type, 'svc.core.pm')
  t.same(first.channel.writers.user_ids, [bob.user.id, carol.user.id])
  t.equal(first.channel.writers.immutable, true)
  t.same(
    await svc.domain.channels.subscriptions.subscriberIds(await svc.viewerOf(carol.token), first.channel.id).then((ids) => ids.sort()),
    [alice.user.id, bob.user.id, carol.user.id].sort(),
  )
})

t.test('sending to nobody, to oneself or to unknown users is refused', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const v = await svc.viewerOf(alice.token)
  await t.rejects(svc.domain.channels.pm.send(v, [], { text: 'hi' }), { code: 'invalid' })
  await t.rejects(svc.domain.channels.pm.send(v, ['@alice'], { text: 'hi' }), { code: 'invalid' })
  await t.rejects(svc.domain.channels.pm.send(v, ['@ghost'], { text: 'hi' }), { code: 'invalid' })
  t.equal(await svc.store.read.channels.size(), 0, 'no channel was left behind')
})

t.test('a block between sender and destination stops the message', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await svc.store.transact((tx) => tx.blocks.insert({ user_id: bob.user.id, target_id: alice.user.id, created_at: '2026-01-01T00:00:00Z' }))
  await t.rejects(svc.domain.channels.pm.send(await svc.viewerOf(alice.token), ['@bob'], { text: 'hi' }), { code: 'forbidden' })
})

t.test('robo the bot messages only its followers, and only they are auto-subscribed', async (t) => {
  const svc = await makeDomainInstance(t)
  const robo = await svc.person('robo', { type: 'bot' })
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const v = await svc.viewerOf(robo.token)
  await t.rejects(svc.domain.channels.pm.send(v, ['@bob'], { text: 'beep' }), { code: 'forbidden' })
  await follow(svc, alice.user.id, robo.user.id)
  const { channel } = await svc.domain.channels.pm.send(v, ['@alice'], { text: 'beep' })
  t.ok(await svc.store.read.subscriptions.one('pair', `${channel.id}:${alice.user.id}`))
  // A group bob started with robo: robo may write there, but its message subscribes only followers.
  const group = await svc.domain.channels.pm.send(await svc.viewerOf(bob.token), ['@robo', '@alice'], { text: 'hi robo' })
  await svc.domain.channels.subscriptions.unsubscribe(await svc.viewerOf(bob.token), group.channel.id)
  await svc.domain.channels.pm.send(v, ['@bob', '@alice'], { text: 'beep boop' })
  t.equal(await svc.store.read.subscriptions.one('pair', `${group.channel.id}:${bob.user.id}`), null, 'bob does not follow robo')
})

t.test('members who unsubscribed from a PM are subscribed again by the next message, unless they muted it', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const av = await svc.viewerOf(alice.token)
  const bv = await svc.viewerOf(bob.token)
  const { channel } = await svc.domain.channels.pm.send(av, ['@bob'], { text: 'one' })
  await svc.domain.channels.subscriptions.unsubscribe(bv, channel.id)
  await svc.domain.channels.pm.send(av, ['@bob'], { text: 'two' })
  t.ok(await svc.store.read.subscriptions.one('pair', `${channel.id}:${bob.user.id}`))
  await svc.domain.channels.subscriptions.mute(bv, channel.id)
  await svc.domain.channels.pm.send(av, ['@bob'], { text: 'three' })
  t.equal(await svc.store.read.subscriptions.one('pair', `${channel.id}:${bob.user.id}`), null)
})

t.test('events follow the commit: channel, subscriptions, then the message with its subscribers', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const seen: DomainEvent[] = []
  svc.domain.events.onAny((e) => seen.push(e))
  const { message, channel } = await svc.domain.channels.pm.send(await svc.viewerOf(alice.token), ['@bob'], { text: 'hi' })
  t.same(
    seen.map((e) => e.name),
    ['channel.created', 'subscription.added', 'subscription.added', 'message.created'],
  )
  const created = seen[3] as DomainEvent<'message.created'>
  t.equal(created.payload.message.id, message.id)
  t.equal(created.payload.channel.type, 'svc.core.pm')
  t.same([...created.payload.subscribed_user_ids].sort(), [alice.user.id, bob.user.id].sort())
  t.ok(await svc.store.read.messages.get(message.id), 'the message was stored before the event')
  seen.length = 0
  await svc.domain.channels.messages.delete(await svc.viewerOf(alice.token), channel.id, message.id)
  t.same(
    seen.map((e) => e.name),
    ['message.deleted'],
  )
  t.equal((seen[0] as DomainEvent<'message.deleted'>).payload.message.is_deleted, true)
})

t.test('a refused message emits nothing and stores nothing', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const channel = await svc.domain.channels.core.create(await svc.viewerOf(alice.token), { type: 'com.example.chat', readers: { user_ids: ['@bob'] } })
  const seen: string[] = []
  svc.domain.events.onAny((e) => seen.push(e.name))
  await t.rejects(svc.domain.channels.messages.create(await svc.viewerOf(bob.token), channel.id, { text: 'let me in' }), { code: 'forbidden' })
  t.same(seen, [])
  t.equal(await svc.store.read.messages.size(), 0)
})

t.test('a machine-only message may name users by id in entities.mentions', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const v = await svc.viewerOf(alice.token)
  const note = { type: 'com.example.ping', value: { n: 1 } }
  const channel = await svc.domain.channels.core.create(v, { type: 'com.example.chat' })
  const message = await svc.domain.channels.messages.create(v, channel.id, {
    machine_only: true,
    annotations: [note],
    entities: { mentions: [{ id: bob.user.id }] },
  })
  t.same(
    message.entities.mentions.map((m) => m.id),
    [String(bob.user.id)],
  )
})

t.test('message events carry the channel and exactly the users subscribed after the change', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  const av = await svc.viewerOf(alice.token)
  const channel = await svc.domain.channels.core.create(av, { type: 'com.example.chat', readers: { any_user: true }, writers: { any_user: true } })
  await svc.domain.channels.subscriptions.subscribe(await svc.viewerOf(bob.token), channel.id)
  await svc.domain.channels.subscriptions.subscribe(await svc.viewerOf(carol.token), channel.id)
  await svc.domain.channels.subscriptions.unsubscribe(await svc.viewerOf(carol.token), channel.id)
  const seen = recordEvents(svc)
  const message = await svc.domain.channels.messages.create(await svc.viewerOf(carol.token), channel.id, { text: 'from outside' })
  await svc.domain.channels.messages.delete(await svc.viewerOf(carol.token), channel.id, message.id)
  t.same(
    seen.map((e) => e.name),
    ['message.created', 'message.deleted'],
  )
  const [created, deleted] = seen as DomainEvent<'message.created'>[]
  t.equal(created.payload.message.id, message.id)
  t.equal(created.payload.channel.type, 'com.example.chat')
  t.same([...created.payload.subscribed_user_ids].sort(), [alice.user.id, bob.user.id].sort(), 'carol wrote but is not subscribed')
  t.equal(deleted.payload.message.is_deleted, true)
  t.equal(deleted.payload.message.text, '')
  t.equal(deleted.payload.channel.id, channel.id)
  t.same([...deleted.payload.subscribed_user_ids].sort(), [alice.user.id, bob.user.id].sort())
})

t.test('a new PM group’s channel event lists both members; the next message to the group creates no channel', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const av = await svc.viewerOf(alice.token)
  const seen = recordEvents(svc)
  const { channel } = await svc.domain.channels.pm.send(av, ['@bob'], { text: 'one' })
  const created = seen.find((e) => e.name === 'channel.created') as DomainEvent<'channel.created'>
  t.equal(created.payload.channel.id, channel.id)
  t.equal(created.payload.channel.type, 'svc.core.pm')
  t.same([...created.payload.subscribed_user_ids].sort(), [alice.user.id, bob.user.id].sort())
  const added = seen.filter((e) => e.name === 'subscription.added') as DomainEvent<'subscription.added'>[]
  t.same(added.map((e) => e.payload.user.id).sort(), [alice.user.id, bob.user.id].sort())
  t.ok(added.every((e) => e.payload.channel.id === channel.id))
  seen.length = 0
  await svc.domain.channels.pm.send(av, ['@bob'], { text: 'two' })
  t.same(
    seen.map((e) => e.name),
    ['message.created'],
    'both still subscribed: only the message',
  )
})
