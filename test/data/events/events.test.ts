import t from 'tap'
import type { DomainEvent } from '../../../data/index.js'
import { makeDomainInstance } from '../../fixtures/instance.js'

t.test('events are numbered in the order they happen and stamped with the time in milliseconds', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice] = await svc.people('alice', 'bob')
  const events: DomainEvent[] = []
  svc.domain.events.onAny((e) => events.push(e))
  const before = Date.now()
  const asAlice = await svc.viewerOf(alice)
  await svc.domain.relations.core.follow(asAlice, '@bob')
  await svc.domain.relations.core.mute(asAlice, '@bob')
  t.same(
    events.map((e) => e.name),
    ['follow.added', 'mute.added'],
  )
  t.equal(events[1].seq, events[0].seq + 1)
  t.ok(events.every((e) => e.at >= before && e.at <= Date.now()))
})
