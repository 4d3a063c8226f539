import t from 'tap'
import { rmSync } from 'node:fs'
import { openDomain, type PostRow } from '../../../data/index.js'
import { makeDomainInstance } from '../../fixtures/instance.js'
import { checkin, geolocation, photo, writePost, writeRelation, writeStar } from '../../fixtures/post-rows.js'
import { scratchDir } from '../../fixtures/scratch.js'

const ids = (page: { items: { item: PostRow }[] }) => page.items.map((i) => i.item.id)
const page = { count: 20 }

t.test('a fresh instance ships the five streams App.net had, each marker named for its slug', async (t) => {
  const svc = await makeDomainInstance(t)
  const streams = await svc.domain.explore.list()
  t.same(
    streams.map((s) => s.slug),
    ['posts', 'conversations', 'photos', 'trending', 'checkins'],
  )
  const posts = streams[0]
  t.equal(posts.title, 'Posts')
  t.equal(posts.description, 'Posts not directed at any user')
  t.equal(posts.marker, 'posts')
  t.equal(streams[2].marker, 'photos')
})

t.test('reopening a data dir never brings back streams an admin deleted', async (t) => {
  const dir = scratchDir('svc-explore-')
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  let domain = await openDomain(dir)
  await domain.start()
  await domain.users.accounts.create({ username: 'alice' })
  for (const s of await domain.explore.list()) await domain.explore.remove(s.slug)
  await domain.close()
  domain = await openDomain(dir)
  await domain.start()
  t.same(await domain.explore.list(), [])
  t.equal(await domain.explore.seedDefaults(), false)
  await domain.close()
})

t.test('an admin defines a stream and every change is announced after commit', async (t) => {
  const svc = await makeDomainInstance(t)
  const seen: string[] = []
  svc.domain.events.on('explore.changed', (e) => {
    seen.push(`${e.payload.stream.slug}${e.payload.removed ? ' removed' : ''}`)
  })
  const stream = await svc.domain.explore.create({ slug: 'cats', title: 'Cats', description: 'Posts about cats', rule: { hashtag: '#Cats' } })
  t.equal(stream.marker, 'cats')
  t.same(stream.rule, { hashtag: 'cats' })
  const renamed = await svc.domain.explore.update('cats', { slug: 'kittens', title: 'Kittens' })
  t.equal(renamed.slug, 'kittens')
  t.equal(renamed.description, 'Posts about cats')
  t.equal(renamed.marker, 'kittens', 'a marker named for the slug follows the new slug')
  await svc.domain.explore.create({ slug: 'dogs', title: 'Dogs', description: 'Posts about dogs', marker: 'woof' })
  t.equal((await svc.domain.explore.update('dogs', { slug: 'puppies' })).marker, 'woof', 'a marker the admin chose stays')
  await svc.domain.explore.remove('puppies')
  await svc.domain.explore.remove('kittens')
  t.same(seen, ['cats', 'kittens', 'dogs', 'puppies', 'puppies removed', 'kittens removed'])
  await t.rejects(svc.domain.explore.bySlug('kittens'), { code: 'not_found' })
})

t.test('bad slugs, texts, rules and taken slugs are refused', async (t) => {
  const svc = await makeDomainInstance(t)
  const base = { title: 'T', description: 'D' }
  await t.rejects(svc.domain.explore.create({ ...base, slug: 'Cats!' }), { code: 'invalid', message: /slug/ })
  await t.rejects(svc.domain.explore.create({ ...base, slug: 'cat-pics' }), { code: 'invalid', message: /slug/ }, 'a slug is lowercase alphanumeric')
  await t.rejects(svc.domain.explore.update('photos', { slug: 'cat-pics' }), { code: 'invalid', message: /slug/ })
  await t.rejects(svc.domain.explore.create({ ...base, slug: 'photos' }), { code: 'conflict' })
  await t.rejects(svc.domain.explore.create({ slug: 'x', title: ' ', description: 'D' }), { code: 'invalid', message: /title/ })
  await t.rejects(svc.domain.explore.create({ ...base, slug: 'x', rule: { min_stars: 0 } }), { code: 'invalid', message: /min_stars/ })
  await t.rejects(svc.domain.explore.create({ ...base, slug: 'x', rule: { user_ids: [999] } }), { code: 'invalid', message: /999/ })
  await t.rejects(svc.domain.explore.create({ ...base, slug: 'x', rule: { colour: 'red' } as never }), { code: 'invalid', message: /colour/ })
  await t.rejects(svc.domain.explore.update('posts', { slug: 'photos' }), { code: 'conflict' })
})

t.test('the posts stream shows live original undirected posts, newest first', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const plain = await writePost(svc, alice.user)
  await writePost(svc, alice.user, { mentions: [bob.user], directed: true })
  const mentioning = await writePost(svc, bob.user, { mentions: [alice.user] })
  await writePost(svc, bob.user, { repost_of: plain })
  await writePost(svc, bob.user, { machine_only: true, annotations: [geolocation] })
  await writePost(svc, bob.user, { is_deleted: true })
  const { stream, page: result } = await svc.domain.explore.posts({}, 'posts', page)
  t.equal(stream.marker, 'posts')
  t.same(ids(result), [mentioning.id, plain.id])
})

t.test('photos, checkins and conversations follow their annotations and replies', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const snap = await writePost(svc, alice.user, { annotations: [photo] })
  const attached = await writePost(svc, bob.user, {
    annotations: [{ type: 'svc.core.attachments', value: { 'svc.core.file_list': [{ file_id: '1', mime_type: 'image/png' }] } }],
  })
  await writePost(svc, bob.user, {
    annotations: [{ type: 'svc.core.attachments', value: { 'svc.core.file_list': [{ file_id: '2', mime_type: 'text/plain' }] } }],
  })
  const there = await writePost(svc, alice.user, { annotations: [checkin] })
  const here = await writePost(svc, bob.user, { annotations: [geolocation] })
  const reply = await writePost(svc, bob.user, { reply_to: snap })
  await writePost(svc, alice.user, { reply_to: reply })
  t.same(ids((await svc.domain.explore.posts({}, 'photos', page)).page), [attached.id, snap.id])
  t.same(ids((await svc.domain.explore.posts({}, 'checkins', page)).page), [here.id, there.id])
  t.same(ids((await svc.domain.explore.posts({}, 'conversations', page)).page), [snap.id], 'only thread roots with replies')
})

t.test('trending counts only stars of the last day', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob, carol] = [await svc.person('alice'), await svc.person('bob'), await svc.person('carol')]
  const hot = await writePost(svc, alice.user)
  const lukewarm = await writePost(svc, alice.user)
  const old = await writePost(svc, bob.user)
  const twoDaysAgo = new Date(Date.now() - 48 * 3_600_000)
  await writeStar(svc, bob.user, old, twoDaysAgo)
  await writeStar(svc, carol.user, old, twoDaysAgo)
  await writeStar(svc, bob.user, hot)
  await writeStar(svc, carol.user, hot)
  await writeStar(svc, bob.user, lukewarm)
  t.same(ids((await svc.domain.explore.posts({}, 'trending', page)).page), [hot.id])
  await svc.domain.explore.update('trending', { rule: { star_window_hours: 72 } })
  t.same(ids((await svc.domain.explore.posts({}, 'trending', page)).page), [old.id, hot.id], 'newest post first')
})

t.test('a hashtag and a choice of users narrow a stream, and null clears a criterion', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob, carol] = [await svc.person('alice'), await svc.person('bob'), await svc.person('carol')]
  const a = await writePost(svc, alice.user, { hashtags: ['cats'] })
  await writePost(svc, bob.user, { hashtags: ['dogs'] })
  const c = await writePost(svc, carol.user, { hashtags: ['cats'] })
  await svc.domain.explore.create({ slug: 'cats', title: 'Cats', description: 'Cats', rule: { hashtag: 'cats' } })
  t.same(ids((await svc.domain.explore.posts({}, 'cats', page)).page), [c.id, a.id])
  await svc.domain.explore.update('cats', { rule: { user_ids: [alice.user.id, bob.user.id] } })
  t.same(ids((await svc.domain.explore.posts({}, 'cats', page)).page), [a.id])
  const cleared = await svc.domain.explore.update('cats', { rule: { hashtag: null } })
  t.same(cleared.rule, { user_ids: [alice.user.id, bob.user.id] })
  t.equal((await svc.domain.explore.posts({}, 'cats', page)).page.items.length, 2)
  const emptied = await svc.domain.explore.update('cats', { replace_rule: true })
  t.same(emptied.rule, {})
})

t.test('a pinned post joins a stream in id order until it is unpinned', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const snap = await writePost(svc, alice.user, { annotations: [photo] })
  const words = await writePost(svc, alice.user, { text: 'no photo here' })
  const later = await writePost(svc, alice.user, { annotations: [photo] })
  const pinned = await svc.domain.explore.pin('photos', words.id)
  t.same(pinned.pinned, [words.id])
  t.same((await svc.domain.explore.pin('photos', words.id)).pinned, [words.id], 'pinning twice keeps one pin')
  t.same(ids((await svc.domain.explore.posts({}, 'photos', page)).page), [later.id, words.id, snap.id])
  const second = await svc.domain.explore.posts({}, 'photos', { count: 1, before_id: later.id })
  t.same(ids(second.page), [words.id])
  t.equal(second.page.more, true)
  await svc.domain.explore.unpin('photos', words.id)
  t.same(ids((await svc.domain.explore.posts({}, 'photos', page)).page), [later.id, snap.id])
})

t.test('only live original posts can be pinned, to streams that exist', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const post = await writePost(svc, alice.user)
  const repost = await writePost(svc, alice.user, { repost_of: post })
  await t.rejects(svc.domain.explore.pin('photos', repost.id), { code: 'invalid' })
  await t.rejects(svc.domain.explore.pin('photos', 9999), { code: 'not_found' })
  await t.rejects(svc.domain.explore.pin('nope', post.id), { code: 'not_found' })
})

t.test('a viewer does not see authors they muted, blocked or were blocked by', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob, carol, robo] = [await svc.person('alice'), await svc.person('bob'), await svc.person('carol'), await svc.person('robo', { type: 'bot' })]
  const fromBob = await writePost(svc, bob.user)
  const fromCarol = await writePost(svc, carol.user)
  const fromRobo = await writePost(svc, robo.user)
  await writeRelation(svc, 'mutes', alice.user, bob.user)
  await writeRelation(svc, 'blocks', carol.user, alice.user)
  const viewer = await svc.domain.auth.tokens.authenticate(alice.token)
  t.same(ids((await svc.domain.explore.posts(viewer, 'posts', page)).page), [fromRobo.id])
  t.same(ids((await svc.domain.explore.posts({}, 'posts', page)).page), [fromRobo.id, fromCarol.id, fromBob.id], 'anonymous viewers see everyone')
})

t.test('a sparse stream still fills its pages and says when there is more', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const photos: PostRow[] = []
  for (let i = 0; i < 30; i++) {
    const p = await writePost(svc, alice.user, i % 5 === 0 ? { annotations: [photo] } : {})
    if (i % 5 === 0) photos.push(p)
  }
  const first = await svc.domain.explore.posts({}, 'photos', { count: 4 })
  t.same(
    ids(first.page),
    photos
      .slice(2)
      .map((p) => p.id)
      .reverse(),
  )
  t.equal(first.page.more, true)
  const rest = await svc.domain.explore.posts({}, 'photos', { count: 4, before_id: photos[2].id })
  t.same(ids(rest.page), [photos[1].id, photos[0].id])
  t.equal(rest.page.more, false)
})

t.test('a stream answers its marker, and pages from it with last_read', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const older = await writePost(svc, alice.user)
  const newer = await writePost(svc, alice.user)
  const viewer = await svc.domain.auth.tokens.authenticate(alice.token)
  const unset = await svc.domain.explore.posts(viewer, 'posts', page)
  t.same(unset.marker, { name: 'explore:posts', row: null })
  await svc.domain.channels.markers.set(viewer, [{ name: 'explore:posts', id: newer.id }])
  const after = await svc.domain.explore.posts(viewer, 'posts', { before_id: 'last_read' })
  t.equal(after.marker.row?.last_read_id, newer.id)
  t.same(ids(after.page), [older.id])
  await t.rejects(svc.domain.explore.posts({}, 'posts', { since_id: 'last_read' }), { code: 'invalid' }, 'no marker without a user')
})

t.test('include_muted shows muted authors again', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = [await svc.person('alice'), await svc.person('bob')]
  const fromBob = await writePost(svc, bob.user)
  await writeRelation(svc, 'mutes', alice.user, bob.user)
  const viewer = await svc.domain.auth.tokens.authenticate(alice.token)
  t.same(ids((await svc.domain.explore.posts(viewer, 'posts', { include_muted: true })).page), [fromBob.id])
})

t.test('a match further back than one scan chunk is still found', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = [await svc.person('alice'), await svc.person('bob')]
  const lonely = await writePost(svc, alice.user, { text: 'not directed at anyone' })
  const directed = await writePost(svc, alice.user, { mentions: [bob.user], directed: true })
  await svc.store.transact((tx) => {
    for (let i = 0; i < 6000; i++) tx.posts.insert({ ...directed, id: undefined } as never)
  })
  const { page: result } = await svc.domain.explore.posts({}, 'posts', { count: 5 })
  t.same(ids(result), [lonely.id])
  t.equal(result.more, false)
})
