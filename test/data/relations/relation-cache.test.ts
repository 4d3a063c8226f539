import t from 'tap'
import type { DomainEvent } from '../../../data/index.js'
import { RelationCache } from '../../../data/relations/relation-cache.js'
import { makeDomainInstance } from '../../fixtures/instance.js'

t.test('a home timeline read again and again follows every follow, unfollow, mute and block at once', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  const me = await svc.viewerOf(alice)
  await svc.domain.posts.core.create(await svc.viewerOf(bob), { text: 'from bob' })
  await svc.domain.posts.core.create(await svc.viewerOf(carol), { text: 'from carol' })
  const home = async () => (await svc.domain.posts.streams.unified(me, {})).page.items.map((i) => i.item.text).sort()

  t.same(await home(), [], 'nobody followed yet')
  t.same(await home(), [], 'read twice: the empty set is kept')
  await svc.domain.relations.core.follow(me, '@bob')
  t.same(await home(), ['from bob'], 'the follow shows at once')
  await svc.domain.relations.core.follow(me, '@carol')
  t.same(await home(), ['from bob', 'from carol'])
  await svc.domain.relations.core.mute(me, '@carol')
  t.same(await home(), ['from bob'], 'the mute hides carol at once')
  await svc.domain.relations.core.unmute(me, '@carol')
  t.same(await home(), ['from bob', 'from carol'])
  await svc.domain.relations.core.block(await svc.viewerOf(bob), '@alice')
  t.same(await home(), ['from carol'], "bob's block ends her follow and hides him at once")
  await svc.domain.relations.core.unfollow(me, '@carol')
  t.same(await home(), [], 'the unfollow shows at once')
})

t.test('a read that began before a change is not kept after it', async (t) => {
  const cache = new RelationCache()
  const change = { name: 'follow.added', payload: { user: { id: 1 }, target: { id: 2 } } } as unknown as DomainEvent
  let release = () => {}
  const slow = cache.read('follows', 'targets', 1, () => new Promise((resolve) => (release = () => resolve(new Set([7])))))
  cache.changed(change)
  release()
  t.same([...(await slow)], [7], 'the slow read answers what it read')
  let loads = 0
  const fresh = await cache.read('follows', 'targets', 1, async () => (loads++, new Set([7, 2])))
  t.same([...fresh], [7, 2], 'the next read reads again')
  t.equal(loads, 1)
  await cache.read('follows', 'targets', 1, async () => (loads++, new Set()))
  t.equal(loads, 1, 'and that one is kept')
  cache.changed({ ...change, payload: { user: { id: 9 }, target: { id: 1 } } } as unknown as DomainEvent)
  await cache.read('follows', 'targets', 1, async () => (loads++, new Set()))
  t.equal(loads, 1, "someone following user 1 changes 1's followers, not 1's follows")
  await cache.read('follows', 'holders', 1, async () => (loads++, new Set([9])))
  t.equal(loads, 2)
})
