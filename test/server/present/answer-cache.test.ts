/**
 * Timelines, a user's posts and a post are answered again from what was
 * presented before, while nothing they show has changed: every change a
 * reader could see must reach the next answer at once, and a kept answer
 * must never be one viewer's answer given to another.
 */
import t from 'tap'
import { EVERYTHING, TOUCH, touchesOf, type DomainEvent } from '../../../data/index.js'
import { AnswerCache, answerCacheOf } from '../../../server/present/answer-cache.js'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'
import { listeningInstance, openWebSocket } from '../../fixtures/streams.js'

const post = async (svc: Instance, who: Person, payload: Record<string, unknown>) => (await svc.call('POST', '/posts', { token: who.token, payload })).body.data

/** Counts the unified streams the domain reads, so a test tells a kept answer from a presented one. */
function countUnified(svc: Instance): { reads: number } {
  const counter = { reads: 0 }
  const streams = svc.domain.posts.streams
  const unified = streams.unified.bind(streams)
  streams.unified = async (...args) => {
    counter.reads++
    return unified(...args)
  }
  return counter
}

t.test('a timeline read again is answered from what was presented, until something it shows changes', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  await svc.call('POST', '/users/@alice/follow', { token: bob.token })
  const hello = await post(svc, alice, { text: 'hello' })
  const counter = countUnified(svc)
  // On a store several nodes share (the stories' PostgreSQL runs) nothing is kept: every call presents.
  const shared = svc.domain.node.shared
  t.equal(answerCacheOf(svc.domain) === null, shared)
  const first = await svc.call('GET', '/posts/stream/unified', { token: bob.token })
  await svc.call('GET', '/posts/stream/unified', { token: bob.token })
  t.equal(counter.reads, 2, 'a first call is not kept: most are never asked again')
  const again = await svc.call('GET', '/posts/stream/unified', { token: bob.token })
  t.equal(counter.reads, shared ? 3 : 2, 'from the second call on the answer is kept')
  t.same(again.body, first.body)
  t.equal(again.headers['content-type'], first.headers['content-type'])
  await post(svc, carol, { text: 'nothing bob reads' })
  await svc.call('GET', '/posts/stream/unified', { token: bob.token })
  t.equal(counter.reads, shared ? 4 : 2, 'a post bob does not see keeps his timeline')
  await svc.call('POST', `/posts/${hello.id}/star`, { token: carol.token })
  const starred = await svc.call('GET', '/posts/stream/unified', { token: bob.token })
  t.equal(counter.reads, shared ? 5 : 3)
  t.equal(starred.body.data[0].num_stars, 1)
  const pretty = await svc.call('GET', '/posts/stream/unified', { token: bob.token, headers: { 'x-svc-pretty-json': '1' } })
  t.match(pretty.headers['content-type'], /json/)
  t.same(pretty.body, starred.body, 'a kept answer pretty printed is the same answer')
  const jsonp = await svc.call('GET', '/posts/stream/unified?callback=show', { token: bob.token })
  t.match(jsonp.body, /^show\(\{/)
})

t.test('every change a reader can see reaches a kept timeline at once', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol, dave] = await svc.people('alice', 'bob', 'carol', 'dave')
  await svc.call('POST', '/users/@alice/follow', { token: bob.token })
  const timeline = async () => (await svc.call('GET', '/posts/stream/unified?include_deleted=0', { token: bob.token })).body
  const texts = async () => (await timeline()).data.map((p: { text: string }) => p.text)
  t.same(await texts(), [])
  const hello = await post(svc, alice, { text: 'hello' })
  t.same(await texts(), ['hello'], 'a post by someone bob follows')
  await post(svc, carol, { text: 'hi @bob' })
  t.same(await texts(), ['hi @bob', 'hello'], 'a mention of bob by a stranger')
  await svc.call('POST', `/posts/${hello.id}/star`, { token: dave.token })
  await svc.call('POST', `/posts/${hello.id}/repost`, { token: carol.token })
  await post(svc, dave, { text: 'a reply', reply_to: hello.id })
  t.match((await timeline()).data[1], { text: 'hello', num_stars: 1, num_reposts: 1, num_replies: 1 }, 'stars, reposts and replies by strangers')
  await svc.call('POST', `/posts/${hello.id}/star`, { token: bob.token })
  t.match((await timeline()).data[1], { num_stars: 2, you_starred: true }, 'bob’s own star')
  await svc.call('POST', '/users/@alice/follow', { token: carol.token })
  t.equal((await timeline()).data[1].user.counts.followers, 2, 'the author’s counts')
  const updated = await svc.call('PATCH', '/users/me', { token: alice.token, payload: { name: 'Alice A.' } })
  t.equal(updated.status, 200)
  t.equal((await timeline()).data[1].user.name, 'Alice A.', 'the author’s profile')
  await svc.call('POST', '/users/@carol/follow', { token: bob.token })
  t.same(await texts(), ['hi @bob', 'hello'], 'carol’s repost of a post bob was shown is left out')
  await post(svc, carol, { text: 'from carol' })
  t.same((await texts())[0], 'from carol', 'a new follow brings its posts')
  await svc.call('POST', '/users/@carol/mute', { token: bob.token })
  t.same(await texts(), ['hello'], 'a mute hides')
  await svc.call('DELETE', '/users/@carol/mute', { token: bob.token })
  await svc.call('POST', '/posts/marker', { token: bob.token, payload: { name: 'unified', id: hello.id, percentage: 10 } })
  t.match((await timeline()).meta.marker, { name: 'unified', id: hello.id, percentage: 10 }, 'the marker')
  await svc.domain.users.moderation.suspend(carol.user.id)
  t.same(await texts(), ['hello'], 'a suspension hides')
  await svc.call('POST', '/users/@bob/block', { token: alice.token })
  t.same(await texts(), [], 'a block by the author hides')
  await svc.call('DELETE', '/users/@bob/block', { token: alice.token })
  await svc.call('POST', '/users/@alice/follow', { token: bob.token })
  t.same(await texts(), ['hello'], 'the block lifted and alice followed again')
  await svc.call('DELETE', `/posts/${hello.id}`, { token: alice.token })
  t.same(await texts(), [], 'a deleted post leaves')
})

t.test('a user’s posts, mentions and personal stream follow new posts at once', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  await svc.call('POST', '/users/@alice/follow', { token: bob.token })
  const texts = async (path: string) => (await svc.call('GET', path, { token: bob.token })).body.data.map((p: { text: string }) => p.text)
  for (const path of ['/users/@alice/posts', '/users/@bob/mentions', '/posts/stream']) t.same(await texts(path), [], path)
  await post(svc, alice, { text: 'hi @bob' })
  for (const path of ['/users/@alice/posts', '/users/@bob/mentions', '/posts/stream']) t.same(await texts(path), ['hi @bob'], path)
  await post(svc, bob, { text: 'mine' })
  t.same(await texts('/posts/stream'), ['mine', 'hi @bob'], 'the viewer’s own post')
  t.same(await texts('/users/@alice/posts'), ['hi @bob'])
})

t.test('a kept answer is the asking viewer’s own, at the address they asked', async (t) => {
  const svc = await makeInstance(t, { allowed_hosts: ['svc.example'] })
  const [alice, bob] = await svc.people('alice', 'bob')
  const hello = await post(svc, alice, { text: 'hello' })
  await svc.call('POST', `/posts/${hello.id}/star`, { token: bob.token })
  const read = async (who?: Person, headers: Record<string, string> = {}) =>
    (await svc.call('GET', `/posts/${hello.id}`, { token: who?.token, headers })).body.data
  t.match(await read(bob), { you_starred: true })
  t.match(await read(alice), { you_starred: false })
  t.notOk('you_starred' in (await read()), 'nobody’s flags for nobody')
  t.match((await read(bob, { host: 'svc.example' })).canonical_url, /^http:\/\/svc\.example\//, 'another address, its own links')
  const posts = async (who: Person) => (await svc.call('GET', '/users/@alice/posts', { token: who.token })).body.data[0]
  t.match(await posts(bob), { you_starred: true })
  t.match(await posts(alice), { you_starred: false })
})

t.test('answers with annotations, and lists any post may join, are presented each time', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  await svc.call('POST', '/users/@alice/follow', { token: bob.token })
  await post(svc, alice, { text: 'hello' })
  const counter = countUnified(svc)
  for (let i = 0; i < 3; i++) await svc.call('GET', '/posts/stream/unified?include_annotations=1', { token: bob.token })
  t.equal(counter.reads, 3, 'asked three times, presented three times')
  const global = async () => (await svc.call('GET', '/posts/stream/global', { token: bob.token })).body.data.map((p: { text: string }) => p.text)
  t.same(await global(), ['hello'])
  await post(svc, bob, { text: 'news' })
  t.same(await global(), ['news', 'hello'])
})

t.test('a call that subscribes a user stream still subscribes it, and its answer is not given to the next call', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const bob = await svc.person('bob')
  await svc.call('GET', '/stream/0/posts/stream/unified', { token: bob.token })
  const stream = await openWebSocket(base, bob.token)
  const subscribing = await svc.call('GET', `/stream/0/posts/stream/unified?connection_id=${stream.connectionId}&subscription_id=home`, {
    token: bob.token,
  })
  t.same(subscribing.body.meta.subscription_ids, ['home'], 'the call subscribed')
  const plain = await svc.call('GET', '/stream/0/posts/stream/unified', { token: bob.token })
  t.notOk('subscription_ids' in plain.body.meta)
  stream.close()
})

t.test('an answer is kept only while nothing it read is touched after it began', async (t) => {
  const cache = new AnswerCache()
  const envelope = { data: [], meta: { code: 200 } }
  const reads = [
    { kind: TOUCH.viewer, id: 1 },
    { kind: TOUCH.post, id: 7 },
  ]
  const since = cache.now()
  cache.touch([{ kind: TOUCH.post, id: 7 }])
  cache.set('a', since, envelope, reads)
  t.equal(cache.get('a'), undefined, 'touched while it was presented: not kept')
  cache.set('b', cache.now(), envelope, reads)
  t.same(cache.get('b')?.meta, { code: 200 })
  cache.touch([{ kind: TOUCH.post, id: 8 }])
  t.ok(cache.get('b'), 'another post touched')
  cache.touch([{ kind: TOUCH.user, id: 7 }])
  t.ok(cache.get('b'), 'the same id of another kind')
  cache.touch([{ kind: TOUCH.viewer, id: 1 }])
  t.equal(cache.get('b'), undefined, 'its viewer touched')
  cache.set('c', cache.now(), envelope, reads)
  cache.touch(EVERYTHING)
  t.equal(cache.get('c'), undefined, 'everything touched')
  const many = Array.from({ length: 5000 }, (_, id) => ({ kind: TOUCH.author, id }))
  cache.set('d', cache.now(), envelope, many)
  t.equal(cache.get('d'), undefined, 'too wide to keep')
})

t.test('what each event touches', async (t) => {
  const event = (name: string, payload: unknown) => ({ seq: 1, name, at: 0, payload }) as DomainEvent
  const user = (id: number) => ({ id })
  t.equal(touchesOf(event('user.suspended', { user: user(1) })), EVERYTHING)
  t.equal(touchesOf(event('app.deleted', { app: {} })), EVERYTHING)
  t.equal(touchesOf(event('some.future_event', {})), EVERYTHING, 'an event it does not know')
  t.same(touchesOf(event('message.created', {})), [])
  t.same(
    touchesOf(
      event('federation.activity_received', {
        id: 'https://b.example/like/1',
        type: 'Like',
        actor: 'https://b.example/users/bob',
        recipient_id: null,
        activity: {},
      }),
    ),
    [],
    'an activity as received: what it does comes as events of its own (each one had dropped every kept answer)',
  )
  t.same(touchesOf(event('marker.set', { user: user(3) })), [{ kind: TOUCH.viewer, id: 3 }])
  const reply = { id: 9, user_id: 2, reply_to: 5, thread_id: 5, entities: { mentions: [{ id: '4' }] } }
  t.same(touchesOf(event('post.created', { post: reply })), [
    { kind: TOUCH.post, id: 9 },
    { kind: TOUCH.author, id: 2 },
    { kind: TOUCH.user, id: 2 },
    { kind: TOUCH.post, id: 5 },
    { kind: TOUCH.post, id: 5 },
    { kind: TOUCH.mentions, id: 4 },
  ])
  t.same(
    touchesOf(event('post.updated', { post: { ...reply, entities: { mentions: [{ id: '6' }] } } })),
    [
      { kind: TOUCH.post, id: 9 },
      { kind: TOUCH.author, id: 2 },
      { kind: TOUCH.mentions, id: 6 },
    ],
    'an edit: the post, its author’s lists, the mentions it now makes (answers that showed it read the post)',
  )
})
