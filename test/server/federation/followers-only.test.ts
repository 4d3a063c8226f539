/**
 * Followers-only posts from another server: bob's Note addressed to his
 * followers reaches alice, who follows him, and those it mentions, and
 * nobody else: not carol, not anyone signed out, in no public stream (not
 * even for alice), no search, no app stream, no repost; its photo is no
 * public file. When alice stops following bob, she sees it no more. A Note
 * to his followers that nobody here follows or is mentioned in is not kept.
 */
import t from 'tap'
import { appItemsOf } from '../../../data/streams/app-stream-events.js'
import type { DomainEvent } from '../../../data/index.js'
import type { Post } from '../../../server/api/index.js'
import { federatingInstance, followRemote, SITE } from '../../fixtures/federating.js'
import { noisyPng } from '../../fixtures/images.js'
import { waitUntil } from '../../fixtures/wait.js'

async function setUp(t: Parameters<typeof federatingInstance>[0]) {
  const world = await federatingInstance(t)
  const { svc, remote } = world
  const [alice, carol, dave] = [await svc.person('alice'), await svc.person('carol'), await svc.person('dave')]
  const bob = await remote.actor('bob')
  await followRemote(world, alice, bob)
  const events: DomainEvent[] = []
  svc.domain.events.onAny((e) => events.push(e))
  let n = 0
  /** Bob's Note to his followers (and `extra`'s addressees), sent; answers its id. */
  const send = async (extra: Record<string, unknown> = {}) => {
    n++
    const object = {
      id: `${bob.id}/notes/${n}`,
      type: 'Note',
      attributedTo: bob.id,
      to: `${bob.id}/followers`,
      content: `<p>only friends ${n} #quiet</p>`,
      ...extra,
    }
    const status = await world.send({ id: `${object.id}/activity`, type: 'Create', actor: bob.id, object, to: object.to, cc: extra.cc }, bob)
    if (status !== 202) throw new Error(`the Create was answered ${status}`)
    return object.id
  }
  const kept = (noteId: string) => svc.store.read.posts.one('object', noteId)
  return { ...world, alice, carol, dave, bob, events, send, kept }
}

t.test("bob's followers-only post shows to alice, his follower, and to nobody else", async (t) => {
  const { svc, alice, carol, remote, send, kept, events } = await setUp(t)
  remote.serveBytes('/media/p.png', 'image/png', await noisyPng(100, 100))
  const noteId = await send({ attachment: [{ type: 'Image', mediaType: 'image/png', url: `${remote.origin}/media/p.png` }] })
  await waitUntil(async () => (await kept(noteId)) !== null, 'the post kept')
  const post = (await kept(noteId))!
  const texts = async (url: string, token?: string) => ((await svc.call<Post[]>('GET', url, { token })).body.data ?? []).map((p) => p.text)
  t.same(await texts('/posts/stream/unified', alice.token), ['only friends 1 #quiet'], "in alice's unified stream")
  t.equal((await svc.call('GET', `/posts/${post.id}`, { token: alice.token })).status, 200, 'alice reads it')
  t.same(await texts(`/users/@bob@${post.remote!.server}/posts`, alice.token), ['only friends 1 #quiet'], "among bob's posts for alice")
  for (const [who, token] of [
    ['carol', carol.token],
    ['someone signed out', undefined],
  ] as const) {
    t.equal((await svc.call('GET', `/posts/${post.id}`, { token })).status, 404, `${who} finds no such post`)
  }
  t.same((await svc.call('GET', `/posts?ids=${post.id}`, { token: carol.token })).body.data, [], 'nor among the posts carol asks for by id')
  t.same(await texts(`/users/@bob@${post.remote!.server}/posts`, carol.token), [], "not among bob's posts for carol")
  for (const url of ['/posts/stream/global', '/posts/tag/quiet', '/posts/search?query=friends'])
    t.same(await texts(url, alice.token), [], `not in ${url}, even for alice`)
  const repost = await svc.call('POST', `/posts/${post.id}/repost`, { token: alice.token })
  t.equal(repost.status, 400, 'alice cannot repost it')
  t.match(repost.body.meta.error_message, /followers/)
  t.equal((await svc.call('POST', `/posts/${post.id}/star`, { token: alice.token })).status, 200, 'alice stars it')
  const shown = events.filter((e) => e.name === 'post.created' || e.name === 'star.added')
  t.same(
    shown.map((e) => e.name),
    ['post.created', 'star.added'],
  )
  t.same(
    shown.flatMap((e) => appItemsOf(e)),
    [],
    'no app stream carries the post or its star',
  )
  const files = await svc.store.read.files.getMany(await svc.store.read.files.ids('remote', 1, { limit: 10 }))
  t.equal(files.length, 1)
  t.equal(files[0].public, false, 'its photo is no public file')
  t.equal((await svc.call('GET', `/files/${files[0].id}`, { token: carol.token })).status, 404)
})

t.test('a followers-only post shows to those it mentions; unfollowing hides it; nobody here to show it to, it is not kept', async (t) => {
  const { svc, alice, carol, dave, bob, send, kept } = await setUp(t)
  const carolActor = `${SITE}/ap/users/${carol.user.id}`
  const noteId = await send({ cc: carolActor, content: '<p>hi @carol</p>', tag: [{ type: 'Mention', href: carolActor, name: '@carol' }] })
  await waitUntil(async () => (await kept(noteId)) !== null, 'the post kept')
  const { id } = (await kept(noteId))!
  t.equal((await svc.call('GET', `/posts/${id}`, { token: carol.token })).status, 200, 'carol, mentioned, reads it')
  t.equal((await svc.call('GET', `/users/me/mentions`, { token: carol.token })).body.data.length, 1, 'in her mentions')
  t.equal((await svc.call('GET', `/posts/${id}`, { token: dave.token })).status, 404, 'dave does not')
  t.equal((await svc.call('GET', `/posts/${id}`, { token: alice.token })).status, 200)
  t.equal((await svc.call('DELETE', `/users/@${bob.handle}/follow`, { token: alice.token })).status, 200)
  t.equal((await svc.call('GET', `/posts/${id}`, { token: alice.token })).status, 404, 'alice, no longer following, no longer reads it')
  const unseen = await send()
  await waitUntil(async () => (await svc.store.read.federation_queue.scan({ limit: 1 })).length === 0, 'every activity handled')
  t.equal(await kept(unseen), null, 'nobody here follows bob or is mentioned: not kept')
})
