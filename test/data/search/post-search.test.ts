import t from 'tap'
import type { PostRow } from '../../../data/index.js'
import { makeDomainInstance } from '../../fixtures/instance.js'
import { checkin, geolocation, photo, writePost, writeRelation } from '../../fixtures/post-rows.js'

const ids = (page: { items: { item: PostRow }[] }) => page.items.map((i) => i.item.id)
const page = { count: 20 }

const story = async (t: Parameters<typeof makeDomainInstance>[0]) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob, carol] = [await svc.person('alice'), await svc.person('bob'), await svc.person('carol')]
  const coffee = await writePost(svc, alice.user, { text: 'Good coffee in Berlin today', hashtags: ['coffee'], annotations: [geolocation] })
  const tea = await writePost(svc, bob.user, { text: 'Tea, not coffee. Coffee is overrated, coffee!', mentions: [alice.user], directed: true })
  const reply = await writePost(svc, carol.user, { text: 'Berlin has the best cafés', reply_to: coffee, annotations: [checkin, photo] })
  await writePost(svc, bob.user, { text: 'coffee coffee', machine_only: true, annotations: [geolocation] })
  await writePost(svc, bob.user, { text: 'deleted coffee', is_deleted: true })
  await writePost(svc, carol.user, { text: 'Good coffee in Berlin today', repost_of: coffee })
  return { svc, alice, bob, carol, coffee, tea, reply }
}
type Story = Awaited<ReturnType<typeof story>>
const search = (s: Story, input: object, query: object = page, viewer = {}) => s.svc.domain.posts.search.search(viewer, input, { count: 20, ...query })

t.test('a search needs a query or a filter, and order=score needs a query', async (t) => {
  const s = await story(t)
  await t.rejects(search(s, {}), { code: 'invalid', message: /query or at least one filter/ })
  await t.rejects(search(s, { query: '  !! ' }), { code: 'invalid' }, 'punctuation alone is no query')
  await t.rejects(search(s, { creator_id: s.alice.user.id, order: 'score' }), { code: 'invalid', message: /order=score/ })
})

t.test('free text finds live original posts only, newest first', async (t) => {
  const s = await story(t)
  t.same(ids(await search(s, { query: 'coffee' })), [s.tea.id, s.coffee.id], 'no machine-only, deleted or repost')
  t.same(ids(await search(s, { query: 'berlin' })), [s.reply.id, s.coffee.id])
  t.same(ids(await search(s, { query: 'berlin -cafés' })), [s.coffee.id])
  t.same(ids(await search(s, { query: '"coffee in berlin"' })), [s.coffee.id])
  t.same(ids(await search(s, { query: 'tea OR cafés' })), [s.reply.id, s.tea.id])
  t.same(ids(await search(s, { query: 'coffee berlin' })), [s.coffee.id], 'plain terms are all required')
})

t.test('a #tag or @name in query matches entities, but text searches words only', async (t) => {
  const s = await story(t)
  t.same(ids(await search(s, { query: '#coffee' })), [s.coffee.id])
  t.same(ids(await search(s, { query: '@alice' })), [s.tea.id])
  t.same(ids(await search(s, { text: '#coffee' })), [s.tea.id, s.coffee.id])
})

t.test('order=score ranks by relevance and pages stably', async (t) => {
  const s = await story(t)
  const first = await search(s, { query: 'coffee', order: 'score' }, { count: 1 })
  t.same(ids(first), [s.tea.id], 'three mentions of coffee outrank one')
  t.equal(first.more, true)
  const next = await search(s, { query: 'coffee', order: 'score' }, { count: 1, before_id: first.items[0].pagination_id })
  t.same(ids(next), [s.coffee.id])
  t.equal(next.more, false)
})

t.test('filters narrow by author, thread, reply, direction, location and annotations', async (t) => {
  const s = await story(t)
  t.same(ids(await search(s, { creator_id: s.bob.user.id })), [s.tea.id])
  t.same(ids(await search(s, { thread_id: s.coffee.id })), [s.reply.id, s.coffee.id])
  t.same(ids(await search(s, { reply_to: s.coffee.id })), [s.reply.id])
  t.same(ids(await search(s, { is_reply: true })), [s.reply.id])
  t.same(ids(await search(s, { is_directed: true })), [s.tea.id])
  t.same(ids(await search(s, { is_directed: false, query: 'coffee' })), [s.coffee.id])
  t.same(ids(await search(s, { has_location: true })), [s.coffee.id])
  t.same(ids(await search(s, { has_checkin: true })), [s.reply.id])
  t.same(ids(await search(s, { has_oembed_photo: true })), [s.reply.id])
  t.same(ids(await search(s, { annotation_types: ['svc.core.checkin', 'svc.core.oembed'] })), [s.reply.id])
  t.same(ids(await search(s, { hashtags: ['#Coffee'] })), [s.coffee.id])
  t.same(ids(await search(s, { mentions: ['alice'] })), [s.tea.id])
  t.same(ids(await search(s, { mentions: ['nobody'] })), [])
  t.same(ids(await search(s, { client_id: s.svc.app.client_id })), [s.reply.id, s.tea.id, s.coffee.id])
  t.same(ids(await search(s, { client_id: 'unknown-client' })), [])
})

t.test('a searcher does not see authors they muted or who blocked them', async (t) => {
  const s = await story(t)
  await writeRelation(s.svc, 'mutes', s.alice.user, s.bob.user)
  await writeRelation(s.svc, 'blocks', s.carol.user, s.alice.user)
  const alice = await s.svc.domain.auth.tokens.authenticate(s.alice.token)
  t.same(ids(await search(s, { query: 'coffee OR berlin' }, page, alice)), [s.coffee.id])
  t.same(ids(await search(s, { query: 'coffee OR berlin', order: 'score' }, page, alice)), [s.coffee.id])
})
