/**
 * Remote edits in: bob edits his Note (Mastodon's `Update` of it) and the
 * post alice reads changes under the same id, everywhere at once: the post,
 * her timelines and mentions (kept answers too), her user stream and an app
 * stream (the post again, no push), the event log (`post.updated`); nothing
 * about it goes out. An Update by anyone but bob, of a Note not kept here,
 * older than the edit kept, making the Note followers-only, of a deleted
 * post, or changing nothing changes nothing.
 */
import t, { type Test } from 'tap'
import { summarize } from '../../../data/admin/event-summary.js'
import type { DomainEvent } from '../../../data/index.js'
import type { Post } from '../../../server/api/index.js'
import { recordEvents } from '../../fixtures/events.js'
import { federatingInstance, followRemote, PUBLIC, SITE } from '../../fixtures/federating.js'
import type { RemoteActor } from '../../fixtures/remote-actor.js'
import { openWebSocket, readChunked, type Frame, type StreamClient } from '../../fixtures/streams.js'
import { waitUntil } from '../../fixtures/wait.js'

const PUBLISHED = '2024-05-01T10:00:00.000Z'
const EDITED = '2024-05-01T10:05:00.000Z'
const EARLIER_EDIT = '2024-05-01T10:03:00.000Z'

/** Alice follows bob, whose public Note `first draft` is kept here as a post. */
async function setUp(t: Test) {
  const world = await federatingInstance(t)
  const { svc, remote } = world
  const alice = await svc.person('alice')
  const bob = await remote.actor('bob')
  await followRemote(world, alice, bob)
  const events = recordEvents(svc)
  const note = {
    id: `${bob.id}/notes/1`,
    type: 'Note',
    attributedTo: bob.id,
    to: PUBLIC,
    cc: `${bob.id}/followers`,
    published: PUBLISHED,
    content: '<p>first draft</p>',
  }
  await world.send({ id: `${note.id}/activity`, type: 'Create', actor: bob.id, object: note, to: note.to, cc: note.cc }, bob)
  await waitUntil(async () => (await svc.store.read.posts.one('object', note.id)) !== null, "bob's post")
  const postId = (await svc.store.read.posts.one('object', note.id))!.id
  let n = 0
  /** Sends `who`'s Update of bob's Note as `changes` make it; resolves once it was handled. */
  const update = async (changes: Record<string, unknown>, who: RemoteActor = bob) => {
    const id = `${who.id}/updates/${++n}`
    t.equal(await world.send({ id, type: 'Update', actor: who.id, object: { ...note, ...changes }, to: PUBLIC }, who), 202)
    const received = () => events.some((e) => e.name === 'federation.activity_received' && (e as DomainEvent<'federation.activity_received'>).payload.id === id)
    await waitUntil(async () => received() && (await svc.store.read.federation_queue.size()) === 0, `${id} handled`)
  }
  const shown = async () => (await svc.call<Post>('GET', `/posts/${postId}?include_html=1`, { token: alice.token })).body.data
  const edits = () => events.filter((e) => e.name === 'post.updated') as DomainEvent<'post.updated'>[]
  return { world, svc, remote, alice, bob, note, postId, update, shown, edits, events }
}

/** The next frame of `type`, skipping others. */
async function nextOf(client: StreamClient, type: string): Promise<Frame> {
  for (;;) {
    const frame = await client.next()
    if (frame.meta?.type === type) return frame
  }
}

t.test("bob's edit changes the post alice reads, under the same id, in every answer and stream, and goes nowhere", async (t) => {
  const { svc, remote, alice, bob, postId, update, shown, edits } = await setUp(t)
  await svc.server.start()
  const base = `http://127.0.0.1:${svc.server.info.port}`
  const stream = await openWebSocket(base, alice.token)
  t.teardown(() => stream.close())
  await svc.call('GET', `/posts/stream/unified?connection_id=${stream.connectionId}&subscription_id=home`, { token: alice.token })
  const appStream = await svc.call('POST', '/streams', { token: svc.appToken, payload: { object_types: ['post'], type: 'long_poll' } })
  // Its endpoint is at the public address; the same path on the port it listens on.
  const endpoint = new URL(appStream.body.data.endpoint)
  const app = await readChunked(`${base}${endpoint.pathname}${endpoint.search}`)
  t.teardown(() => app.close())
  // Asked twice: the second answer is a kept one, which the edit must not leave behind.
  const mentions = async () => (await svc.call<Post[]>('GET', '/users/me/mentions', { token: alice.token })).body.data
  for (let i = 0; i < 2; i++) {
    t.equal((await shown()).text, 'first draft')
    t.same(await mentions(), [])
  }

  await update({
    updated: EDITED,
    summary: 'spoilers',
    content: `<p><a href="${SITE}/@alice" class="u-url mention">@alice</a> second draft</p>`,
    tag: [{ type: 'Mention', href: `${SITE}/ap/users/${alice.user.id}`, name: '@alice@svc.example' }],
  })
  const post = await shown()
  t.match(post, {
    id: String(postId),
    text: '⚠ spoilers\n\n@alice second draft',
    entities: { mentions: [{ name: 'alice', id: String(alice.user.id) }] },
    user: { username: bob.handle },
  })
  t.match(post.html, /^<p>⚠ spoilers<\/p><p>.*second draft<\/p>$/)
  t.same(
    (await mentions()).map((p) => p.id),
    [String(postId)],
    'now mentioning her, it is among her mentions',
  )
  const unified = (await svc.call<Post[]>('GET', '/posts/stream/unified', { token: alice.token })).body.data
  t.same(
    unified.map((p) => [p.id, p.text]),
    [[String(postId), '⚠ spoilers\n\n@alice second draft']],
    'one post in her timeline, edited',
  )

  const [edit, ...more] = edits()
  t.equal(more.length, 0, 'one post.updated')
  t.match(edit.payload.post, { id: postId, text: '⚠ spoilers\n\n@alice second draft', remote: { updated: EDITED } })
  t.equal(await summarize(edit, async () => `@${bob.handle}`), `post ${postId} by @${bob.handle}`, "the console's line for it")
  const frame = await nextOf(stream, 'post')
  t.match(frame, { meta: { subscription_ids: ['home'] }, data: [{ id: String(postId), text: '⚠ spoilers\n\n@alice second draft' }] })
  t.notOk(frame.meta.is_deleted, 'her stream has the post again, to replace the one it holds')
  t.match(await nextOf(app, 'post'), {
    meta: { id: String(postId), is_deleted: false, suppress_notifications_all: true },
    data: { id: String(postId), text: '⚠ spoilers\n\n@alice second draft' },
  })

  // The outbox takes events in order: once her Like of the post went out, the edit was passed over.
  const sentBefore = remote.received.length
  await svc.call('POST', `/posts/${postId}/star`, { token: alice.token })
  await waitUntil(() => remote.received.some((r) => r.body.type === 'Like'), 'her Like')
  await waitUntil(async () => (await svc.store.read.federation_queue.size()) === 0, 'the queue done')
  t.same(
    remote.received.slice(sentBefore).map((r) => r.body.type),
    ['Like'],
    'nothing about the edit went out',
  )
})

t.test('only bob edits his public Note, and only with a newer edit that changes something', async (t) => {
  const { world, svc, remote, alice, bob, update, shown, edits } = await setUp(t)
  const carol = await remote.actor('carol')
  // Known here, so that only her not being the post's author stops her.
  await followRemote(world, alice, carol)
  const unchanged = async (what: string) => {
    t.equal((await shown()).text, 'first draft', what)
    t.equal(edits().length, 0, `${what}: no post.updated`)
  }
  await update({ updated: EDITED, content: '<p>carol was here</p>' }, carol)
  await unchanged("carol's Update of bob's Note")
  await update({ updated: EDITED, content: '<p>carol was here</p>', attributedTo: carol.id }, carol)
  await unchanged("carol's Update claiming bob's Note for her")
  await update({ updated: EDITED, content: '<p>for followers</p>', to: `${bob.id}/followers`, cc: [] })
  await unchanged('an Update making it followers-only')
  await update({ updated: EDITED, content: '<p>first draft</p>' })
  await unchanged('an Update changing nothing')
  const posts = await svc.store.read.posts.count('user', (await svc.store.read.users.one('actor', bob.id))!.id)
  await update({ id: `${bob.id}/notes/2`, updated: EDITED, content: '<p>never seen</p>' })
  await unchanged('an Update of a Note not kept here')
  t.equal(await svc.store.read.posts.count('user', (await svc.store.read.users.one('actor', bob.id))!.id), posts, 'it made no post')

  await update({ updated: EDITED, content: '<p>second draft</p>' })
  t.equal((await shown()).text, 'second draft', 'his own newer edit')
  await update({ updated: EARLIER_EDIT, content: '<p>an edit overtaken</p>' })
  t.equal((await shown()).text, 'second draft', 'an older edit arriving late is passed over')
  await update({ content: '<p>no time</p>', updated: undefined })
  t.equal((await shown()).text, 'second draft', 'an edit without a time, after one with, is passed over')
  t.equal(edits().length, 1, 'one edit applied')
})

t.test("an Update of bob's deleted post leaves it deleted", async (t) => {
  const { world, bob, note, update, shown, edits } = await setUp(t)
  await world.send({ id: `${bob.id}/deletes/1`, type: 'Delete', actor: bob.id, object: { id: note.id, type: 'Tombstone' } }, bob)
  await waitUntil(async () => (await shown()).is_deleted === true, 'his post deleted')
  await update({ updated: EDITED, content: '<p>back again</p>' })
  t.match(await shown(), { is_deleted: true })
  t.notOk((await shown()).text, 'no text')
  t.equal(edits().length, 0)
})
