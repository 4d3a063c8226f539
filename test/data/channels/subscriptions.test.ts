import t from 'tap'
import type { DomainEvent } from '../../../data/index.js'
import { recordEvents } from '../../fixtures/events.js'
import { makeDomainInstance } from '../../fixtures/instance.js'

t.test('muting emits the unsubscription with the user and channel; unmuting emits nothing; subscribing back emits once', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const channel = await svc.domain.channels.core.create(await svc.viewerOf(alice.token), { type: 'com.example.chat', readers: { public: true } })
  const bv = await svc.viewerOf(bob.token)
  await svc.domain.channels.subscriptions.subscribe(bv, channel.id)
  const seen = recordEvents(svc)
  await svc.domain.channels.subscriptions.mute(bv, channel.id)
  await svc.domain.channels.subscriptions.mute(bv, channel.id)
  t.same(
    seen.map((e) => e.name),
    ['subscription.removed'],
    'a second mute unsubscribes nobody',
  )
  const removed = seen[0] as DomainEvent<'subscription.removed'>
  t.equal(removed.payload.user.id, bob.user.id)
  t.equal(removed.payload.channel.id, channel.id)
  seen.length = 0
  await svc.domain.channels.subscriptions.unmute(bv, channel.id)
  t.same(seen, [])
  await svc.domain.channels.subscriptions.mute(bv, channel.id)
  await svc.domain.channels.subscriptions.subscribe(bv, channel.id)
  t.same(
    seen.map((e) => e.name),
    ['subscription.added'],
    'mute of an unsubscribed user is silent; subscribing unmutes and subscribes',
  )
})
