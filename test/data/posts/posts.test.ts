import t from 'tap'
import type { DomainEvent } from '../../../data/index.js'
import { onFirst } from '../../fixtures/events.js'
import { makeDomainInstance } from '../../fixtures/instance.js'

t.test('alice posts, bob replies, carol replies to the reply: one thread', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const names: string[] = []
  svc.domain.events.on('post.created', (e: DomainEvent<'post.created'>) => names.push(e.payload.post.text))
  const root = await svc.domain.posts.core.create(await svc.viewerOf(alice), { text: 'hello @bob' })
  t.equal(root.thread_id, root.id, 'a new post roots its own thread')
  t.equal(root.entities.mentions[0].id, String(bob.user.id))
  t.equal(root.app_id, svc.app.id)
  const reply = await svc.domain.posts.core.create(await svc.viewerOf(bob), { text: 'hi', reply_to: root.id })
  const deeper = await svc.domain.posts.core.create(await svc.viewerOf(carol), { text: 'me too', reply_to: String(reply.id) })
  t.same([reply.reply_to, reply.thread_id, deeper.reply_to, deeper.thread_id], [root.id, root.id, reply.id, root.id])
  t.same(names, ['hello @bob', 'hi', 'me too'])
  const [view] = await svc.domain.posts.views.views([root], await svc.viewerOf(carol))
  t.equal(view.num_replies, 1, 'only direct replies count')
})

t.test('text is required, at most 256 characters, and a reply needs a live original post', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const asAlice = await svc.viewerOf(alice)
  await t.rejects(svc.domain.posts.core.create(asAlice, { text: '' }), { code: 'invalid' })
  await t.rejects(svc.domain.posts.core.create(asAlice, { text: 'x'.repeat(257) }), { code: 'invalid' })
  t.ok(await svc.domain.posts.core.create(asAlice, { text: '😊'.repeat(256) }), '256 code points fit')
  await t.rejects(svc.domain.posts.core.create(asAlice, { text: 'hi', reply_to: 999 }), { code: 'invalid' })
  const post = await svc.domain.posts.core.create(asAlice, { text: 'original' })
  const repost = await svc.domain.posts.reposts.repost(await svc.viewerOf(bob), post.id)
  await t.rejects(svc.domain.posts.core.create(asAlice, { text: 'hi', reply_to: repost.id }), { code: 'invalid', message: /repost/ })
  await svc.domain.posts.core.delete(asAlice, post.id)
  await t.rejects(svc.domain.posts.core.create(asAlice, { text: 'hi', reply_to: post.id }), { code: 'invalid', message: /deleted/ })
})

t.test('machine-only posts carry annotations and no text', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const asAlice = await svc.viewerOf(alice)
  const note = { type: 'com.example.note', value: { n: 1 } }
  const post = await svc.domain.posts.core.create(asAlice, { machine_only: true, annotations: [note] })
  t.equal(post.machine_only, true)
  t.equal(post.text, '')
  await t.rejects(svc.domain.posts.core.create(asAlice, { machine_only: true }), { code: 'invalid' })
  await t.rejects(svc.domain.posts.core.create(asAlice, { machine_only: true, text: 'hi', annotations: [note] }), { code: 'invalid' })
})

t.test('a machine-only post addresses users named by id or by name in entities.mentions', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const asAlice = await svc.viewerOf(alice)
  const note = { type: 'com.example.note', value: { n: 1 } }
  const post = await svc.domain.posts.core.create(asAlice, {
    machine_only: true,
    annotations: [note],
    entities: { mentions: [{ id: String(bob.user.id) }, { name: 'carol' }] },
  })
  t.same(post.entities.mentions.map((m) => m.id).sort(), [String(bob.user.id), String(carol.user.id)].sort())
  await t.rejects(svc.domain.posts.core.create(asAlice, { machine_only: true, annotations: [note], entities: { mentions: [{ id: '999' }] } }), {
    code: 'invalid',
  })
})

t.test('annotations: reversed-domain types, 8192 bytes, and only known svc.core types', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const asAlice = await svc.viewerOf(alice)
  const post = (annotations: unknown) => svc.domain.posts.core.create(asAlice, { text: 'hi', annotations })
  const geo = { type: 'svc.core.geolocation', value: { latitude: 52.5, longitude: 13.4 } }
  t.same((await post([geo, geo])).annotations, [geo, geo], 'a type may repeat on a post')
  await t.rejects(post([{ type: 'nodots', value: {} }]), { code: 'invalid' })
  await t.rejects(post([{ type: 'com.example.x' }]), { code: 'invalid' })
  await t.rejects(post([{ type: 'svc.core.geolocation', value: { latitude: 91, longitude: 0 } }]), { code: 'invalid' })
  await t.rejects(post([{ type: 'svc.core.madeup', value: {} }]), { code: 'invalid', message: /not a known svc\.core type/ })
  await t.rejects(post([{ type: 'com.example.big', value: { s: 'x'.repeat(8200) } }]), { code: 'invalid', message: /8192/ })
  await t.rejects(post([{ type: 'com.example.x', value: { deep: { '+svc.core.file': { file_id: '1' } } } }]), { code: 'invalid' })
})

t.test('robo the bot links mentions of its followers only', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  const robo = await svc.person('robo', { type: 'bot' })
  await svc.domain.relations.core.follow(await svc.viewerOf(alice), '@robo')
  const post = await svc.domain.posts.core.create(await svc.viewerOf(robo), { text: '@alice @bob beep' })
  t.same(
    post.entities.mentions.map((m) => m.name),
    ['alice'],
  )
})

t.test('only the creator deletes a post; its reposts go with it', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const asAlice = await svc.viewerOf(alice)
  const post = await svc.domain.posts.core.create(asAlice, { text: 'soon gone' })
  const repost = await svc.domain.posts.reposts.repost(await svc.viewerOf(bob), post.id)
  await t.rejects(svc.domain.posts.core.delete(await svc.viewerOf(bob), post.id), { code: 'forbidden' })
  await t.rejects(svc.domain.posts.core.delete(asAlice, 999), { code: 'not_found' })
  const deleted: number[] = []
  svc.domain.events.on('post.deleted', (e: DomainEvent<'post.deleted'>) => deleted.push(e.payload.post.id))
  const gone = await svc.domain.posts.core.delete(asAlice, post.id)
  t.equal(gone.is_deleted, true)
  t.same(deleted, [post.id, repost.id])
  t.equal((await svc.domain.posts.core.get(repost.id))?.is_deleted, true)
  await svc.domain.posts.core.delete(asAlice, post.id)
  t.same(deleted, [post.id, repost.id], 'deleting twice emits nothing')
  const [view] = await svc.domain.users.views.views([alice.user], asAlice)
  t.equal(view.counts.posts, 0)
})

t.test('a block hides posts both ways and stops replies', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const post = await svc.domain.posts.core.create(await svc.viewerOf(alice), { text: 'mine' })
  await svc.domain.relations.core.block(await svc.viewerOf(alice), '@bob')
  const asBob = await svc.viewerOf(bob)
  await t.rejects(svc.domain.posts.core.find(asBob, post.id), { code: 'not_found' })
  t.same(await svc.domain.posts.core.findMany(asBob, [post.id]), [])
  await t.rejects(svc.domain.posts.core.create(asBob, { text: 'hey', reply_to: post.id }), { code: 'forbidden' })
  await t.rejects(svc.domain.posts.stars.star(asBob, post.id), { code: 'not_found' })
  await t.rejects(svc.domain.posts.reposts.repost(asBob, post.id), { code: 'not_found' })
  const bobs = await svc.domain.posts.core.create(asBob, { text: 'bob here' })
  await t.rejects(svc.domain.posts.core.find(await svc.viewerOf(alice), bobs.id), { code: 'not_found' }, 'the blocker does not see the blocked either')
})

t.test('post events carry the post: created as stored, deleted with is_deleted, reposts included', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const posts: DomainEvent<'post.created' | 'post.deleted'>[] = []
  svc.domain.events.on('post.created', (e) => posts.push(e))
  svc.domain.events.on('post.deleted', (e) => posts.push(e))
  const read = svc.store.read
  const stored = onFirst(svc, 'post.created', async (e) => t.same(await read.posts.get(e.payload.post.id), e.payload.post, 'the event post is the stored row'))
  const original = await svc.domain.posts.core.create(await svc.viewerOf(alice), { text: 'hello #world' })
  await Promise.all(stored)
  const asBob = await svc.viewerOf(bob)
  const repost = await svc.domain.posts.reposts.repost(asBob, original.id)
  await svc.domain.posts.reposts.repost(asBob, original.id)
  await svc.domain.posts.reposts.unrepost(asBob, original.id)
  await svc.domain.posts.reposts.unrepost(asBob, original.id)
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
