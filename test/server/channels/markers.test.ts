import t from 'tap'
import { openChannel, sendMessage } from '../../fixtures/channels.js'
import { makeInstance } from '../../fixtures/instance.js'
import { keys } from '../../fixtures/shapes.js'

t.test('alice sets one marker and gets it back with string ids, a version and updated_at', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await svc.call('POST', '/stream/0/posts/marker', {
    token: alice.token,
    payload: { name: 'unified', id: '42', percentage: 30, last_read_id: '9999', version: 'mine' },
  })
  t.equal(res.status, 200)
  const m = res.body.data
  t.equal(m.name, 'unified')
  t.equal(m.id, '42')
  t.equal(m.last_read_id, '42', 'last_read_id in the body is not read')
  t.equal(m.percentage, 30)
  t.match(m.updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
  t.not(m.version, 'mine', 'the version is the server’s')
})

t.test('a list of markers answers a list', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await svc.call('POST', '/posts/marker', {
    token: alice.token,
    payload: [
      { name: 'global', id: 5 },
      { name: `posts:${alice.user.id}`, id: 7 },
    ],
  })
  t.equal(res.status, 200)
  t.same(
    res.body.data.map((m: { name: string }) => m.name),
    ['global', `posts:${alice.user.id}`],
  )
})

t.test('last_read_id moves back only with reset_read_id=1', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.call('POST', '/posts/marker', { token: alice.token, payload: { name: 'my_stream', id: 50 } })
  const back = await svc.call('POST', '/posts/marker', { token: alice.token, payload: { name: 'my_stream', id: 10 } })
  t.equal(back.body.data.last_read_id, '50')
  const reset = await svc.call('POST', '/posts/marker?reset_read_id=1', { token: alice.token, payload: { name: 'my_stream', id: 10 } })
  t.equal(reset.body.data.last_read_id, '10')
})

t.test('bad markers are 400s; markers need a user token', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  for (const payload of [{ name: 'everything', id: 1 }, { name: 'unified', percentage: -1 }, { name: 'unified', percentage: 101 }, { id: 3 }, [], 'unified']) {
    const res = await svc.call('POST', '/posts/marker', { token: alice.token, payload })
    t.equal(res.status, 400, JSON.stringify(payload))
    t.match(res.body.meta.error_message, /^Bad Request: /)
  }
  t.equal((await svc.call('POST', '/posts/marker', { token: svc.appToken, payload: { name: 'unified', id: 1 } })).status, 403)
  t.equal((await svc.call('POST', '/posts/marker', { payload: { name: 'unified', id: 1 } })).status, 401)
})

t.test('bob cannot set a marker on a channel he cannot read', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const id = (await svc.call('POST', '/channels', { token: alice.token, payload: { type: 'com.example.chat' } })).body.data.id
  t.equal((await svc.call('POST', '/posts/marker', { token: bob.token, payload: { name: `channel:${id}`, id: 1 } })).status, 404)
  t.equal((await svc.call('POST', '/posts/marker', { token: alice.token, payload: { name: `channel:${id}`, id: 1 } })).status, 200)
})

t.test('a channel marker shows as {name} while unset, then with every marker field; never for an app token', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const c = await openChannel(svc, alice, { readers: { public: true } })
  const m = await sendMessage(svc, alice, c.id, { text: 'one' })
  t.same((await svc.call('GET', `/channels/${c.id}?include_marker=1`, { token: alice.token })).body.data.marker, { name: `channel:${c.id}` })
  await svc.call('POST', '/posts/marker', { token: alice.token, payload: { name: `channel:${c.id}`, id: m.id, percentage: 25 } })
  const marker = (await svc.call('GET', `/channels/${c.id}?include_marker=1`, { token: alice.token })).body.data.marker
  t.same(keys(marker), ['id', 'last_read_id', 'name', 'percentage', 'updated_at', 'version'])
  t.match(marker, {
    id: m.id,
    last_read_id: m.id,
    name: `channel:${c.id}`,
    percentage: 25,
    updated_at: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    version: /^[0-9a-f]+$/,
  })
  t.notOk('marker' in (await svc.call('GET', `/channels/${c.id}`, { token: alice.token })).body.data, 'only with include_marker=1')
  t.notOk('marker' in (await svc.call('GET', `/channels/${c.id}?include_marker=1`, { token: svc.appToken })).body.data, 'user tokens only')
})

t.test('a marker’s percentage is a number: an integer comes back as sent, and so does a fraction', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const whole = await svc.call('POST', '/posts/marker', { token: alice.token, payload: { name: 'unified', id: 4, percentage: 50 } })
  t.equal(whole.body.data.percentage, 50)
  const part = await svc.call('POST', '/posts/marker', { token: alice.token, payload: { name: 'unified', id: 4, percentage: 12.5 } })
  t.equal(part.status, 200)
  t.equal(part.body.data.percentage, 12.5)
  t.equal(part.body.data.last_read_id, '4')
})
