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
 */
import { genRFC3230DigestHeader } from '@misskey-dev/node-http-message-signatures'
import t from 'tap'
import type { Post, User } from '../../../server/api/index.js'
import { freePort } from '../../fixtures/free-port.js'
import { makeInstance } from '../../fixtures/instance.js'
import { MISSKEY_CONTEXT, PUBLIC, keysOf, misskeyPeer, type Delivery } from '../../fixtures/misskey-peer.js'
import { waitUntil } from '../../fixtures/wait.js'

t.test('carol on a Misskey-like peer follows alice, gets her post, replies to it, and each side verifies the other', async (t) => {
  const port = await freePort()
  const SITE = `http://127.0.0.1:${port}`
  const svc = await makeInstance(t, { public_url: SITE, federation: { allow_private_addresses: true } }, { port })
  await svc.server.start()
  const alice = await svc.person('alice')
  const peer = await misskeyPeer(t)
  const carol = await peer.actor('carol')
  const authority = new URL(SITE).host

  // carol looks alice up as Misskey does: WebFinger, then the actor document it points at.
  const actor = await peer.lookup(`alice@${authority}`)
  const aliceActor = `${SITE}/ap/users/${alice.user.id}`
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
  const reply = {
    '@context': MISSKEY_CONTEXT,
    id: `${carolNote.id}/activity`,
    type: 'Create',
    actor: carol.id,
    published: carolNote.published,
    object: carolNote,
    to: carolNote.to,
    cc: carolNote.cc,
  }
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

/** The delivery's request with a Digest for `body`, as a forger who cannot sign would send it. */
async function redigested(delivery: Delivery, body: string) {
  return { ...delivery.request, headers: { ...delivery.request.headers, digest: await genRFC3230DigestHeader(body, 'SHA-256') } }
}

/** A Signature header whose signature's first base64 character is another. */
function flipSignature(header: string): string {
  return header.replace(/signature="(.)/, (_, c: string) => `signature="${c === 'A' ? 'B' : 'A'}`)
}
