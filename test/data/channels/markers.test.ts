import t from 'tap'
import type { DomainEvent } from '../../../data/index.js'
import { recordEvents } from '../../fixtures/events.js'
import { makeDomainInstance } from '../../fixtures/instance.js'

t.test('an unset marker is absent, a set one carries its id, last_read_id and a version', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  t.equal(await svc.domain.channels.markers.find(alice.user.id, 'unified'), null)
  const [marker] = await svc.domain.channels.markers.set(await svc.viewerOf(alice.token), [{ name: 'unified', id: 12, percentage: 40 }])
  t.equal(marker.item_id, 12)
  t.equal(marker.last_read_id, 12)
  t.equal(marker.percentage, 40)
  t.match(marker.version, /^[0-9a-f]{16}$/)
  t.same(await svc.domain.channels.markers.find(alice.user.id, 'unified'), marker)
})

t.test("alice's last_read_id only moves forward unless she asks for a reset", async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const viewer = await svc.viewerOf(alice.token)
  const [first] = await svc.domain.channels.markers.set(viewer, [{ name: 'my_stream', id: 50 }])
  const [back] = await svc.domain.channels.markers.set(viewer, [{ name: 'my_stream', id: 20 }])
  t.equal(back.item_id, 20, 'the viewport item follows what was sent')
  t.equal(back.last_read_id, 50, 'the highest id ever reported stays')
  t.not(back.version, first.version, 'every update changes the version')
  const [reset] = await svc.domain.channels.markers.set(viewer, [{ name: 'my_stream', id: 20 }], { resetReadId: true })
  t.equal(reset.last_read_id, 20)
})

t.test('markers are per user: bob does not see alice’s position', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await svc.domain.channels.markers.set(await svc.viewerOf(alice.token), [{ name: 'global', id: 3 }])
  t.equal(await svc.domain.channels.markers.find(bob.user.id, 'global'), null)
})

t.test('a list of markers is set together and answered in order, each with an event', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const seen: string[] = []
  svc.domain.events.on('marker.set', (e) => seen.push(e.payload.marker.name))
  const rows = await svc.domain.channels.markers.set(await svc.viewerOf(alice.token), [
    { name: `mentions:${alice.user.id}`, id: 4 },
    { name: 'tag:rust', id: 9 },
    { name: 'explore:photos', id: 2 },
  ])
  t.same(
    rows.map((r) => r.name),
    [`mentions:${alice.user.id}`, 'tag:rust', 'explore:photos'],
  )
  t.same(
    seen,
    rows.map((r) => r.name),
  )
})

t.test('unknown marker names, percentages outside 0 to 100 and unreadable channels are refused', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const viewer = await svc.viewerOf(alice.token)
  await t.rejects(svc.domain.channels.markers.set(viewer, [{ name: 'everything' }]), { code: 'invalid' })
  await t.rejects(svc.domain.channels.markers.set(viewer, [{ name: 'unified', percentage: 100.5 }]), { code: 'invalid' })
  await t.rejects(svc.domain.channels.markers.set(viewer, [{ name: 'unified', percentage: Number.NaN }]), { code: 'invalid' })
  await t.rejects(svc.domain.channels.markers.set(viewer, [{ name: 'channel:999', id: 1 }]), { code: 'not_found' })
  await t.rejects(svc.domain.channels.markers.set({}, [{ name: 'unified', id: 1 }]), { code: 'invalid' })
})

t.test('a channel marker’s event carries the channel; any other marker’s event has no channel at all', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const av = await svc.viewerOf(alice.token)
  const channel = await svc.domain.channels.core.create(av, { type: 'com.example.chat' })
  const seen = recordEvents(svc)
  await svc.domain.channels.markers.set(av, [
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
