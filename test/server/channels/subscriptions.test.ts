import t from 'tap'
import { openChannel, sendMessage } from '../../fixtures/channels.js'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'
import { CHANNEL_KEYS, keys } from '../../fixtures/shapes.js'

const openRoom = async (svc: Instance, owner: Person): Promise<string> =>
  (await svc.call('POST', '/channels', { token: owner.token, payload: { type: 'com.example.chat', readers: { any_user: true }, writers: { any_user: true } } }))
    .body.data.id

t.test('bob subscribes to and unsubscribes from a channel he can read', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const id = await openRoom(svc, alice)
  const on = await svc.call('POST', `/channels/${id}/subscribe`, { token: bob.token })
  t.equal(on.status, 200)
  t.equal(on.body.data.you_subscribed, true)
  t.equal(on.body.data.counts.subscribers, 2)
  t.equal((await svc.call('POST', `/channels/${id}/subscribe`, { token: bob.token })).body.data.counts.subscribers, 2, 'subscribing twice changes nothing')
  const off = await svc.call('DELETE', `/channels/${id}/subscribe`, { token: bob.token })
  t.equal(off.body.data.you_subscribed, false)
  t.equal(off.body.data.counts.subscribers, 1)
})

t.test('carol cannot subscribe to a channel she cannot read', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const carol = await svc.person('carol')
  const id = (await svc.call('POST', '/channels', { token: alice.token, payload: { type: 'com.example.chat' } })).body.data.id
  t.equal((await svc.call('POST', `/channels/${id}/subscribe`, { token: carol.token })).status, 404)
  t.equal((await svc.call('GET', `/channels/${id}/subscribers`, { token: carol.token })).status, 404)
  t.equal((await svc.call('POST', '/channels/abc/subscribe', { token: carol.token })).status, 400)
})

t.test('subscribers are listed as users, newest first, and as ids', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const id = await openRoom(svc, alice)
  await svc.call('POST', `/channels/${id}/subscribe`, { token: bob.token })
  await svc.call('POST', `/channels/${id}/subscribe`, { token: carol.token })
  const users = await svc.call('GET', `/channels/${id}/subscribers?count=2`, { token: alice.token })
  t.same(
    users.body.data.map((u: { username: string }) => u.username),
    ['carol', 'bob'],
  )
  t.equal(users.body.meta.more, true)
  const ids = await svc.call('GET', `/channels/${id}/subscribers/ids`, { token: svc.appToken })
  t.same(ids.body.data, [carol.user.id, bob.user.id, alice.user.id].map(String))
  const private_ = (await svc.call('POST', '/channels', { token: carol.token, payload: { type: 'com.example.diary' } })).body.data.id
  const many = await svc.call('GET', `/channels/subscribers/ids?ids=${id},${private_},999`, { token: bob.token })
  t.same(many.body.data, { [id]: [carol.user.id, bob.user.id, alice.user.id].map(String) }, 'channels bob cannot read are left out')
})

t.test('muting unsubscribes, keeps pm auto-subscription away, and unmuting does not resubscribe', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const first = await svc.call('POST', '/channels/pm/messages', { token: alice.token, payload: { text: 'hi', destinations: ['@bob'] } })
  const pm = first.body.data.channel_id
  const muted = await svc.call('POST', `/channels/${pm}/mute`, { token: bob.token })
  t.equal(muted.body.data.you_muted, true)
  t.equal(muted.body.data.you_subscribed, false)
  await svc.call('POST', '/channels/pm/messages', { token: alice.token, payload: { text: 'still there?', destinations: ['@bob'] } })
  t.equal((await svc.call('GET', `/channels/${pm}`, { token: bob.token })).body.data.you_subscribed, false, 'no auto-subscription while muted')
  const list = await svc.call('GET', '/users/me/channels/muted', { token: bob.token })
  t.same(
    list.body.data.map((c: { id: string }) => c.id),
    [pm],
  )
  const unmuted = await svc.call('DELETE', `/channels/${pm}/mute`, { token: bob.token })
  t.equal(unmuted.body.data.you_muted, false)
  t.equal(unmuted.body.data.you_subscribed, false)
  t.same((await svc.call('GET', '/users/me/channels/muted', { token: bob.token })).body.data, [])
})

t.test('subscribing to a muted channel unmutes it', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const id = await openRoom(svc, alice)
  await svc.call('POST', `/channels/${id}/mute`, { token: bob.token })
  const res = await svc.call('POST', `/channels/${id}/subscribe`, { token: bob.token })
  t.equal(res.body.data.you_subscribed, true)
  t.equal(res.body.data.you_muted, false)
})

t.test('GET on /mute is a 405 that names POST and DELETE', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const id = await openRoom(svc, alice)
  const res = await svc.call('GET', `/stream/0/channels/${id}/mute`, { token: alice.token })
  t.equal(res.status, 405)
  t.equal(res.headers.allow, 'POST,DELETE')
  t.equal(res.body.meta.error_message, 'Method not allowed. Please use: POST,DELETE')
})

t.test('subscribing needs a user token with a messaging scope', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob', { scopes: ['basic'] })
  const id = await openRoom(svc, alice)
  t.equal((await svc.call('POST', `/channels/${id}/subscribe`, { token: bob.token })).status, 403)
  t.equal((await svc.call('POST', `/channels/${id}/subscribe`, { token: svc.appToken })).status, 403)
})

t.test('GET /channels/subscribers/ids takes a repeated ids key as one list', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const first = await openRoom(svc, alice)
  const second = await openRoom(svc, bob)
  const res = await svc.call('GET', `/channels/subscribers/ids?ids=${first}&ids=${second}`, { token: alice.token })
  t.equal(res.status, 200)
  t.same(res.body.data, { [first]: [String(alice.user.id)], [second]: [String(bob.user.id)] })
})

t.test('the muted list ignores the channel general parameters', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const c = await openChannel(svc, alice, { readers: { public: true }, annotations: [{ type: 'com.example.topic', value: { t: 1 } }] })
  await sendMessage(svc, alice, c.id, { text: 'hello' })
  await svc.call('POST', `/channels/${c.id}/mute`, { token: bob.token })
  const res = await svc.call(
    'GET',
    '/users/me/channels/muted?channel_types=com.example.other&include_read=0&include_annotations=1&include_recent_message=1&include_marker=1',
    { token: bob.token },
  )
  t.same(
    res.body.data.map((x: { id: string }) => x.id),
    [c.id],
  )
  t.same(keys(res.body.data[0]), [...CHANNEL_KEYS, 'recent_message_id'].sort())
  t.same(res.body.meta, { code: 200 }, 'not paginated')
})
