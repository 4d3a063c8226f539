/**
 * Message search (`GET /channels/messages/search`) over the channels the
 * caller may read, and anonymous reads of a public channel
 * (`GET /channels/{id}`), both as App.net had them.
 */
import t from 'tap'
import type { Message } from '../../../server/api/index.js'
import { openChannel, sendMessage } from '../../fixtures/channels.js'
import { makeInstance } from '../../fixtures/instance.js'

const texts = (res: { body: { data: Message[] } }) => res.body.data.map((m) => m.text)

t.test('alice searches the channels she reads: text, hashtags, filters, order, pagination; never a channel she may not read', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  const club = await openChannel(svc, alice, { writers: { user_ids: [bob.user.id] }, readers: { public: true } })
  const secret = await openChannel(svc, bob, { readers: { user_ids: [carol.user.id] } })
  await sendMessage(svc, alice, club.id, { text: 'tea at five #tea' })
  const reply = await sendMessage(svc, bob, club.id, { text: 'tea sounds good, tea twice' })
  await sendMessage(svc, bob, club.id, { text: 'coffee instead?' })
  const gone = await sendMessage(svc, alice, club.id, { text: 'tea deleted' })
  await svc.call('DELETE', `/channels/${club.id}/messages/${gone.id}`, { token: alice.token })
  await sendMessage(svc, bob, secret.id, { text: 'secret tea' })

  const search = (query: string, token = alice.token) => svc.call<Message[]>('GET', `/stream/0/channels/messages/search?${query}`, { token })
  const both = `channel_ids=${club.id},${secret.id}`
  const tea = await search(`${both}&query=tea`)
  t.equal(tea.status, 200)
  t.same(texts(tea), ['tea sounds good, tea twice', 'tea at five #tea'], 'newest first, no deleted message, nothing of the channel she does not read')
  t.same(texts(await search(`${both}&query=tea&order=score`)), ['tea sounds good, tea twice', 'tea at five #tea'], 'by relevance: twice beats once')
  t.same(texts(await search(`${both}&hashtags=tea`)), ['tea at five #tea'], 'a filter alone')
  t.same(texts(await search(`${both}&query=tea&creator_id=${bob.user.id}`)), ['tea sounds good, tea twice'], 'text and filter')
  t.same(texts(await search(`${both}&query=-coffee tea`)), ['tea sounds good, tea twice', 'tea at five #tea'])
  const first = await search(`${both}&query=tea&count=1`)
  t.same(texts(first), ['tea sounds good, tea twice'])
  t.equal(first.body.meta.more, true)
  t.equal(first.body.meta.min_id, reply.id)
  t.same(texts(await search(`${both}&query=tea&count=1&before_id=${first.body.meta.min_id}`)), ['tea at five #tea'], 'the next page')
  t.same(texts(await search(`channel_ids=${secret.id}&query=tea`, carol.token)), ['secret tea'], 'carol reads the secret channel')
  t.same(
    texts(await search(`channel_ids=${secret.id}&query=tea`, svc.appToken)),
    ['secret tea'],
    'the app token reads what its users let the app read (bob did)',
  )
  t.same(texts(await search(`channel_ids=${club.id}&query=tea`, svc.appToken)), ['tea sounds good, tea twice', 'tea at five #tea'], 'but a public one')

  t.equal((await search(`${both}`)).status, 400, 'no query and no filter')
  t.equal((await search(`${both}&hashtags=tea&order=score`)).status, 400, 'score needs a query')
  t.equal((await search('query=tea')).status, 400, 'channel_ids is required')
  t.equal((await search('channel_ids=abc&query=tea')).status, 400)
  t.equal((await svc.call('GET', `/stream/0/channels/messages/search?${both}&query=tea`)).status, 401, 'a token is needed')
})

t.test('pm and broadcast search the caller’s subscribed channels of that type; a user without messages scope only public channels', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  await sendMessage(svc, alice, 'pm', { text: 'hello bob, lunch?', destinations: [bob.user.id] })
  await sendMessage(svc, carol, 'pm', { text: 'lunch with carol', destinations: [alice.user.id] })
  const chat = await openChannel(svc, alice, { readers: { any_user: true } })
  await sendMessage(svc, alice, chat.id, { text: 'lunch in the chat' })
  const pm = (token: string) => svc.call<Message[]>('GET', '/stream/0/channels/messages/search?channel_ids=pm&query=lunch', { token })
  t.same(texts(await pm(bob.token)), ['hello bob, lunch?'], 'bob: his conversation only')
  t.same(texts(await pm(alice.token)), ['lunch with carol', 'hello bob, lunch?'], 'alice: both of hers, not the chat')
  const app = await svc.call('GET', '/stream/0/channels/messages/search?channel_ids=pm&query=lunch', { token: svc.appToken })
  t.equal(app.status, 400, 'an app token has no subscriptions')
  const publicOnly = await svc.person('dave', { scopes: ['basic', 'public_messages'] })
  const dave = (ids: string) => svc.call<Message[]>('GET', `/stream/0/channels/messages/search?channel_ids=${ids}&query=lunch`, { token: publicOnly.token })
  t.same(texts(await dave(`${chat.id}`)), ['lunch in the chat'], 'a public channel')
  t.same(texts(await dave('pm')), [], 'no private message with public_messages only')
})

t.test('a channel whose readers are public is read without a token; any other is not found', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const open = await openChannel(svc, alice, { readers: { public: true }, annotations: [{ type: 'com.example.topic', value: { name: 'tea' } }] })
  const members = await openChannel(svc, alice, { readers: { any_user: true } })
  const closed = await openChannel(svc, alice, { readers: { user_ids: [bob.user.id] } })
  const anonymous = await svc.call('GET', `/stream/0/channels/${open.id}?include_annotations=1`)
  t.equal(anonymous.status, 200)
  t.match(anonymous.body.data, { id: open.id, readers: { public: true }, owner: { username: 'alice' }, annotations: [{ type: 'com.example.topic' }] })
  t.notOk('you_subscribed' in anonymous.body.data && anonymous.body.data.you_subscribed === true)
  for (const channel of [members, closed]) {
    const res = await svc.call('GET', `/stream/0/channels/${channel.id}`)
    t.equal(res.status, 404, `${channel.readers.any_user ? 'signed-in users only' : 'named readers only'}: not found without a token`)
  }
  t.equal((await svc.call('GET', `/stream/0/channels/${members.id}`, { token: bob.token })).status, 200, 'bob, signed in, reads it')
  const basic = await svc.person('carol', { scopes: ['basic'] })
  const refused = await svc.call('GET', `/stream/0/channels/${open.id}`, { token: basic.token })
  t.equal(refused.status, 403, 'a token sent is held to its scopes')
  t.equal(refused.body.meta.error_slug, 'insufficient-scope')
})
