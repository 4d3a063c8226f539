/**
 * The domain events behind the app stream's post, star, user_follow, mute
 * and block rows: each carries the objects that row's `data` is made of
 * (`{follows_user, user}`, `{muted_user, user}`, `{blocked_user, user}`,
 * `{post, user}`, a Post), fires once per change after its commit, and not
 * at all for a refused or repeated action.
 */
import t from 'tap'
import type { DomainEvent, EventName } from '../../data/index.js'
import { pair } from '../../data/store/schema.js'
import { makeInstance, type Instance, type Person } from '../fixtures/instance.js'

const as = (svc: Instance, p: Person) => svc.domain.tokens.authenticate(p.token)

/** Every event as `name user->target` (usernames), or `name #post` for post events. */
const recorder = (svc: Instance) => {
  const seen: string[] = []
  svc.domain.events.onAny((e: DomainEvent) => {
    const p = e.payload as { user?: { username: string }; target?: { username: string }; post?: { id: number } }
    if (p.target) seen.push(`${e.name} ${p.user?.username}->${p.target.username}`)
    else if (p.post) seen.push(`${e.name} #${p.post.id}${p.user ? ` by ${p.user.username}` : ''}`)
  })
  return seen
}

/** Runs `check` inside the first `name` listener call, when the change must already be committed. */
const onFirst = <N extends EventName>(svc: Instance, name: N, check: (e: DomainEvent<N>) => Promise<unknown>) => {
  const results: Promise<unknown>[] = []
  const off = svc.domain.events.on(name, (e) => {
    off()
    results.push(check(e))
  })
  return results
}

t.test('follow events name the follower as user and the followed as target, committed before they fire', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const seen = recorder(svc)
  const read = svc.store.read
  const added = onFirst(svc, 'follow.added', async (e) => {
    t.same([e.payload.user.id, e.payload.target.id], [alice.user.id, bob.user.id])
    t.ok(await read.follows.one('pair', pair(alice.user.id, bob.user.id)), 'the follow is in the store when the event fires')
  })
  await svc.domain.relations.follow(await as(svc, alice), '@bob')
  const removed = onFirst(svc, 'follow.removed', async () => t.equal(await read.follows.one('pair', pair(alice.user.id, bob.user.id)), null))
  await svc.domain.relations.unfollow(await as(svc, alice), '@bob')
  await Promise.all([...added, ...removed])
  t.same(seen, ['follow.added alice->bob', 'follow.removed alice->bob'])
})

t.test('mute and block events name who acted as user and whom as target', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  const asAlice = await as(svc, alice)
  const seen = recorder(svc)
  await svc.domain.relations.mute(asAlice, '@bob')
  await svc.domain.relations.unmute(asAlice, '@bob')
  await svc.domain.relations.unmute(asAlice, '@bob')
  await svc.domain.relations.block(asAlice, '@bob')
  await svc.domain.relations.block(asAlice, '@bob')
  await svc.domain.relations.unblock(asAlice, '@bob')
  await svc.domain.relations.unblock(asAlice, '@bob')
  t.same(seen, ['mute.added alice->bob', 'mute.removed alice->bob', 'block.added alice->bob', 'block.removed alice->bob'])
})

t.test('a block first announces each follow it removed, in its own direction, then the block', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await svc.domain.relations.follow(await as(svc, bob), '@alice')
  const seen = recorder(svc)
  const read = svc.store.read
  const checked = onFirst(svc, 'follow.removed', async () =>
    t.ok(await read.blocks.one('pair', pair(alice.user.id, bob.user.id)), 'the block is committed with it'),
  )
  await svc.domain.relations.block(await as(svc, alice), '@bob')
  await Promise.all(checked)
  t.same(seen, ['follow.removed bob->alice', 'block.added alice->bob'], 'only bob followed alice')
})

t.test('refused relation changes announce nothing', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const robo = await svc.person('robo', { type: 'bot' })
  await svc.domain.relations.block(await as(svc, bob), '@alice')
  const seen = recorder(svc)
  await t.rejects(svc.domain.relations.follow(await as(svc, alice), '@bob'), { code: 'forbidden' })
  await t.rejects(svc.domain.relations.follow(await as(svc, robo), '@alice'), { code: 'forbidden' })
  await t.rejects(svc.domain.relations.mute(await as(svc, alice), '@nobody'), { code: 'not_found' })
  await t.rejects(svc.domain.relations.block(await as(svc, alice), 'me'), { code: 'invalid' })
  t.same(seen, [])
})

t.test('post events carry the post: created as stored, deleted with is_deleted, reposts included', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const posts: DomainEvent<'post.created' | 'post.deleted'>[] = []
  svc.domain.events.on('post.created', (e) => posts.push(e))
  svc.domain.events.on('post.deleted', (e) => posts.push(e))
  const read = svc.store.read
  const stored = onFirst(svc, 'post.created', async (e) => t.same(await read.posts.get(e.payload.post.id), e.payload.post, 'the event post is the stored row'))
  const original = await svc.domain.posts.create(await as(svc, alice), { text: 'hello #world' })
  await Promise.all(stored)
  const asBob = await as(svc, bob)
  const repost = await svc.domain.reposts.repost(asBob, original.id)
  await svc.domain.reposts.repost(asBob, original.id)
  await svc.domain.reposts.unrepost(asBob, original.id)
  await svc.domain.reposts.unrepost(asBob, original.id)
  t.same(
    posts.map((e) => [e.name, e.payload.post.id, e.payload.post.repost_of, e.payload.post.is_deleted]),
    [
      ['post.created', original.id, undefined, undefined],
      ['post.created', repost.id, original.id, undefined],
      ['post.deleted', repost.id, original.id, true],
    ],
    'a repeated repost or unrepost announces nothing',
  )
  t.same(posts[0].payload.post.entities.hashtags, [{ name: 'world', pos: 6, len: 6 }], 'the created post is the processed one')
})

t.test('star events carry the post and the user who starred it, once per change', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const post = await svc.domain.posts.create(await as(svc, alice), { text: 'star me' })
  const repost = await svc.domain.reposts.repost(await as(svc, bob), post.id)
  const seen = recorder(svc)
  const read = svc.store.read
  const checked = onFirst(svc, 'star.added', async (e) => {
    t.same([e.payload.post.id, e.payload.user.id], [post.id, bob.user.id])
    t.ok(await read.stars.one('pair', pair(bob.user.id, post.id)), 'the star is committed')
  })
  const asBob = await as(svc, bob)
  await svc.domain.stars.unstar(asBob, post.id)
  await svc.domain.stars.star(asBob, post.id)
  await svc.domain.stars.star(asBob, post.id)
  await t.rejects(svc.domain.stars.star(await as(svc, alice), repost.id), { code: 'invalid' })
  await svc.domain.stars.unstar(asBob, post.id)
  await Promise.all(checked)
  t.same(seen, [`star.added #${post.id} by bob`, `star.removed #${post.id} by bob`])
})

t.test('events are numbered in the order they happen and stamped with the time in milliseconds', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  const events: DomainEvent[] = []
  svc.domain.events.onAny((e) => events.push(e))
  const before = Date.now()
  const asAlice = await as(svc, alice)
  await svc.domain.relations.follow(asAlice, '@bob')
  await svc.domain.relations.mute(asAlice, '@bob')
  t.same(
    events.map((e) => e.name),
    ['follow.added', 'mute.added'],
  )
  t.equal(events[1].seq, events[0].seq + 1)
  t.ok(events.every((e) => e.at >= before && e.at <= Date.now()))
})
