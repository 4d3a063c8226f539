import t from 'tap'
import { makeDomainInstance } from '../../fixtures/instance.js'

t.test('a post reads with its counts and the post it replies to; a repost reads as its original', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const asAlice = await svc.viewerOf(alice.token)
  const asBob = await svc.viewerOf(bob.token)
  const first = await svc.domain.posts.core.create(asAlice, { text: 'first' })
  const reply = await svc.domain.posts.core.create(asBob, { text: 'a reply', reply_to: first.id })
  await svc.domain.posts.stars.star(asBob, first.id)
  const repost = await svc.domain.posts.reposts.repost(asBob, first.id)

  const found = await svc.domain.public.post(reply.id)
  t.equal(found.view.post.id, reply.id)
  t.equal(found.view.user?.username, 'bob')
  t.equal(found.reply_to?.post.id, first.id)
  t.equal(found.reply_to?.user?.username, 'alice')

  const original = await svc.domain.public.post(repost.id)
  t.equal(original.view.post.id, first.id, 'the repost answers its original')
  t.same([original.view.num_replies, original.view.num_stars, original.view.num_reposts], [1, 1, 1])
  t.equal(original.view.you_starred, undefined, 'read as nobody in particular')
  t.equal(original.reply_to, null)
})

t.test('deleted, machine-only and unknown posts cannot be read; a reply to a deleted post reads without it', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const alice = await svc.person('alice')
  const asAlice = await svc.viewerOf(alice.token)
  const gone = await svc.domain.posts.core.create(asAlice, { text: 'soon gone' })
  const reply = await svc.domain.posts.core.create(asAlice, { text: 'still here', reply_to: gone.id })
  await svc.domain.posts.core.delete(asAlice, gone.id)
  const machine = await svc.domain.posts.core.create(asAlice, { machine_only: true, annotations: [{ type: 'com.example.x', value: { a: 1 } }] })
  await t.rejects(svc.domain.public.post(gone.id), { code: 'not_found', message: `post ${gone.id} not found` })
  await t.rejects(svc.domain.public.post(machine.id), { code: 'not_found' })
  await t.rejects(svc.domain.public.post(9999), { code: 'not_found' })
  const found = await svc.domain.public.post(reply.id)
  t.equal(found.view.post.id, reply.id)
  t.equal(found.reply_to, null)
})

t.test('only an active broadcast anyone may read has pages: 20 live messages for people a page, newest first', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const alice = await svc.person('alice')
  const asAlice = await svc.viewerOf(alice.token)
  const news = await svc.domain.channels.core.create(asAlice, { type: 'svc.core.broadcast', readers: { public: true } })
  const sent = []
  for (let i = 1; i <= 22; i++) sent.push(await svc.domain.channels.messages.create(asAlice, news.id, { text: `issue ${i}` }))
  const machine = await svc.domain.channels.messages.create(asAlice, news.id, { machine_only: true, annotations: [{ type: 'com.example.x', value: { a: 1 } }] })
  await svc.domain.channels.messages.delete(asAlice, news.id, sent[21].id)

  const first = await svc.domain.public.broadcast(news.id)
  t.same(
    first.messages.items.map((i) => i.item.message.text),
    Array.from({ length: 20 }, (_, n) => `issue ${21 - n}`),
    'no deleted or machine-only message',
  )
  t.equal(first.messages.items[0].item.user?.username, 'alice')
  t.equal(first.messages.more, true)
  const second = await svc.domain.public.broadcast(news.id, first.messages.items[19].pagination_id)
  t.same(
    second.messages.items.map((i) => i.item.message.text),
    ['issue 1'],
  )
  t.equal(second.messages.more, false)

  const message = await svc.domain.public.broadcastMessage(news.id, sent[0].id)
  t.equal(message.message.message.text, 'issue 1')
  t.equal(message.channel.id, news.id)
  await t.rejects(svc.domain.public.broadcastMessage(news.id, sent[21].id), { code: 'not_found' }, 'deleted')
  await t.rejects(svc.domain.public.broadcastMessage(news.id, machine.id), { code: 'not_found' }, 'machine-only')

  const members = await svc.domain.channels.core.create(asAlice, { type: 'svc.core.broadcast', readers: { any_user: true } })
  const chat = await svc.domain.channels.core.create(asAlice, { type: 'com.example.chat', readers: { public: true } })
  const chatMessage = await svc.domain.channels.messages.create(asAlice, chat.id, { text: 'hi' })
  await t.rejects(svc.domain.public.broadcast(members.id), { code: 'not_found' }, 'readable by signed-in users only')
  await t.rejects(svc.domain.public.broadcast(chat.id), { code: 'not_found' }, 'not a broadcast')
  await t.rejects(svc.domain.public.broadcastMessage(chat.id, chatMessage.id), { code: 'not_found' })
  await t.rejects(svc.domain.public.broadcastMessage(news.id, chatMessage.id), { code: 'not_found' }, 'a message of another channel')
  await svc.domain.channels.core.deactivate(asAlice, news.id)
  await t.rejects(svc.domain.public.broadcast(news.id), { code: 'not_found' }, 'inactive')
  await t.rejects(svc.domain.public.broadcastMessage(news.id, sent[0].id), { code: 'not_found' })
})
