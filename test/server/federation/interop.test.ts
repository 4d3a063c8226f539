/**
 * svc against an ActivityPub peer it did not write: carol on a Misskey-like
 * server (test/fixtures/misskey-peer.ts: documents written by hand as Misskey
 * serves them, every signature made and checked with Misskey's own HTTP
 * Signatures library, no Fedify). svc listens on a real port under its
 * public URL. carol finds alice by WebFinger and follows her; svc verifies
 * the Follow and its Accept passes the peer's check (the key fetched from
 * alice's actor), which an altered body or signature fails; alice's post
 * reaches the peer's shared inbox, verified; carol's reply mentioning alice
 * is in alice's mentions and the thread; a request signed with another key
 * than the one its keyId names is refused.
 *
 * And the other way: alice finds carol through the App.net API (WebFinger
 * and her actor fetched from the peer) and follows her; the peer verifies
 * svc's Follow with Misskey's library, and carol, who approves her
 * followers, sends its Accept: only then does alice follow her. carol's
 * Note reaches alice's unified stream; alice's reply reaches the peer,
 * verified, in reply to it and addressed to carol; carol's Delete deletes
 * the post; alice's unfollow sends the Undo the peer verifies and acts on.
 *
 * And stars, renotes and private messages as Misskey renders them: carol's
 * reaction (a Like) and renote (an Announce) of alice's post list her among
 * its stargazers and reposters, her Undo takes the reaction back; her
 * specified Note to alice is a private message and no post; alice's answer,
 * star and repost reach the peer, verified.
 *
 * And photos both ways: carol's Note with a drive file (a Document as
 * Misskey renders one: its type, address and comment, no size) becomes a
 * photo svc fetched once from the peer and serves itself, the same bytes,
 * its size read from them and her comment its alt text; alice's photo
 * reaches the peer as an Image with its type, size and alt text, at an
 * address the peer can load.
 */
import { createHash, randomUUID } from 'node:crypto'
import { genRFC3230DigestHeader } from '@misskey-dev/node-http-message-signatures'
import t from 'tap'
import type { Channel, Message, Post, User } from '../../../server/api/index.js'
import { upload } from '../../fixtures/files.js'
import { freePort } from '../../fixtures/free-port.js'
import { noisyPng } from '../../fixtures/images.js'
import { makeInstance } from '../../fixtures/instance.js'
import { MISSKEY_CONTEXT, PUBLIC, createOf, keysOf, misskeyPeer, publicNoteOf, type Delivery } from '../../fixtures/misskey-peer.js'
import { waitUntil } from '../../fixtures/wait.js'

/** svc listening under its public URL with alice on it, and the peer with carol (`locked`: she approves her followers). */
async function setUp(t: Parameters<typeof makeInstance>[0], carolOptions: { locked?: boolean } = {}) {
  const port = await freePort()
  const SITE = `http://127.0.0.1:${port}`
  const svc = await makeInstance(t, { public_url: SITE, federation: { allow_private_addresses: true } }, { port })
  await svc.server.start()
  const alice = await svc.person('alice')
  const peer = await misskeyPeer(t)
  const carol = await peer.actor('carol', carolOptions)
  return { SITE, svc, alice, peer, carol, authority: new URL(SITE).host, aliceActor: `${SITE}/ap/users/${alice.user.id}` }
}

t.test('carol on a Misskey-like peer follows alice, gets her post, replies to it, and each side verifies the other', async (t) => {
  const { SITE, svc, alice, peer, carol, authority, aliceActor } = await setUp(t)

  // carol looks alice up as Misskey does: WebFinger, then the actor document it points at.
  const actor = await peer.lookup(`alice@${authority}`)
  t.match(actor, { id: aliceActor, type: 'Person', preferredUsername: 'alice', inbox: `${aliceActor}/inbox`, endpoints: { sharedInbox: `${SITE}/ap/inbox` } })
  const publicKey = actor.publicKey as { id: string; owner: string; publicKeyPem: string }
  t.match(publicKey, { owner: aliceActor, publicKeyPem: /^-----BEGIN PUBLIC KEY-----/ }, 'her RSA key as a PEM')

  const follow = { '@context': MISSKEY_CONTEXT, id: `${peer.origin}/follows/carol/alice`, type: 'Follow', actor: carol.id, object: aliceActor }
  t.equal((await peer.post(carol, actor.inbox as string, follow)).status, 202, 'svc verified the Follow signed by Misskey’s library')

  const of = (type: string) => peer.inbox.filter((d) => d.body.type === type)
  await waitUntil(() => of('Accept').length > 0, 'the Accept at the peer')
  const [accept] = of('Accept')
  t.same(accept.verification, { ok: true, keyId: publicKey.id }, 'the peer verified the Accept with her key')
  t.ok(peer.keyFetches.includes(aliceActor), 'fetched from her actor over HTTP')
  t.equal(accept.path, new URL(carol.document.inbox as string).pathname, "to carol's inbox")
  t.match(accept.body, { actor: aliceActor, object: { type: 'Follow', actor: carol.id, object: aliceActor } })
  t.ok(peer.following.get(carol.id)?.has(aliceActor), 'carol follows alice on the peer')

  // The check can fail: an altered body, the body altered with a Digest to match, an altered signature.
  const altered = accept.rawBody.replace('Accept', 'Reject')
  t.match(await peer.verify(accept.request, altered), { ok: false, reason: 'digest' }, 'another body fails the Digest')
  const withDigest = await redigested(accept, altered)
  t.match(await peer.verify(withDigest, altered), { ok: false, reason: 'signature' }, 'another body and its Digest fail the signature')
  const forged = { ...accept.request, headers: { ...accept.request.headers, signature: flipSignature(String(accept.request.headers.signature)) } }
  t.match(await peer.verify(forged, accept.rawBody), { ok: false, reason: 'signature' }, 'another signature fails')
  t.match(await peer.verify(accept.request, accept.rawBody), { ok: true }, 'the Accept as it came still passes')

  const followers = (await svc.call<User[]>('GET', `/users/${alice.user.id}/followers`, { token: alice.token })).body.data
  t.same(
    followers.map((u) => u.username),
    [carol.handle],
    'carol among her followers in the App.net API',
  )

  // alice posts through the API: one Create to the peer's shared inbox, verified there.
  const post = await svc.call<Post>('POST', '/posts', { token: alice.token, payload: { text: 'hello misskey' } })
  t.equal(post.status, 200)
  await waitUntil(() => of('Create').length > 0, 'her Create at the peer')
  const [create] = of('Create')
  t.equal(create.path, '/inbox', 'to the shared inbox')
  t.same(create.verification, { ok: true, keyId: publicKey.id }, 'verified')
  const noteId = `${SITE}/ap/posts/${post.body.data.id}`
  t.match(create.body, { actor: aliceActor, object: { id: noteId, type: 'Note', attributedTo: aliceActor, content: /hello misskey/ } })

  // carol replies, mentioning alice, as Misskey writes a Note.
  const carolNote = {
    id: `${peer.origin}/notes/9zz1`,
    type: 'Note',
    attributedTo: carol.id,
    content: `<p><a href="${SITE}/@alice" class="u-url mention">@alice@${authority}</a> hello from misskey</p>`,
    _misskey_content: `@alice@${authority} hello from misskey`,
    source: { content: `@alice@${authority} hello from misskey`, mediaType: 'text/x.misskeymarkdown' },
    published: new Date().toISOString(),
    to: [PUBLIC],
    cc: [carol.document.followers, aliceActor],
    inReplyTo: noteId,
    attachment: [],
    sensitive: false,
    tag: [{ type: 'Mention', href: aliceActor, name: `@alice@${authority}` }],
  }
  const reply = createOf(carolNote)
  t.equal((await peer.post(carol, `${SITE}/ap/inbox`, reply)).status, 202, 'svc verified the Create')
  const mentions = async () => (await svc.call<Post[]>('GET', '/users/me/mentions', { token: alice.token })).body.data
  await waitUntil(async () => (await mentions()).length > 0, "carol's reply in alice's mentions")
  const [mention] = await mentions()
  t.match(mention, { text: `@alice@${authority} hello from misskey`, user: { username: carol.handle }, reply_to: post.body.data.id })
  const replies = (await svc.call<Post[]>('GET', `/posts/${post.body.data.id}/replies`, { token: alice.token })).body.data
  t.ok(
    replies.some((p) => p.id === mention.id),
    'in the thread',
  )

  // Signed by a key other than the one its keyId names: refused.
  const mallory = await keysOf('mallory')
  const forgedCreate = { ...reply, id: `${carolNote.id}/forged`, object: { ...carolNote, id: `${peer.origin}/notes/9zz2`, content: '<p>forged</p>' } }
  t.equal((await peer.post(carol, `${SITE}/ap/inbox`, forgedCreate, { privateKeyPem: mallory.privateKey })).status, 401, 'the wrong key is refused')
  const global = (await svc.call<Post[]>('GET', '/posts/stream/global', { token: alice.token })).body.data.map((p) => p.text)
  t.ok(global.includes(mention.text), "carol's reply is in the global stream")
  t.notOk(global.includes('forged'), 'the forged one is not')
})

t.test('alice on svc finds carol on the Misskey-like peer, follows her, gets her post, replies to it, sees it deleted, and unfollows', async (t) => {
  // carol approves her followers, so alice's follow waits on her Accept.
  const { SITE, svc, alice, peer, carol, aliceActor } = await setUp(t, { locked: true })
  const aliceKey = `${aliceActor}#main-key`
  const of = (type: string) => peer.inbox.filter((d) => d.body.type === type)
  const asAlice = <T>(method: string, url: string, payload?: object) => svc.call<T>(method, url, { token: alice.token, payload })

  // alice looks carol up by her handle: WebFinger and the actor, from the peer.
  const found = await asAlice<User>('GET', `/users/@${carol.handle}`)
  t.equal(found.status, 200, JSON.stringify(found.body))
  const carolUser = found.body.data
  t.match(carolUser, { username: carol.handle, name: 'Carol', description: { text: 'carol on a Misskey-like peer' }, you_follow: false, follow_pending: false })

  const followed = await asAlice<User>('POST', `/users/${carolUser.id}/follow`)
  t.equal(followed.status, 200, JSON.stringify(followed.body))
  t.match(followed.body.data, { username: carol.handle, you_follow: false, follow_pending: true })
  await waitUntil(() => of('Follow').length > 0, "alice's Follow at the peer")
  const [follow] = of('Follow')
  t.same(follow.verification, { ok: true, keyId: aliceKey }, 'the peer verified the Follow with her key')
  t.equal(follow.path, new URL(carol.document.inbox as string).pathname, "to carol's inbox")
  t.match(follow.body, { type: 'Follow', actor: aliceActor, object: carol.id })
  t.match(peer.followRequests, [{ follower: aliceActor, followee: carol.id, id: follow.body.id }], 'a follow request of carol')
  const following = async () => (await asAlice<User[]>('GET', `/users/${alice.user.id}/following`)).body.data.map((u) => u.username)
  t.same(await following(), [], 'no follow before the Accept')

  // carol approves: Misskey's Accept, signed by its library, to alice's inbox.
  t.equal((await peer.accept(carol, peer.followRequests[0])).status, 202, 'svc verified the Accept')
  t.ok(peer.followers.get(carol.id)?.has(aliceActor), 'alice among her followers on the peer')
  await waitUntil(async () => (await following()).includes(carol.handle), 'carol among whom alice follows')
  t.match((await asAlice<User>('GET', `/users/${carolUser.id}`)).body.data, { you_follow: true, follow_pending: false })

  // carol posts, as Misskey writes a Note, to her followers: the Create reaches alice's unified stream.
  const carolNote = {
    id: `${peer.origin}/notes/9zz3`,
    type: 'Note',
    attributedTo: carol.id,
    content: '<p>first note from misskey<br>with a second line</p>',
    _misskey_content: 'first note from misskey\nwith a second line',
    source: { content: 'first note from misskey\nwith a second line', mediaType: 'text/x.misskeymarkdown' },
    published: new Date().toISOString(),
    to: [PUBLIC],
    cc: [carol.document.followers],
    inReplyTo: null,
    attachment: [],
    sensitive: false,
    tag: [],
  }
  const create = createOf(carolNote)
  t.same(await peer.publish(carol, create), [{ inbox: `${SITE}/ap/inbox`, status: 202 }], "to alice's shared inbox, verified by svc")
  const unified = async (query = '') => (await asAlice<Post[]>('GET', `/posts/stream/unified${query}`)).body.data
  await waitUntil(async () => (await unified()).some((p) => p.user?.username === carol.handle), "carol's post in alice's unified stream")
  const [carolPost] = (await unified()).filter((p) => p.user?.username === carol.handle)
  t.match(carolPost, { text: /^first note from misskey\s+with a second line$/, canonical_url: carolNote.id })

  // alice replies, naming her as App.net clients do: a Create at the peer's shared inbox, verified, in reply to carol's Note.
  const replied = await asAlice<Post>('POST', '/posts', { text: `@${carol.handle} hello back`, reply_to: carolPost.id })
  t.equal(replied.status, 200, JSON.stringify(replied.body))
  await waitUntil(() => of('Create').length > 0, 'her reply at the peer')
  const [reply] = of('Create')
  t.equal(reply.path, '/inbox', 'to the shared inbox')
  t.same(reply.verification, { ok: true, keyId: aliceKey }, 'verified')
  const note = reply.body.object as Record<string, unknown>
  t.match(note, { id: `${SITE}/ap/posts/${replied.body.data.id}`, type: 'Note', attributedTo: aliceActor, inReplyTo: carolNote.id, content: /hello back/ })
  const addressed = [reply.body.to, reply.body.cc, note.to, note.cc].flat()
  t.ok(addressed.includes(carol.id), 'carol is addressed')
  // One tag comes compacted as an object, not a list; Misskey reads either.
  t.match([note.tag].flat(), [{ type: 'Mention', href: carol.id }], 'and mentioned')

  // carol deletes her Note as Misskey does (a Delete of its Tombstone): the post is deleted in alice's unified stream.
  const deleted = {
    '@context': MISSKEY_CONTEXT,
    id: `${peer.origin}/${randomUUID()}`,
    type: 'Delete',
    actor: carol.id,
    object: { id: carolNote.id, type: 'Tombstone' },
    published: new Date().toISOString(),
  }
  t.same(await peer.publish(carol, deleted), [{ inbox: `${SITE}/ap/inbox`, status: 202 }], 'svc verified the Delete')
  await waitUntil(async () => !(await unified('?include_deleted=0')).some((p) => p.id === carolPost.id), 'her post gone from the unified stream')
  // Where deleted posts are asked for (App.net's default), it stays as deleted, for a client to drop it.
  t.match(
    (await unified()).find((p) => p.id === carolPost.id),
    { is_deleted: true },
    'shown deleted where deleted posts are asked for',
  )
  t.match((await asAlice<Post>('GET', `/posts/${carolPost.id}`)).body.data, { is_deleted: true })

  // alice unfollows: the Undo of her Follow reaches carol's inbox, verified, and she follows carol no more there.
  t.equal((await asAlice('DELETE', `/users/${carolUser.id}/follow`)).status, 200)
  t.same(await following(), [])
  await waitUntil(() => of('Undo').length > 0, 'the Undo at the peer')
  const [undo] = of('Undo')
  t.same(undo.verification, { ok: true, keyId: aliceKey }, 'verified')
  t.equal(undo.path, new URL(carol.document.inbox as string).pathname, "to carol's inbox")
  t.match(undo.body, { actor: aliceActor, object: { type: 'Follow', actor: aliceActor, object: carol.id } })
  t.notOk(peer.followers.get(carol.id)?.has(aliceActor), 'alice no longer among her followers on the peer')
  t.same(
    peer.inbox.filter((d) => !d.verification.ok),
    [],
    'every delivery verified',
  )
})

t.test('carol on the Misskey-like peer and alice star, renote and message each other, as Misskey sends and checks them', async (t) => {
  const { SITE, svc, alice, peer, carol, authority, aliceActor } = await setUp(t)
  const aliceKey = `${aliceActor}#main-key`
  const of = (type: string) => peer.inbox.filter((d) => d.body.type === type)
  const asAlice = <T>(method: string, url: string, payload?: object) => svc.call<T>(method, url, { token: alice.token, payload })
  const mine = (await asAlice<Post>('POST', '/posts', { text: 'tea at four' })).body.data
  const noteId = `${SITE}/ap/posts/${mine.id}`

  // carol reacts and renotes, as Misskey renders them: a Like with its reaction, an Announce to the public and her followers.
  const like = {
    '@context': MISSKEY_CONTEXT,
    id: `${peer.origin}/likes/9zz5`,
    type: 'Like',
    actor: carol.id,
    object: noteId,
    content: '👍',
    _misskey_reaction: '👍',
  }
  t.equal((await peer.post(carol, `${SITE}/ap/inbox`, like)).status, 202, 'svc verified the Like')
  const renote = {
    '@context': MISSKEY_CONTEXT,
    id: `${peer.origin}/notes/9zz6/activity`,
    type: 'Announce',
    actor: carol.id,
    published: new Date().toISOString(),
    to: [PUBLIC],
    cc: [aliceActor, carol.document.followers],
    object: noteId,
  }
  t.equal((await peer.post(carol, `${SITE}/ap/inbox`, renote)).status, 202, 'svc verified the Announce')
  const names = async (what: string) => (await asAlice<User[]>('GET', `/posts/${mine.id}/${what}`)).body.data.map((u) => u.username)
  await waitUntil(async () => (await names('stars')).includes(carol.handle), 'carol among the stargazers')
  await waitUntil(async () => (await names('reposters')).includes(carol.handle), 'carol among the reposters')
  const undoLike = { '@context': MISSKEY_CONTEXT, id: `${peer.origin}/${randomUUID()}`, type: 'Undo', actor: carol.id, object: like }
  t.equal((await peer.post(carol, `${SITE}/ap/inbox`, undoLike)).status, 202)
  await waitUntil(async () => (await names('stars')).length === 0, 'her reaction undone')

  // A specified (direct) Note to alice, as Misskey addresses one: a private message, no post.
  const dm = {
    id: `${peer.origin}/notes/9zz7`,
    type: 'Note',
    attributedTo: carol.id,
    content: `<p><a href="${SITE}/@alice" class="u-url mention">@alice@${authority}</a> just us</p>`,
    _misskey_content: `@alice@${authority} just us`,
    published: new Date().toISOString(),
    to: [aliceActor],
    cc: [],
    attachment: [],
    sensitive: false,
    tag: [{ type: 'Mention', href: aliceActor, name: `@alice@${authority}` }],
  }
  t.equal((await peer.post(carol, `${SITE}/ap/inbox`, createOf(dm))).status, 202, 'svc verified the direct Create')
  const pm = async () => (await asAlice<Channel[]>('GET', '/channels?channel_types=svc.core.pm')).body.data
  await waitUntil(async () => (await pm()).length > 0, 'a pm channel of alice and carol')
  const [channel] = await pm()
  const messages = (await asAlice<Message[]>('GET', `/channels/${channel.id}/messages`)).body.data
  t.match(messages, [{ text: `@alice@${authority} just us`, user: { username: carol.handle } }])
  t.equal(svc.store.stats().rows.posts, 2, "no post of it: alice's and carol's renote only")

  // alice answers, and stars and reposts carol's public Note: each reaches the peer, verified.
  t.equal((await asAlice('POST', `/channels/${channel.id}/messages`, { text: 'sure' })).status, 200)
  await waitUntil(() => of('Create').length > 0, 'her answer at the peer')
  const [answer] = of('Create')
  t.same(answer.verification, { ok: true, keyId: aliceKey }, 'verified')
  t.match(answer.body, { actor: aliceActor, object: { type: 'Note', to: carol.id, content: /sure/ } })
  t.notOk(/Public|followers/.test(answer.rawBody), 'addressed to carol alone')
  const carolNote = {
    id: `${peer.origin}/notes/9zz8`,
    type: 'Note',
    attributedTo: carol.id,
    content: `<p><a href="${SITE}/@alice" class="u-url mention">@alice@${authority}</a> public</p>`,
    published: new Date().toISOString(),
    to: [PUBLIC],
    cc: [carol.document.followers, aliceActor],
    tag: [{ type: 'Mention', href: aliceActor, name: `@alice@${authority}` }],
  }
  t.equal((await peer.post(carol, `${SITE}/ap/inbox`, createOf(carolNote))).status, 202)
  const mentions = async () => (await asAlice<Post[]>('GET', '/users/me/mentions')).body.data
  await waitUntil(async () => (await mentions()).length > 0, 'her public Note')
  const [kept] = await mentions()
  t.equal((await asAlice('POST', `/posts/${kept.id}/star`)).status, 200)
  t.equal((await asAlice('POST', `/posts/${kept.id}/repost`)).status, 200)
  await waitUntil(() => of('Like').length > 0 && of('Announce').length > 0, 'the Like and the Announce at the peer')
  t.match(of('Like')[0], { verification: { ok: true, keyId: aliceKey }, body: { actor: aliceActor, object: carolNote.id } })
  t.match(of('Announce')[0], { verification: { ok: true, keyId: aliceKey }, body: { actor: aliceActor, object: carolNote.id } })
  t.same(
    peer.inbox.filter((d) => !d.verification.ok),
    [],
    'every delivery verified',
  )
})

t.test("carol's drive file on the Misskey-like peer becomes a photo svc serves; alice's photo reaches the peer as an Image", async (t) => {
  const { SITE, svc, alice, peer, carol, aliceActor } = await setUp(t)
  const of = (type: string) => peer.inbox.filter((d) => d.body.type === type)
  const asAlice = <T>(method: string, url: string, payload?: object) => svc.call<T>(method, url, { token: alice.token, payload })
  const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex')
  // Each follows the other: carol's Note reaches alice, alice's post reaches the peer.
  t.equal((await asAlice('POST', `/users/@${carol.handle}/follow`)).status, 200)
  await waitUntil(async () => (await asAlice<User>('GET', `/users/@${carol.handle}`)).body.data.you_follow === true, 'alice follows carol')
  const follow = { '@context': MISSKEY_CONTEXT, id: `${peer.origin}/follows/carol/alice`, type: 'Follow', actor: carol.id, object: aliceActor }
  t.equal((await peer.post(carol, `${aliceActor}/inbox`, follow)).status, 202)
  await waitUntil(() => peer.following.get(carol.id)?.has(aliceActor) ?? false, 'carol follows alice')

  // carol's Note with a drive file, as Misskey's renderDocument writes one: type, address, comment; no width or height.
  const theirs = await noisyPng(300, 200)
  const drive = {
    type: 'Document',
    mediaType: 'image/png',
    url: peer.serveFile('/files/9zza.png', 'image/png', theirs),
    name: 'Tulips by the shed',
    sensitive: false,
  }
  const carolNote = publicNoteOf(carol, `${peer.origin}/notes/9zz9`, 'my garden', { attachment: [drive] })
  t.same(await peer.publish(carol, createOf(carolNote)), [{ inbox: `${SITE}/ap/inbox`, status: 202 }])
  const unified = async () => (await asAlice<Post[]>('GET', '/posts/stream/unified?include_annotations=1')).body.data
  await waitUntil(async () => (await unified()).some((p) => p.text === 'my garden'), "carol's post in alice's unified stream")
  const kept = (await unified()).find((p) => p.text === 'my garden')!
  const photos = ((kept.annotations ?? []) as { type: string; value: Record<string, unknown> }[]).filter((a) => a.type === 'svc.core.oembed')
  t.equal(photos.length, 1, 'one photo')
  const { value } = photos[0] ?? { value: {} }
  t.match(value, { type: 'photo', width: 300, height: 200, title: 'Tulips by the shed' }, 'its size from the bytes, her comment its alt text')
  for (const key of ['url', 'thumbnail_url']) t.ok(String(value[key]).startsWith(`${SITE}/`), `its ${key} is svc's own`)
  const served = await fetch(String(value.url))
  t.equal(served.status, 200)
  t.equal(sha1(new Uint8Array(await served.arrayBuffer())), sha1(theirs), 'the bytes the peer served')
  t.same(peer.fileFetches, ['/files/9zza.png'], 'fetched from the peer once')

  // alice's public photo with alt text: the Create at the peer carries it as an Image the peer can load.
  const mine = await noisyPng(320, 240)
  const file = (
    await upload(svc, alice.token, [
      { name: 'type', data: 'com.example.photo' },
      { name: 'public', data: '1' },
      { name: 'content', data: mine, filename: 'cat.png', type: 'image/png' },
    ])
  ).body.data
  const photo = { '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'oembed' }, title: 'A grey cat asleep' }
  const posted = await asAlice<Post>('POST', '/posts', { text: 'my cat', annotations: [{ type: 'svc.core.oembed', value: photo }] })
  t.equal(posted.status, 200, JSON.stringify(posted.body.meta))
  await waitUntil(() => of('Create').length > 0, 'her Create at the peer')
  const [create] = of('Create')
  t.match(create.verification, { ok: true }, 'verified')
  const attachments = [(create.body.object as Record<string, unknown>).attachment].flat() as Record<string, unknown>[]
  t.match(
    attachments,
    [{ type: 'Image', mediaType: 'image/png', width: 320, height: 240, name: 'A grey cat asleep', url: new RegExp(`^${SITE}/f/\\w+$`) }],
    'an Image with its type, size and alt text, at its lasting address',
  )
  t.equal(attachments.length, 1)
  const loaded = await fetch(String(attachments[0]?.url))
  t.equal(sha1(new Uint8Array(await loaded.arrayBuffer())), sha1(mine), 'the peer loads the bytes alice uploaded')
})

/** The delivery's request with a Digest for `body`, as a forger who cannot sign would send it. */
async function redigested(delivery: Delivery, body: string) {
  return { ...delivery.request, headers: { ...delivery.request.headers, digest: await genRFC3230DigestHeader(body, 'SHA-256') } }
}

/** A Signature header whose signature's first base64 character is another. */
function flipSignature(header: string): string {
  return header.replace(/signature="(.)/, (_, c: string) => `signature="${c === 'A' ? 'B' : 'A'}`)
}
