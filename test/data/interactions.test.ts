import t from 'tap'
import type { Interaction } from '../../data/index.js'
import { makeInstance } from '../fixtures/instance.js'
import { writePost, writeRelation, writeStar } from '../fixtures/post-rows.js'

const summary = (page: { items: { item: Interaction }[] }) =>
  page.items.map(({ item }) => `${item.action} ${item.objects.map((o) => ('username' in o ? o.username : o.id)).join(',')} by ${item.users.map((u) => u.username).join(',')}`)

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000)

t.test('alice sees who followed her and who starred, reposted and replied to her posts, grouped', async (t) => {
  const svc = await makeInstance(t)
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
  const viewer = await svc.domain.tokens.authenticate(alice.token)
  const page = await svc.domain.interactions.list(viewer, undefined, { count: 20 })
  t.same(summary(page), [`star ${hello.id} by carol,bob`, `reply ${hello.id} by carol`, `repost ${hello.id} by robo`, 'follow alice by carol,bob'])
  t.equal(page.items[0].item.event_date, page.items[0].item.event_date.replace(/\.\d+Z$/, 'Z'))
  t.ok(Date.parse(page.items[0].item.event_date) > Date.parse(page.items[1].item.event_date))
  const follows = await svc.domain.interactions.list(viewer, ['follow', 'repost'], { count: 20 })
  t.same(summary(follows), [`repost ${hello.id} by robo`, 'follow alice by carol,bob'])
})

t.test('the same action more than a day apart makes two interactions, and pages walk back in time', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = [await svc.person('alice'), await svc.person('bob'), await svc.person('carol')]
  const hello = await writePost(svc, alice.user, { created_at: hoursAgo(100).toISOString() })
  await writeStar(svc, bob.user, hello, hoursAgo(72))
  await writeStar(svc, carol.user, hello, hoursAgo(1))
  const viewer = await svc.domain.tokens.authenticate(alice.token)
  const first = await svc.domain.interactions.list(viewer, undefined, { count: 1 })
  t.same(summary(first), [`star ${hello.id} by carol`])
  t.equal(first.more, true)
  const second = await svc.domain.interactions.list(viewer, undefined, { count: 1, before_id: first.items[0].pagination_id })
  t.same(summary(second), [`star ${hello.id} by bob`])
  t.equal(second.more, false)
})

t.test('muted and blocked users, deleted replies and removed reposts leave no interaction', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = [await svc.person('alice'), await svc.person('bob'), await svc.person('carol')]
  const hello = await writePost(svc, alice.user)
  await writeRelation(svc, 'follows', bob.user, alice.user)
  await writeRelation(svc, 'mutes', alice.user, bob.user)
  await writeStar(svc, carol.user, hello)
  await writeRelation(svc, 'blocks', carol.user, alice.user)
  const dave = await svc.person('dave')
  await writePost(svc, dave.user, { reply_to: hello, is_deleted: true })
  const viewer = await svc.domain.tokens.authenticate(alice.token)
  const page = await svc.domain.interactions.list(viewer, undefined, { count: 20 })
  t.same(page.items, [])
  t.equal(page.more, false)
})

t.test('interactions need a signed-in user', async (t) => {
  const svc = await makeInstance(t)
  await t.rejects(svc.domain.interactions.list({}, undefined, { count: 20 }), { code: 'forbidden' })
})
