import t from 'tap'
import type { Interaction } from '../../../server/api/index.js'
import { makeInstance } from '../../fixtures/instance.js'
import { post, type Post } from '../../fixtures/posts.js'
import { keys } from '../../fixtures/shapes.js'
import { listeningInstance, openWebSocket } from '../../fixtures/streams.js'

const story = async (t: Parameters<typeof makeInstance>[0]) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = [await svc.person('alice'), await svc.person('bob'), await svc.person('carol')]
  const hello = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'hello everyone' } })).body.data
  const ok = async (method: string, url: string, token: string, payload?: unknown) => {
    const res = await svc.call(method, url, { token, payload })
    if (res.status !== 200) throw new Error(`${method} ${url}: ${JSON.stringify(res.body)}`)
  }
  await ok('POST', `/users/${alice.user.id}/follow`, bob.token)
  await ok('POST', `/posts/${hello.id}/star`, bob.token)
  await ok('POST', `/posts/${hello.id}/star`, carol.token)
  await ok('POST', `/posts/${hello.id}/repost`, carol.token)
  await ok('POST', '/posts', carol.token, { text: '@alice hello to you', reply_to: hello.id })
  return { svc, alice, bob, carol, hello }
}

t.test('alice sees who followed her and who starred, reposted and replied to her post', async (t) => {
  const { svc, alice, hello } = await story(t)
  const res = await svc.call('GET', '/stream/0/users/me/interactions', { token: alice.token })
  t.equal(res.status, 200)
  const byAction = Object.fromEntries(res.body.data.map((i: { action: string }) => [i.action, i]))
  t.same(Object.keys(byAction).sort(), ['follow', 'reply', 'repost', 'star'])
  t.same(byAction.star.users.map((u: { username: string }) => u.username).sort(), ['bob', 'carol'], 'two stars on one post are one interaction')
  t.equal(byAction.star.objects[0].id, hello.id)
  t.equal(byAction.star.objects[0].num_stars, 2)
  t.equal(byAction.follow.objects[0].username, 'alice')
  t.same(
    byAction.follow.users.map((u: { username: string }) => u.username),
    ['bob'],
  )
  t.equal(byAction.reply.objects[0].id, hello.id)
  t.match(byAction.reply.event_date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
  for (const i of res.body.data) t.match(i.pagination_id, /^\d+$/)
  t.equal(res.body.meta.more, false)
})

t.test('interaction_actions filters the actions, and unknown actions are refused', async (t) => {
  const { svc, alice } = await story(t)
  const res = await svc.call('GET', '/users/me/interactions?interaction_actions=follow,repost,welcome', { token: alice.token })
  t.same(res.body.data.map((i: { action: string }) => i.action).sort(), ['follow', 'repost'])
  const bad = await svc.call('GET', '/users/me/interactions?interaction_actions=follow,hug', { token: alice.token })
  t.equal(bad.status, 400)
  t.match(bad.body.meta.error_message, /^Bad Request: .*hug/)
})

t.test('pages of interactions follow meta.min_id', async (t) => {
  const { svc, alice } = await story(t)
  const all = await svc.call('GET', '/users/me/interactions', { token: alice.token })
  const first = await svc.call('GET', '/users/me/interactions?count=2', { token: alice.token })
  t.equal(first.body.meta.more, true)
  const rest = await svc.call('GET', `/users/me/interactions?before_id=${first.body.meta.min_id}`, { token: alice.token })
  t.same(
    [...first.body.data, ...rest.body.data].map((i: { action: string }) => i.action),
    all.body.data.map((i: { action: string }) => i.action),
  )
})

t.test('interactions need a user token and hide users alice blocked', async (t) => {
  const { svc, alice, bob, carol } = await story(t)
  t.equal((await svc.call('GET', '/users/me/interactions')).status, 401)
  t.equal((await svc.call('GET', '/users/me/interactions', { token: svc.appToken })).status, 403)
  await svc.call('POST', `/users/${carol.user.id}/block`, { token: alice.token })
  const res = await svc.call('GET', '/users/me/interactions', { token: alice.token })
  t.same(res.body.data.map((i: { action: string }) => i.action).sort(), ['follow', 'star'])
  t.same(
    res.body.data.flatMap((i: { users: { username: string }[] }) => i.users.map((u) => u.username)),
    ['bob', 'bob'],
  )
  t.equal((await svc.call('GET', '/users/me/interactions', { token: bob.token })).body.data.length, 0)
})

t.test('interaction_actions may be repeated, as client libraries send a list', async (t) => {
  const { svc, alice } = await story(t)
  const res = await svc.call('GET', '/users/me/interactions?interaction_actions=follow&interaction_actions=repost,welcome', { token: alice.token })
  t.equal(res.status, 200)
  t.same(res.body.data.map((i: { action: string }) => i.action).sort(), ['follow', 'repost'])
  const bad = await svc.call('GET', '/users/me/interactions?interaction_actions=follow&interaction_actions=hug', { token: alice.token })
  t.equal(bad.status, 400)
  t.match(bad.body.meta.error_message, /^Bad Request: .*hug/)
})

t.test('interactions answer posts as posts: the post general parameters apply to them', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const made = await post(svc, alice, { text: 'star me', annotations: [{ type: 'com.example.x', value: {} }] })
  await svc.call('POST', `/posts/${made.id}/star`, { token: bob.token })
  const res = await svc.call('GET', '/users/me/interactions?include_html=0&include_post_annotations=1', { token: alice.token })
  const star = res.body.data.find((i: Interaction) => i.action === 'star')
  t.same(keys(star), ['action', 'event_date', 'objects', 'pagination_id', 'users'])
  t.same(
    star.objects.map((p: Post) => [p.id, 'html' in p, p.annotations]),
    [[made.id, false, [{ type: 'com.example.x', value: {} }]]],
  )
})

t.test('interactions are live on a user stream and read up to a marker of their own', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  const hello = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'hello everyone' } })).body.data
  const stream = await openWebSocket(base, alice.token)
  const list = await svc.call('GET', `/stream/0/users/me/interactions?connection_id=${stream.connectionId}&subscription_id=bell`, { token: alice.token })
  t.same(list.body.meta.subscription_ids, ['bell'], 'subscribed')
  t.same(list.body.meta.marker, { name: 'interactions' }, 'the list’s marker, never set yet')

  await svc.call('POST', `/users/${alice.user.id}/follow`, { token: bob.token })
  let frame = await stream.next()
  t.same([frame.meta.type, frame.meta.subscription_ids, frame.data[0].action, frame.data[0].users[0].username], ['interaction', ['bell'], 'follow', 'bob'])
  t.match(frame.data[0].pagination_id, /^\d+$/, 'items as the list has them')
  const followKey = frame.data[0].pagination_id

  await svc.call('POST', `/posts/${hello.id}/star`, { token: bob.token })
  frame = await stream.next()
  t.same([frame.data[0].action, frame.data[0].objects[0].id], ['star', hello.id])
  await svc.call('POST', `/posts/${hello.id}/star`, { token: carol.token })
  frame = await stream.next()
  t.same(frame.data[0].users.map((u: { username: string }) => u.username).sort(), ['bob', 'carol'], 'the grouped interaction as it now is')

  await svc.call('POST', `/posts/${hello.id}/repost`, { token: carol.token })
  frame = await stream.next()
  t.same([frame.data[0].action, frame.data[0].users[0].username], ['repost', 'carol'], 'a repost reaches the reposted post’s author')
  await svc.call('POST', '/posts', { token: carol.token, payload: { text: 'no mention here', reply_to: hello.id } })
  frame = await stream.next()
  t.same([frame.data[0].action, frame.data[0].users[0].username], ['reply', 'carol'], 'so does a reply that names nobody')

  await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'talking to myself', reply_to: hello.id } })
  await svc.call('POST', `/posts/${hello.id}/star`, { token: bob.token })
  await svc.call('POST', `/users/${carol.user.id}/follow`, { token: bob.token })
  t.same(await stream.quiet(), [], 'nothing for her own reply, a star again, or others’ follows')

  const marked = await svc.call('POST', '/posts/marker', { token: alice.token, payload: { name: 'interactions', id: followKey } })
  t.equal(marked.status, 200)
  frame = await stream.next()
  t.same(
    [frame.meta.type, frame.meta.marker.name, frame.meta.marker.last_read_id],
    ['stream_marker', 'interactions', followKey],
    'another tab learns it was read',
  )
  const again = await svc.call('GET', '/stream/0/users/me/interactions', { token: alice.token })
  t.same([again.body.meta.marker?.name, again.body.meta.marker?.last_read_id], ['interactions', followKey], 'the marker comes back with the list')
  stream.close()
})
