import t from 'tap'
import { makeDomainInstance } from '../../fixtures/instance.js'

t.test('a page stays full when many posts in a row are filtered out', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const asAlice = await svc.viewerOf(alice)
  await svc.domain.posts.core.create(await svc.viewerOf(bob), { text: 'bob one' })
  await svc.domain.posts.core.create(await svc.viewerOf(bob), { text: 'bob two' })
  await svc.domain.posts.core.create(await svc.viewerOf(bob), { text: 'bob three' })
  const asCarol = await svc.viewerOf(carol)
  for (let i = 0; i < 30; i++) await svc.domain.posts.core.create(asCarol, { text: `carol ${i}` })
  await svc.domain.relations.core.mute(asAlice, '@carol')
  const list = await svc.domain.posts.streams.global(asAlice, { count: 2 })
  t.same(
    list.page.items.map((i) => i.item.text),
    ['bob three', 'bob two'],
  )
  t.equal(list.page.more, true)
  const rest = await svc.domain.posts.streams.global(asAlice, { count: 2, before_id: list.page.items[1].pagination_id })
  t.same(
    rest.page.items.map((i) => i.item.text),
    ['bob one'],
  )
  t.equal(rest.page.more, false)
})

t.test('in my stream a repost of a post I already see is left out, and each original shows once', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const dave = await svc.person('dave')
  const asAlice = await svc.viewerOf(alice)
  await svc.domain.relations.core.follow(asAlice, '@bob')
  await svc.domain.relations.core.follow(asAlice, '@carol')
  const byBob = await svc.domain.posts.core.create(await svc.viewerOf(bob), { text: 'bob says' })
  const byDave = await svc.domain.posts.core.create(await svc.viewerOf(dave), { text: 'dave says' })
  await svc.domain.posts.reposts.repost(await svc.viewerOf(carol), byBob.id)
  await svc.domain.posts.reposts.repost(await svc.viewerOf(carol), byDave.id)
  await svc.domain.posts.reposts.repost(await svc.viewerOf(bob), byDave.id)
  const list = await svc.domain.posts.streams.personal(asAlice, { count: 20 })
  t.same(
    list.page.items.map((i) => i.item.text),
    ['>> @dave: dave says', 'bob says'],
  )
  t.equal(list.page.items[0].item.user_id, carol.user.id, "the first repost of dave's post is the one shown")
})

t.test("a repost of a blocked author's post is hidden too, even looked up by id", async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const asAlice = await svc.viewerOf(alice)
  await svc.domain.relations.core.follow(asAlice, '@bob')
  const byCarol = await svc.domain.posts.core.create(await svc.viewerOf(carol), { text: 'carol says' })
  const repost = await svc.domain.posts.reposts.repost(await svc.viewerOf(bob), byCarol.id)
  await svc.domain.relations.core.block(await svc.viewerOf(carol), '@alice')
  t.same((await svc.domain.posts.streams.personal(asAlice, { count: 20 })).page.items, [])
  await t.rejects(svc.domain.posts.core.find(asAlice, repost.id), { code: 'not_found' })
})

t.test('machine-only posts with mentions count as directed', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await svc.person('carol')
  const asAlice = await svc.viewerOf(alice)
  await svc.domain.relations.core.follow(asAlice, '@bob')
  await svc.domain.posts.core.create(await svc.viewerOf(bob), {
    machine_only: true,
    annotations: [{ type: 'com.example.ping', value: {} }],
    entities: { mentions: [{ name: 'carol' }] },
  })
  const hidden = await svc.domain.posts.streams.personal(asAlice, { count: 20, include_machine: true })
  t.same(hidden.page.items, [])
  const shown = await svc.domain.posts.streams.personal(asAlice, { count: 20, include_machine: true, include_directed_posts: true })
  t.equal(shown.page.items.length, 1)
})
