import t from 'tap'
import type { DomainEvent } from '../../../data/index.js'
import { pair } from '../../../data/store/schema.js'
import { eventLog, onFirst } from '../../fixtures/events.js'
import { makeDomainInstance, type DomainInstance, type Person } from '../../fixtures/instance.js'

const viewerOf = async (svc: DomainInstance, p: Person) => svc.domain.auth.tokens.authenticate(p.token)

const recorder = (svc: DomainInstance) => {
  const names: string[] = []
  svc.domain.events.onAny((e: DomainEvent) => names.push(e.name))
  return names
}

t.test('alice follows bob once however often she asks, and the counts follow', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const events = recorder(svc)
  const asAlice = await viewerOf(svc, alice)
  const target = await svc.domain.relations.core.follow(asAlice, '@bob')
  t.equal(target.id, bob.user.id)
  await svc.domain.relations.core.follow(asAlice, String(bob.user.id))
  t.same(events, ['follow.added'], 'the second follow changes nothing')
  const [view] = await svc.domain.users.views.views([bob.user], asAlice)
  t.equal(view.counts.followers, 1)
  t.equal(view.relation?.you_follow, true)
  await svc.domain.relations.core.unfollow(asAlice, '@bob')
  await svc.domain.relations.core.unfollow(asAlice, '@bob')
  t.same(events, ['follow.added', 'follow.removed'])
})

t.test('nobody can follow, mute or block themselves', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const asAlice = await viewerOf(svc, alice)
  for (const verb of ['follow', 'mute', 'block'] as const) {
    await t.rejects(svc.domain.relations.core[verb](asAlice, 'me'), { code: 'invalid' })
  }
})

t.test('robo the bot may follow only people who follow it', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const robo = await svc.person('robo', { type: 'bot' })
  const asRobo = await viewerOf(svc, robo)
  await t.rejects(svc.domain.relations.core.follow(asRobo, '@alice'), { code: 'forbidden' })
  await svc.domain.relations.core.follow(await viewerOf(svc, alice), '@robo')
  t.equal((await svc.domain.relations.core.follow(asRobo, '@alice')).id, alice.user.id)
})

t.test('a block removes both follows, hides each from the other and refuses new follows', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const asAlice = await viewerOf(svc, alice)
  const asBob = await viewerOf(svc, bob)
  await svc.domain.relations.core.follow(asAlice, '@bob')
  await svc.domain.relations.core.follow(asBob, '@alice')
  const events = recorder(svc)
  await svc.domain.relations.core.block(asAlice, '@bob')
  t.same(events, ['follow.removed', 'follow.removed', 'block.added'])
  const [bobSeen] = await svc.domain.users.views.views([bob.user], asAlice)
  t.match(bobSeen.relation, { you_blocked: true, you_follow: false, follows_you: false, you_can_follow: false })
  t.equal(bobSeen.counts.followers, 0)
  await t.rejects(svc.domain.relations.core.follow(asBob, '@alice'), { code: 'forbidden' })
  await svc.domain.relations.core.unblock(asAlice, '@bob')
  t.same(events, ['follow.removed', 'follow.removed', 'block.added', 'block.removed'])
  t.equal((await svc.domain.relations.core.follow(asBob, '@alice')).id, alice.user.id, 'after the unblock bob may follow again')
})

t.test('follower lists page by follow row, most recent follow first', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  await svc.domain.relations.core.follow(await viewerOf(svc, carol), '@alice')
  await svc.domain.relations.core.follow(await viewerOf(svc, bob), '@alice')
  const asAlice = await viewerOf(svc, alice)
  const page = await svc.domain.relations.lists.follows(asAlice, 'me', 'followers', { count: 1 })
  t.same(
    page.items.map((i) => i.item.username),
    ['bob'],
  )
  t.equal(page.more, true)
  const follow = await svc.store.read.follows.one('pair', `${bob.user.id}:${alice.user.id}`)
  t.equal(page.items[0].pagination_id, follow?.id, 'the pagination id is the follow row id')
  const next = await svc.domain.relations.lists.follows(asAlice, 'me', 'followers', { count: 1, before_id: String(page.items[0].pagination_id) })
  t.same(
    next.items.map((i) => i.item.username),
    ['carol'],
  )
  t.same(await svc.domain.relations.lists.followIds(asAlice, '@carol', 'following'), [String(alice.user.id)])
})

t.test('mute lists are private to their owner and to apps the owner authorised', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const asAlice = await viewerOf(svc, alice)
  const events = recorder(svc)
  await svc.domain.relations.core.mute(asAlice, '@carol')
  await svc.domain.relations.core.mute(asAlice, '@carol')
  t.same(events, ['mute.added'], 'muting twice emits once')
  t.same(
    (await svc.domain.relations.lists.hidden(asAlice, 'me', 'mutes')).map((u) => u.username),
    ['carol'],
  )
  await t.rejects(svc.domain.relations.lists.hidden(await viewerOf(svc, bob), '@alice', 'mutes'), { code: 'forbidden' })
  const asApp = await svc.domain.auth.tokens.authenticate(svc.appToken)
  t.same(
    (await svc.domain.relations.lists.hidden(asApp, '@alice', 'mutes')).map((u) => u.username),
    ['carol'],
  )
  const { app: other } = await svc.domain.auth.apps.create({ name: 'Other', redirect_uris: ['http://other.example/cb'] })
  const { access_token } = await svc.domain.auth.tokens.issueAppToken(other)
  const asOther = await svc.domain.auth.tokens.authenticate(access_token)
  await t.rejects(svc.domain.relations.lists.hidden(asOther, '@alice', 'mutes'), { code: 'forbidden' })
  t.same(await svc.domain.relations.lists.hiddenIds(asOther, [alice.user.id], 'mutes'), {}, 'an app alice never authorised learns nothing')
  t.same(await svc.domain.relations.lists.hiddenIds(asApp, [alice.user.id, carol.user.id, 999], 'mutes'), {
    [alice.user.id]: [String(carol.user.id)],
    [carol.user.id]: [],
  })
})

t.test('follow events name the follower as user and the followed as target, committed before they fire', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const seen = eventLog(svc)
  const read = svc.store.read
  const added = onFirst(svc, 'follow.added', async (e) => {
    t.same([e.payload.user.id, e.payload.target.id], [alice.user.id, bob.user.id])
    t.ok(await read.follows.one('pair', pair(alice.user.id, bob.user.id)), 'the follow is in the store when the event fires')
  })
  await svc.domain.relations.core.follow(await viewerOf(svc, alice), '@bob')
  const removed = onFirst(svc, 'follow.removed', async () => t.equal(await read.follows.one('pair', pair(alice.user.id, bob.user.id)), null))
  await svc.domain.relations.core.unfollow(await viewerOf(svc, alice), '@bob')
  await Promise.all([...added, ...removed])
  t.same(seen, ['follow.added alice->bob', 'follow.removed alice->bob'])
})

t.test('mute and block events name who acted as user and whom as target', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice] = await svc.people('alice', 'bob')
  const asAlice = await viewerOf(svc, alice)
  const seen = eventLog(svc)
  await svc.domain.relations.core.mute(asAlice, '@bob')
  await svc.domain.relations.core.unmute(asAlice, '@bob')
  await svc.domain.relations.core.unmute(asAlice, '@bob')
  await svc.domain.relations.core.block(asAlice, '@bob')
  await svc.domain.relations.core.block(asAlice, '@bob')
  await svc.domain.relations.core.unblock(asAlice, '@bob')
  await svc.domain.relations.core.unblock(asAlice, '@bob')
  t.same(seen, ['mute.added alice->bob', 'mute.removed alice->bob', 'block.added alice->bob', 'block.removed alice->bob'])
})

t.test('a block first announces each follow it removed, in its own direction, then the block', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  await svc.domain.relations.core.follow(await viewerOf(svc, bob), '@alice')
  const seen = eventLog(svc)
  const read = svc.store.read
  const checked = onFirst(svc, 'follow.removed', async () =>
    t.ok(await read.blocks.one('pair', pair(alice.user.id, bob.user.id)), 'the block is committed with it'),
  )
  await svc.domain.relations.core.block(await viewerOf(svc, alice), '@bob')
  await Promise.all(checked)
  t.same(seen, ['follow.removed bob->alice', 'block.added alice->bob'], 'only bob followed alice')
})

t.test('refused relation changes announce nothing', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const robo = await svc.person('robo', { type: 'bot' })
  await svc.domain.relations.core.block(await viewerOf(svc, bob), '@alice')
  const seen = eventLog(svc)
  await t.rejects(svc.domain.relations.core.follow(await viewerOf(svc, alice), '@bob'), { code: 'forbidden' })
  await t.rejects(svc.domain.relations.core.follow(await viewerOf(svc, robo), '@alice'), { code: 'forbidden' })
  await t.rejects(svc.domain.relations.core.mute(await viewerOf(svc, alice), '@nobody'), { code: 'not_found' })
  await t.rejects(svc.domain.relations.core.block(await viewerOf(svc, alice), 'me'), { code: 'invalid' })
  t.same(seen, [])
})
