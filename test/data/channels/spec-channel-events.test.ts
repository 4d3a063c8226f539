/**
 * The domain events behind the app stream's message, channel,
 * channel_subscription and stream_marker objects: each carries what the
 * stream's meta needs (the channel for `channel_id` and `channel_type`,
 * `subscribed_user_ids`, the user) and is emitted once, after the change.
 * What channels/messages/markers tests already pin is not repeated here.
 */
import t from 'tap'
import type { DomainEvent, Viewer } from '../../../data/index.js'
import { makeInstance, type Instance } from '../../fixtures/instance.js'

const viewer = (svc: Instance, token: string): Promise<Viewer> => svc.domain.tokens.authenticate(token)

const record = (svc: Instance): DomainEvent[] => {
  const seen: DomainEvent[] = []
  svc.domain.events.onAny((e) => seen.push(e))
  return seen
}

t.test('a channel marker’s event carries the channel; any other marker’s event has no channel at all', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const av = await viewer(svc, alice.token)
  const channel = await svc.domain.channels.create(av, { type: 'com.example.chat' })
  const seen = record(svc)
  await svc.domain.markers.set(av, [
    { name: `channel:${channel.id}`, id: 7 },
    { name: 'unified', id: 3 },
  ])
  const [forChannel, forStream] = seen as DomainEvent<'marker.set'>[]
  t.same(
    seen.map((e) => e.name),
    ['marker.set', 'marker.set'],
  )
  t.equal(forChannel.payload.channel?.id, channel.id)
  t.equal(forChannel.payload.channel?.type, 'com.example.chat')
  t.equal(forChannel.payload.user.id, alice.user.id)
  t.equal(forChannel.payload.marker.name, `channel:${channel.id}`)
  t.same(Object.keys(forStream.payload).sort(), ['marker', 'user'])
  t.equal(forStream.payload.marker.last_read_id, 3)
})

t.test('message events carry the channel and exactly the users subscribed after the change', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const av = await viewer(svc, alice.token)
  const channel = await svc.domain.channels.create(av, { type: 'com.example.chat', readers: { any_user: true }, writers: { any_user: true } })
  await svc.domain.subscriptions.subscribe(await viewer(svc, bob.token), channel.id)
  await svc.domain.subscriptions.subscribe(await viewer(svc, carol.token), channel.id)
  await svc.domain.subscriptions.unsubscribe(await viewer(svc, carol.token), channel.id)
  const seen = record(svc)
  const message = await svc.domain.messages.create(await viewer(svc, carol.token), channel.id, { text: 'from outside' })
  await svc.domain.messages.delete(await viewer(svc, carol.token), channel.id, message.id)
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

t.test('muting emits the unsubscription with the user and channel; unmuting emits nothing; subscribing back emits once', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const channel = await svc.domain.channels.create(await viewer(svc, alice.token), { type: 'com.example.chat', readers: { public: true } })
  const bv = await viewer(svc, bob.token)
  await svc.domain.subscriptions.subscribe(bv, channel.id)
  const seen = record(svc)
  await svc.domain.subscriptions.mute(bv, channel.id)
  await svc.domain.subscriptions.mute(bv, channel.id)
  t.same(
    seen.map((e) => e.name),
    ['subscription.removed'],
    'a second mute unsubscribes nobody',
  )
  const removed = seen[0] as DomainEvent<'subscription.removed'>
  t.equal(removed.payload.user.id, bob.user.id)
  t.equal(removed.payload.channel.id, channel.id)
  seen.length = 0
  await svc.domain.subscriptions.unmute(bv, channel.id)
  t.same(seen, [])
  await svc.domain.subscriptions.mute(bv, channel.id)
  await svc.domain.subscriptions.subscribe(bv, channel.id)
  t.same(
    seen.map((e) => e.name),
    ['subscription.added'],
    'mute of an unsubscribed user is silent; subscribing unmutes and subscribes',
  )
})

t.test('a new PM group’s channel event lists both members; the next message to the group creates no channel', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const av = await viewer(svc, alice.token)
  const seen = record(svc)
  const { channel } = await svc.domain.privateMessages.send(av, ['@bob'], { text: 'one' })
  const created = seen.find((e) => e.name === 'channel.created') as DomainEvent<'channel.created'>
  t.equal(created.payload.channel.id, channel.id)
  t.equal(created.payload.channel.type, 'svc.core.pm')
  t.same([...created.payload.subscribed_user_ids].sort(), [alice.user.id, bob.user.id].sort())
  const added = seen.filter((e) => e.name === 'subscription.added') as DomainEvent<'subscription.added'>[]
  t.same(added.map((e) => e.payload.user.id).sort(), [alice.user.id, bob.user.id].sort())
  t.ok(added.every((e) => e.payload.channel.id === channel.id))
  seen.length = 0
  await svc.domain.privateMessages.send(av, ['@bob'], { text: 'two' })
  t.same(
    seen.map((e) => e.name),
    ['message.created'],
    'both still subscribed: only the message',
  )
})

t.test('a refused channel change emits nothing', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const av = await viewer(svc, alice.token)
  const channel = await svc.domain.channels.create(av, { type: 'com.example.chat', readers: { immutable: true } })
  const seen = record(svc)
  await t.rejects(svc.domain.channels.create(av, { type: 'svc.core.pm' }), { code: 'invalid' })
  await t.rejects(svc.domain.channels.update(av, channel.id, { readers: { any_user: true } }), { code: 'invalid' })
  await t.rejects(svc.domain.channels.deactivate(await viewer(svc, bob.token), channel.id), { code: 'not_found' })
  await t.rejects(svc.domain.markers.set(await viewer(svc, bob.token), [{ name: `channel:${channel.id}`, id: 1 }]), { code: 'not_found' })
  t.same(seen, [])
})
