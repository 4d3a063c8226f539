/**
 * Posts as Notes: alice's outbox lists her public posts as Create
 * activities, each Note has a stable address, a deleted post leaves a
 * Tombstone, and the post page answers servers with the Note.
 */
import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'

const SITE = 'https://svc.example'
const AS = { accept: 'application/activity+json' }
// Fedify writes the public address in its compact JSON-LD form, which every reader expands to the full one.
const PUBLIC = /^(as:Public|https:\/\/www\.w3\.org\/ns\/activitystreams#Public)$/

t.test("alice's outbox holds her public posts as Creates of Notes, not a deleted one nor a repost", async (t) => {
  const svc = await makeInstance(t, { public_url: SITE })
  const [alice, bob] = await svc.people('alice', 'bob')
  const bobs = (await svc.call('POST', '/posts', { token: bob.token, payload: { text: 'from bob' } })).body.data
  const kept = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'hello @bob #tea' } })).body.data
  const reply = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'and a reply', reply_to: bobs.id } })).body.data
  const gone = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'oops' } })).body.data
  await svc.call('DELETE', `/posts/${gone.id}`, { token: alice.token })
  await svc.call('POST', `/posts/${bobs.id}/repost`, { token: alice.token })

  const actorId = `${SITE}/ap/users/${alice.user.id}`
  const outbox = JSON.parse((await svc.server.inject({ url: `/ap/users/${alice.user.id}/outbox`, headers: AS })).payload)
  t.match(outbox, { id: `${actorId}/outbox`, type: 'OrderedCollection', first: `${actorId}/outbox?cursor=` })
  const page = JSON.parse((await svc.server.inject({ url: `/ap/users/${alice.user.id}/outbox?cursor=`, headers: AS })).payload)
  t.equal(page.type, 'OrderedCollectionPage')
  const notes = page.orderedItems.map((c: { object: { id: string } }) => c.object.id)
  t.same(notes, [`${SITE}/ap/posts/${reply.id}`, `${SITE}/ap/posts/${kept.id}`], 'newest first; the deleted post and the repost are not there')
  const create = page.orderedItems[1]
  t.match(create, {
    type: 'Create',
    id: `${SITE}/ap/posts/${kept.id}/activity`,
    actor: actorId,
    to: PUBLIC,
    // Her followers, and bob, whom it mentions.
    cc: [`${actorId}/followers`, `${SITE}/ap/users/${bob.user.id}`],
    object: {
      type: 'Note',
      attributedTo: actorId,
      content: kept.html,
      url: kept.canonical_url,
      to: PUBLIC,
      cc: [`${actorId}/followers`, `${SITE}/ap/users/${bob.user.id}`],
      published: kept.created_at.replace(/\.000Z$/, 'Z'),
    },
  })
  const tags = create.object.tag
  t.match(tags, [
    { type: 'Mention', href: `${SITE}/ap/users/${bob.user.id}`, name: '@bob@svc.example' },
    { type: 'Hashtag', name: '#tea' },
  ])
  t.equal(page.orderedItems[0].object.inReplyTo, `${SITE}/ap/posts/${bobs.id}`)
})

t.test('the outbox pages through the posts, 20 at a time', async (t) => {
  const svc = await makeInstance(t, { public_url: SITE })
  const alice = await svc.person('alice')
  for (let i = 1; i <= 23; i++) await svc.call('POST', '/posts', { token: alice.token, payload: { text: `post ${i}` } })
  const first = JSON.parse((await svc.server.inject({ url: `/ap/users/${alice.user.id}/outbox?cursor=`, headers: AS })).payload)
  t.equal(first.orderedItems.length, 20)
  t.ok(first.next, 'a next page')
  const next = JSON.parse((await svc.server.inject({ url: new URL(first.next).pathname + new URL(first.next).search, headers: AS })).payload)
  t.same(
    next.orderedItems.map((c: { object: { content: string } }) => /post (\d+)/.exec(c.object.content)![1]),
    ['3', '2', '1'],
  )
  t.notOk(next.next, 'the last page')
  t.equal((await svc.server.inject({ url: `/ap/users/${alice.user.id}/outbox?cursor=nonsense`, headers: AS })).statusCode, 404)
})

t.test('a post is a Note at its own address, and its page answers servers with it; a deleted one is a Tombstone', async (t) => {
  const svc = await makeInstance(t, { public_url: SITE })
  const alice = await svc.person('alice')
  const post = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'a note' } })).body.data
  const gone = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'gone soon' } })).body.data
  await svc.call('DELETE', `/posts/${gone.id}`, { token: alice.token })

  const note = JSON.parse((await svc.server.inject({ url: `/ap/posts/${post.id}`, headers: AS })).payload)
  t.match(note, { id: `${SITE}/ap/posts/${post.id}`, type: 'Note', content: post.html })
  const viaPage = await svc.server.inject({ url: `/@alice/post/${post.id}`, headers: AS })
  t.equal(viaPage.statusCode, 200)
  t.equal(JSON.parse(viaPage.payload).id, note.id, 'the post page, asked for ActivityStreams, is the Note')
  const page = await svc.server.inject({ url: `/@alice/post/${post.id}`, headers: { accept: 'text/html' } })
  t.match(page.headers['content-type'], /^text\/html/, 'and the page to browsers')
  const browser = await svc.server.inject({ url: `/ap/posts/${post.id}`, headers: { accept: 'text/html' } })
  t.equal(browser.headers.location, post.canonical_url, 'a browser at the Note is sent to the page')

  const tombstone = await svc.server.inject({ url: `/ap/posts/${gone.id}`, headers: AS })
  t.equal(tombstone.statusCode, 410)
  t.match(JSON.parse(tombstone.payload), { type: 'Tombstone', id: `${SITE}/ap/posts/${gone.id}` })
  t.equal((await svc.server.inject({ url: '/ap/posts/999', headers: AS })).statusCode, 404)
})

t.test('private messages are never Notes', async (t) => {
  const svc = await makeInstance(t, { public_url: SITE })
  const [alice, bob] = await svc.people('alice', 'bob')
  const pm = await svc.call('POST', '/channels/pm/messages', { token: alice.token, payload: { text: 'secret', destinations: [String(bob.user.id)] } })
  t.equal(pm.status, 200)
  // Message ids are counted apart from post ids: the Note at the message's id is no post at all.
  const res = await svc.server.inject({ url: `/ap/posts/${pm.body.data.id}`, headers: AS })
  t.equal(res.statusCode, 404)
  t.notMatch(res.payload, /secret/)
})
