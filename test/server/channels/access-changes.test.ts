import t from 'tap'
import { openChannel, sendMessage } from '../../fixtures/channels.js'
import { makeInstance } from '../../fixtures/instance.js'

t.test('carol removed from a private channel is unsubscribed: it leaves her inbox and its subscriber list', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  const channel = await openChannel(svc, alice, { writers: { user_ids: ['@bob', '@carol'] }, auto_subscribe: true })
  const ids = async () => (await svc.call('GET', `/stream/0/channels/${channel.id}/subscribers/ids`, { token: alice.token })).body.data
  t.same([...(await ids())].sort(), [alice.user.id, bob.user.id, carol.user.id].map(String).sort())

  const res = await svc.call('PATCH', `/stream/0/channels/${channel.id}`, { token: alice.token, payload: { writers: { user_ids: ['@bob'] } } })
  t.equal(res.status, 200, JSON.stringify(res.body.meta))
  t.same([...(await ids())].sort(), [alice.user.id, bob.user.id].map(String).sort(), 'losing access ended her subscription; bob keeps his')
  t.equal(res.body.data.counts.subscribers, 2)

  await sendMessage(svc, alice, channel.id, { text: 'bob only now' })
  const inbox = await svc.call('GET', '/stream/0/channels', { token: carol.token })
  t.same(inbox.body.data, [], 'nothing of it in her inbox')
  t.equal((await svc.call('GET', '/stream/0/users/me/channels/pm/num_unread', { token: carol.token })).body.data, 0)

  // Let back in, she is not subscribed again by herself: she chooses.
  await svc.call('PATCH', `/stream/0/channels/${channel.id}`, { token: alice.token, payload: { readers: { user_ids: ['@carol'] } } })
  t.equal((await svc.call('GET', `/stream/0/channels/${channel.id}`, { token: carol.token })).body.data.you_subscribed, false)
})

t.test('an ACL change that keeps carol able to read keeps her subscribed', async (t) => {
  const svc = await makeInstance(t)
  const [alice, carol] = await svc.people('alice', 'carol')
  const channel = await openChannel(svc, alice, { writers: { user_ids: ['@carol'] }, auto_subscribe: true })
  await svc.call('PATCH', `/stream/0/channels/${channel.id}`, { token: alice.token, payload: { writers: { user_ids: [] }, readers: { any_user: true } } })
  t.equal(
    (await svc.call('GET', `/stream/0/channels/${channel.id}`, { token: carol.token })).body.data.you_subscribed,
    true,
    'still a reader, still subscribed',
  )
})

t.test('a block ends a private conversation both ways, in an existing pm channel too', async (t) => {
  const svc = await makeInstance(t)
  const [alice, carol] = await svc.people('alice', 'carol')
  const pm = (await svc.call('POST', '/stream/0/channels/pm/messages', { token: carol.token, payload: { text: 'hi alice', destinations: ['@alice'] } })).body
    .data
  await svc.call('POST', `/stream/0/posts/marker`, { token: alice.token, payload: { name: `channel:${pm.channel_id}`, id: pm.id } })
  t.equal((await svc.call('POST', '/stream/0/users/@carol/block', { token: alice.token })).status, 200)

  const again = await svc.call('POST', `/stream/0/channels/${pm.channel_id}/messages`, { token: carol.token, payload: { text: 'why?' } })
  t.equal(again.status, 403, 'carol cannot write into the pm channel she already had with alice')
  t.match(again.body.meta.error_message, /cannot message alice/)
  t.equal((await svc.call('GET', '/stream/0/users/me/channels/pm/num_unread', { token: alice.token })).body.data, 0, 'nothing new reaches alice')
  const reply = await svc.call('POST', `/stream/0/channels/${pm.channel_id}/messages`, { token: alice.token, payload: { text: 'bye' } })
  t.equal(reply.status, 403, 'nor does alice write to the user she blocked')
  const bypm = await svc.call('POST', '/stream/0/channels/pm/messages', { token: carol.token, payload: { text: 'hello?', destinations: ['@alice'] } })
  t.equal(bypm.status, 403, 'as through pm')

  await svc.call('DELETE', '/stream/0/users/@carol/block', { token: alice.token })
  t.equal(
    (await svc.call('POST', `/stream/0/channels/${pm.channel_id}/messages`, { token: carol.token, payload: { text: 'sorry' } })).status,
    200,
    'unblocked, they talk again',
  )
})

t.test('carol, blocked by alice, cannot pull her into a channel or reply to her messages', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  const room = await openChannel(svc, bob, { writers: { any_user: true }, readers: { public: true } })
  const said = await sendMessage(svc, alice, room.id, { text: 'hello room' })
  await svc.call('POST', '/stream/0/users/@carol/block', { token: alice.token })

  const reply = await svc.call('POST', `/stream/0/channels/${room.id}/messages`, { token: carol.token, payload: { text: 'hey alice', reply_to: said.id } })
  t.equal(reply.status, 403, 'no reply across a block, as with posts')
  t.equal((await svc.call('POST', `/stream/0/channels/${room.id}/messages`, { token: bob.token, payload: { text: 'hi', reply_to: said.id } })).status, 200)

  const trap = await openChannel(svc, carol, { writers: { user_ids: ['@alice', '@bob'] }, auto_subscribe: true })
  const subscribers = (await svc.call('GET', `/stream/0/channels/${trap.id}/subscribers/ids`, { token: carol.token })).body.data
  t.same([...subscribers].sort(), [bob.user.id, carol.user.id].map(String).sort(), 'auto_subscribe skips alice, who blocked carol')
  await sendMessage(svc, carol, trap.id, { text: 'you are in my channel' })
  t.same(
    (await svc.call('GET', '/stream/0/channels', { token: alice.token })).body.data.map((c: { id: string }) => c.id),
    [],
    "carol's channel is not in alice's inbox",
  )
})
