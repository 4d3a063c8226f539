import t from 'tap'
import { pair } from '../../../data/store/schema.js'
import { eventLog, onFirst } from '../../fixtures/events.js'
import { makeDomainInstance } from '../../fixtures/instance.js'

t.test('star events carry the post and the user who starred it, once per change', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const post = await svc.domain.posts.core.create(await svc.viewerOf(alice), { text: 'star me' })
  const repost = await svc.domain.posts.reposts.repost(await svc.viewerOf(bob), post.id)
  const seen = eventLog(svc)
  const read = svc.store.read
  const checked = onFirst(svc, 'star.added', async (e) => {
    t.same([e.payload.post.id, e.payload.user.id], [post.id, bob.user.id])
    t.ok(await read.stars.one('pair', pair(bob.user.id, post.id)), 'the star is committed')
  })
  const asBob = await svc.viewerOf(bob)
  await svc.domain.posts.stars.unstar(asBob, post.id)
  await svc.domain.posts.stars.star(asBob, post.id)
  await svc.domain.posts.stars.star(asBob, post.id)
  await t.rejects(svc.domain.posts.stars.star(await svc.viewerOf(alice), repost.id), { code: 'invalid' })
  await svc.domain.posts.stars.unstar(asBob, post.id)
  await Promise.all(checked)
  t.same(seen, [`star.added #${post.id} by bob`, `star.removed #${post.id} by bob`])
})
