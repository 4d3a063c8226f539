/**
 * Local posts out: alice's post goes as a signed Create of its Note to her
 * remote followers, once per shared inbox, and to the remote account it
 * mentions by handle; her reply to dave's post goes to dave; deleting it
 * sends the Delete; editing her profile sends an Update of her actor. A
 * post nobody remote follows or is mentioned in sends nothing. Her deleted
 * account goes as a Delete of her actor to every server svc knows. Her
 * photos go as the Note's attachments, a private file's never.
 */
import t, { type Test } from 'tap'
import type { Post } from '../../../server/api/index.js'
import { upload } from '../../fixtures/files.js'
import { flatImage } from '../../fixtures/images.js'
import { makeInstance } from '../../fixtures/instance.js'
import { injectionOf, remoteServer, type RemoteActor, type RemoteServer } from '../../fixtures/remote-actor.js'
import { waitUntil } from '../../fixtures/wait.js'

const SITE = 'https://svc.example'
const AS = 'https://www.w3.org/ns/activitystreams'
const PUBLIC = `${AS}#Public`

const ofType = (remote: RemoteServer, type: string) => remote.received.filter((r) => r.body.type === type)

/** alice on svc; bob and carol on one remote server, dave on another; `send` posts a signed activity of theirs to svc's shared inbox. */
async function world(t: Test) {
  const svc = await makeInstance(t, { public_url: SITE, federation: { allow_private_addresses: true } })
  const alice = await svc.person('alice')
  const aliceActor = `${SITE}/ap/users/${alice.user.id}`
  const [one, two] = [await remoteServer(t), await remoteServer(t)]
  const [bob, carol, dave] = [await one.actor('bob'), await one.actor('carol'), await two.actor('dave')]
  const send = async (who: RemoteActor, activity: object) =>
    (await svc.server.inject(await injectionOf(await who.signedPost(`${SITE}/ap/inbox`, { '@context': AS, ...activity })))).statusCode
  const daveNote = {
    id: `${dave.id}/notes/1`,
    type: 'Note',
    attributedTo: dave.id,
    content: '<p>@alice hi</p>',
    to: PUBLIC,
    tag: [{ type: 'Mention', href: aliceActor, name: '@alice@svc.example' }],
  }
  /** dave's public Note mentioning alice, sent to svc's shared inbox; answers the status. */
  const daveMentionsAlice = () => send(dave, { id: `${daveNote.id}/activity`, type: 'Create', actor: dave.id, object: daveNote, to: PUBLIC })
  return { svc, alice, aliceActor, one, two, bob, carol, dave, send, daveNote, daveMentionsAlice }
}

t.test("alice's posts, their deletion and her profile reach the remote accounts they concern", async (t) => {
  const { svc, alice, aliceActor, one, two, bob, carol, dave, send, daveNote, daveMentionsAlice } = await world(t)

  const quiet = await svc.call<Post>('POST', '/posts', { token: alice.token, payload: { text: 'nobody remote yet' } })
  t.equal(quiet.status, 200)

  for (const who of [bob, carol]) t.equal(await send(who, { id: `${who.id}/follows/1`, type: 'Follow', actor: who.id, object: aliceActor }), 202)
  await waitUntil(() => ofType(one, 'Accept').length === 2, 'both follows accepted')

  const post = await svc.call<Post>('POST', '/posts', { token: alice.token, payload: { text: `hello #fedi @${dave.handle}` } })
  t.equal(post.status, 200, JSON.stringify(post.body))
  t.match(post.body.data.entities.mentions, [{ name: dave.handle, pos: 12, len: dave.handle.length + 1 }], 'the handle is a mention of dave')
  await waitUntil(() => ofType(one, 'Create').length > 0 && ofType(two, 'Create').length > 0, 'the Create at both servers')
  await waitUntil(() => svc.store.read.federation_queue.size().then((n) => n === 0), 'the queue done')
  t.equal(ofType(one, 'Create').length, 1, "one delivery to bob and carol's server")
  t.same(
    ofType(one, 'Create').map((r) => r.path),
    ['/inbox'],
    'to its shared inbox',
  )
  const create = ofType(one, 'Create')[0]
  t.ok(create.signature, 'signed')
  const noteId = `${SITE}/ap/posts/${post.body.data.id}`
  t.match(create.body, {
    actor: aliceActor,
    object: {
      id: noteId,
      type: 'Note',
      // Fedify writes the public collection compacted, as `as:Public`.
      to: /Public$/,
      cc: [`${aliceActor}/followers`, dave.id],
      tag: [
        { type: 'Mention', href: dave.id, name: `@${dave.handle}` },
        { type: 'Hashtag', name: '#fedi' },
      ],
    },
  })
  t.equal(ofType(one, 'Create').filter((r) => JSON.stringify(r.body).includes('nobody remote yet')).length, 0, 'the earlier post was not sent')

  // dave posts to alice; her reply goes to him.
  await daveMentionsAlice()
  const mentions = async () => (await svc.call<Post[]>('GET', '/users/me/mentions', { token: alice.token })).body.data
  await waitUntil(async () => (await mentions()).length > 0, "dave's post in her mentions")
  const reply = await svc.call<Post>('POST', '/posts', { token: alice.token, payload: { text: 'hi dave', reply_to: (await mentions())[0].id } })
  t.equal(reply.status, 200)
  await waitUntil(() => ofType(two, 'Create').some((r) => (r.body.object as { inReplyTo?: string }).inReplyTo === daveNote.id), 'the reply at his server')
  const answer = ofType(two, 'Create').find((r) => (r.body.object as { inReplyTo?: string }).inReplyTo === daveNote.id)!.body.object as {
    cc?: string | string[]
    tag?: object | object[]
  }
  t.ok([answer.cc].flat().includes(dave.id), 'the reply is addressed to dave though its text does not mention him')
  t.match([answer.tag].flat(), [{ type: 'Mention', href: dave.id }], 'and tags him, as Mastodon and Misskey do')

  t.equal((await svc.call('DELETE', `/posts/${post.body.data.id}`, { token: alice.token })).status, 200)
  await waitUntil(() => ofType(one, 'Delete').length > 0, 'the Delete')
  t.match(ofType(one, 'Delete')[0].body, { actor: aliceActor, object: { id: noteId, type: 'Tombstone' } })

  t.equal((await svc.call('PATCH', '/users/me', { token: alice.token, payload: { name: 'Alice A.' } })).status, 200)
  await waitUntil(() => ofType(one, 'Update').length > 0, 'the Update of her actor')
  t.match(ofType(one, 'Update')[0].body, { actor: aliceActor, object: { id: aliceActor, name: 'Alice A.' } })
})

t.test("alice's deleted account goes as a Delete of her actor to every server svc knows, signed with her keys", async (t) => {
  const { svc, alice, aliceActor, one, two, bob, carol, dave, send, daveMentionsAlice } = await world(t)
  // bob and carol follow her; dave's server is known only from a post of his that mentioned her.
  for (const who of [bob, carol]) t.equal(await send(who, { id: `${who.id}/follows/1`, type: 'Follow', actor: who.id, object: aliceActor }), 202)
  t.equal(await daveMentionsAlice(), 202)
  await waitUntil(() => ofType(one, 'Accept').length === 2, 'both follows accepted')
  await waitUntil(async () => (await svc.store.read.users.scan({ limit: 10 }, (u) => u.remote?.actor_id === dave.id)).length === 1, 'dave known')

  await svc.domain.users.moderation.deleteUser(alice.user.id)
  await waitUntil(() => ofType(one, 'Delete').length > 0 && ofType(two, 'Delete').length > 0, 'the Delete at both servers')
  await waitUntil(() => svc.store.read.federation_queue.size().then((n) => n === 0), 'the queue done')
  t.equal(ofType(one, 'Delete').length, 1, "one delivery to bob and carol's server")
  t.equal(ofType(one, 'Delete')[0].path, '/inbox', 'to its shared inbox')
  for (const server of [one, two]) {
    const [deletion] = ofType(server, 'Delete')
    t.ok(deletion.signature?.includes(`keyId="${aliceActor}#main-key"`), 'signed with her key')
    t.match(deletion.body, { actor: aliceActor, object: aliceActor })
  }
  const actor = await svc.server.inject({ method: 'GET', url: `/ap/users/${alice.user.id}`, headers: { accept: 'application/activity+json' } })
  t.equal(actor.statusCode, 410, 'her actor is a Tombstone, as the servers that check the signature find')
})

t.test("alice's photos go with her Note as attachments at addresses that last; a private file's short-lived one does not", async (t) => {
  const { svc, alice, aliceActor, one, bob, send } = await world(t)
  t.equal(await send(bob, { id: `${bob.id}/follows/1`, type: 'Follow', actor: bob.id, object: aliceActor }), 202)
  await waitUntil(() => ofType(one, 'Accept').length === 1, 'his follow accepted')
  const file = async (isPublic: boolean) =>
    (
      await upload(svc, alice.token, [
        { name: 'type', data: 'com.example.photo' },
        ...(isPublic ? [{ name: 'public', data: '1' }] : []),
        { name: 'content', data: await flatImage(640, 480), filename: 'cat.png', type: 'image/png' },
      ])
    ).body.data
  const [open, hidden] = [await file(true), await file(false)]
  const oembedOf = (f: { id: string; file_token: string }) => ({
    type: 'svc.core.oembed',
    value: { '+svc.core.file': { file_id: f.id, file_token: f.file_token, format: 'oembed' } },
  })
  const annotations = [
    {
      type: 'svc.core.oembed',
      value: { version: '1.0', type: 'photo', url: 'https://photos.example/cat.jpg', width: 1024, height: 768, title: 'a cat asleep' },
    },
    oembedOf(open),
    oembedOf(hidden),
  ]
  const post = await svc.call<Post>('POST', '/posts', { token: alice.token, payload: { text: 'cats', annotations } })
  t.equal(post.status, 200, JSON.stringify(post.body.meta))
  await waitUntil(() => ofType(one, 'Create').length > 0, 'the Create')
  const note = ofType(one, 'Create')[0].body.object as Record<string, unknown>
  t.match(
    [note.attachment].flat(),
    [
      { type: 'Image', url: 'https://photos.example/cat.jpg', width: 1024, height: 768, name: 'a cat asleep' },
      { type: 'Image', mediaType: 'image/png', url: new RegExp(`^${SITE.replace(/\./g, '\\.')}/f/\\w+$`), width: 640, height: 480 },
    ],
    "the photo at its address, the public file at its lasting short one; the private file's is not sent",
  )
  t.equal([note.attachment].flat().length, 2)
  t.notOk(JSON.stringify(note).includes('expires'), 'no short-lived address')
})
