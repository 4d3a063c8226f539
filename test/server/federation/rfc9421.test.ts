/**
 * Inbox POSTs signed with RFC 9421 HTTP Message Signatures only, as Fedify
 * 1.6 and other new servers send them on their first try, signed here with
 * the `http-message-signatures` library as a remote server would, for bob
 * of the fake remote server: a Follow whose signature verifies is taken and
 * acted on as a draft-signed one is; a body other than the one digested, a
 * key other than the one named, a key of another actor, an old signature,
 * one that does not cover the body's digest and a garbled Signature-Input
 * are refused, and leave no event.
 */
import { createHash, KeyObject } from 'node:crypto'
import { exportMultibaseKey } from '@fedify/fedify'
import { createSigner, httpbis } from 'http-message-signatures'
import t from 'tap'
import { generateKeyPair } from '../../../data/federation/key-pairs.js'
import type { DomainEvent } from '../../../data/index.js'
import type { User } from '../../../server/api/index.js'
import { makeInstance } from '../../fixtures/instance.js'
import { injectionOf, remoteServer, type RemoteActor, type RemoteServer } from '../../fixtures/remote-actor.js'
import { waitUntil } from '../../fixtures/wait.js'

const SITE = 'https://svc.example'
const AS = 'https://www.w3.org/ns/activitystreams'

/** The components Fedify 1.6 signs on a POST. */
const COMPONENTS = ['@method', '@target-uri', '@authority', 'content-type', 'content-digest']

interface SignOptions {
  /** The key that signs (default: the actor's own). */
  key?: CryptoKey
  /** The key id named (default: the actor's RSA key's). */
  keyId?: string
  /** The components covered. */
  fields?: string[]
  /** When it was signed (default: now). */
  created?: Date
  expires?: Date
  alg?: string
  /** The `alg` the Signature-Input names (default: `alg`, the one that signs). */
  declaredAlg?: string
  /** The body sent, when not the one signed and digested. */
  sentBody?: string
  /** The Content-Digest sent (default: the sha-256 of the signed body). */
  contentDigest?: string
}

const sha256 = (body: string) => `sha-256=:${createHash('sha256').update(body).digest('base64')}:`

/** A POST of `activity` to `url`, signed by `actor` with RFC 9421 only, as a Web Request. */
async function signed9421(actor: RemoteActor, url: string, activity: object, options: SignOptions = {}): Promise<Request> {
  const body = JSON.stringify(activity)
  const alg = options.alg ?? 'rsa-v1_5-sha256'
  const message = await httpbis.signMessage(
    {
      key: createSigner(KeyObject.from(options.key ?? actor.privateKey), alg, options.keyId ?? actor.keyId),
      fields: options.fields ?? COMPONENTS,
      params: options.expires ? ['keyid', 'alg', 'created', 'expires'] : ['keyid', 'alg', 'created'],
      paramValues: {
        created: options.created ?? new Date(),
        ...(options.expires ? { expires: options.expires } : {}),
        ...(options.declaredAlg ? { alg: options.declaredAlg } : {}),
      },
    },
    {
      method: 'POST',
      url,
      headers: {
        host: new URL(url).host,
        'content-type': 'application/activity+json',
        'content-digest': options.contentDigest ?? sha256(body),
      },
    },
  )
  return new Request(url, { method: 'POST', headers: message.headers as Record<string, string>, body: options.sentBody ?? body })
}

async function setUp(t: Parameters<typeof makeInstance>[0], allowPrivate = true) {
  const svc = await makeInstance(t, { public_url: SITE, federation: { allow_private_addresses: allowPrivate } })
  const alice = await svc.person('alice')
  const remote = await remoteServer(t)
  const bob = await remote.actor('bob')
  const mallory = await remote.actor('mallory')
  const aliceActor = `${SITE}/ap/users/${alice.user.id}`
  const seen: DomainEvent<'federation.activity_received'>[] = []
  svc.domain.events.on('federation.activity_received', (e) => seen.push(e))
  const follow = (n: number, actor = bob.id) => ({ '@context': AS, id: `${actor}/follows/${n}`, type: 'Follow', actor, object: aliceActor })
  /** Injects `request`: its status and body. */
  const post = async (request: Request) => {
    const res = await svc.server.inject(await injectionOf(request))
    return { status: res.statusCode, body: res.payload }
  }
  return { svc, alice, remote, bob, mallory, aliceActor, seen, follow, post }
}

const receivedOf = (remote: RemoteServer, type: string) => remote.received.filter((r) => r.body.type === type)

t.test("bob's Follow signed with RFC 9421 only is taken: recorded, made, accepted", async (t) => {
  const { svc, alice, remote, bob, aliceActor, seen, follow, post } = await setUp(t)
  const request = await signed9421(bob, `${aliceActor}/inbox`, follow(1))
  t.ok(request.headers.get('signature-input')?.startsWith('sig='), 'an RFC 9421 Signature-Input')
  t.notOk(request.headers.get('signature')?.includes('keyId='), 'and no draft-cavage Signature')
  const res = await post(request)
  t.equal(res.status, 202, res.body)
  await waitUntil(() => seen.length > 0, 'the recorded Follow')
  t.match(seen[0].payload, { id: `${bob.id}/follows/1`, type: 'Follow', actor: bob.id, recipient_id: alice.user.id })
  const followers = async () => (await svc.call<User[]>('GET', `/users/${alice.user.id}/followers`, { token: alice.token })).body.data.map((u) => u.username)
  await waitUntil(async () => (await followers()).includes(bob.handle), "bob among alice's followers")
  await waitUntil(() => receivedOf(remote, 'Accept').length > 0, 'the Accept at his server')
  t.match(receivedOf(remote, 'Accept')[0].body, { actor: aliceActor, object: { id: `${bob.id}/follows/1`, actor: bob.id } })
})

t.test('the shared inbox takes a Create signed with RFC 9421 (RSA-PSS, @path and @authority, an expiry)', async (t) => {
  const { bob, seen, post } = await setUp(t)
  const note = { id: `${bob.id}/notes/1`, type: 'Note', attributedTo: bob.id, content: '<p>hello</p>', to: `${AS}#Public` }
  const create = { '@context': AS, id: `${bob.id}/notes/1/activity`, type: 'Create', actor: bob.id, object: note, to: `${AS}#Public` }
  const res = await post(
    await signed9421(bob, `${SITE}/ap/inbox`, create, {
      alg: 'rsa-pss-sha512',
      fields: ['@method', '@path', '@authority', 'content-digest'],
      expires: new Date(Date.now() + 60_000),
    }),
  )
  t.equal(res.status, 202, res.body)
  await waitUntil(() => seen.length > 0, 'the recorded Create')
  t.match(seen[0].payload, { type: 'Create', actor: bob.id, recipient_id: null, activity: { object: { id: note.id } } })
})

t.test(
  "carol's Follow signed with her Ed25519 key (a Multikey her actor lists) is taken; for bob's Follow, or under an RSA algorithm, it is not",
  async (t) => {
    const { remote, bob, aliceActor, seen, follow, post } = await setUp(t)
    const pair = await generateKeyPair('Ed25519')
    const carolId = `${remote.origin}/users/carol`
    const multikey = { id: `${carolId}#ed25519-key`, type: 'Multikey', controller: carolId, publicKeyMultibase: await exportMultibaseKey(pair.publicKey) }
    const carol = await remote.actor('carol', {
      '@context': [
        'https://www.w3.org/ns/activitystreams',
        'https://w3id.org/security/v1',
        'https://www.w3.org/ns/did/v1',
        'https://w3id.org/security/multikey/v1',
      ],
      assertionMethod: [multikey],
    })
    const inbox = `${aliceActor}/inbox`
    const signedByCarol = await signed9421(carol, inbox, follow(1, carol.id), { key: pair.privateKey, keyId: multikey.id, alg: 'ed25519' })
    const res = await post(signedByCarol)
    t.equal(res.status, 202, res.body)
    await waitUntil(() => seen.length > 0, "carol's recorded Follow")
    t.match(seen[0].payload, { type: 'Follow', actor: carol.id })
    const posing = await signed9421(carol, inbox, follow(2, bob.id), { key: pair.privateKey, keyId: multikey.id, alg: 'ed25519' })
    t.equal((await post(posing)).status, 401, "carol's Ed25519 key for bob's Follow")
    const rsaAlg = await signed9421(carol, inbox, follow(3, carol.id), {
      key: pair.privateKey,
      keyId: multikey.id,
      alg: 'ed25519',
      declaredAlg: 'rsa-v1_5-sha256',
    })
    t.equal((await post(rsaAlg)).status, 401, 'an Ed25519 key under an RSA algorithm')
    t.equal(seen.length, 1, 'only her own Follow recorded')
  },
)

t.test('what does not verify is refused with a 401 (a 4xx for a garbled header) and leaves no event', async (t) => {
  const { bob, mallory, aliceActor, seen, follow, post } = await setUp(t)
  const inbox = `${aliceActor}/inbox`
  const refused = async (request: Request, what: string, status = 401) => {
    const res = await post(request)
    t.equal(res.status, status, `${what}: ${res.status} ${res.body}`)
    return res
  }

  // The body is not the one signed and digested.
  await refused(await signed9421(bob, inbox, follow(1), { sentBody: JSON.stringify(follow(2)) }), 'a body other than the one digested')
  // A digest of the body sent, but not the one signed over.
  const tampered = JSON.stringify(follow(3))
  await refused(await signed9421(bob, inbox, follow(3), { contentDigest: sha256('{}'), sentBody: tampered }), 'a digest of another body')
  await refused(await signed9421(bob, inbox, follow(4), { key: mallory.privateKey }), "mallory's key under bob's keyid")
  await refused(await signed9421(mallory, inbox, follow(5, bob.id)), 'signed by mallory, claiming to be bob')
  await refused(await signed9421(bob, inbox, follow(6), { created: new Date(Date.now() - 2 * 3600_000) }), 'created two hours ago')
  await refused(await signed9421(bob, inbox, follow(7), { created: new Date(Date.now() + 2 * 3600_000) }), 'created two hours ahead')
  await refused(
    await signed9421(bob, inbox, follow(8), { created: new Date(Date.now() - 120_000), expires: new Date(Date.now() - 60_000) }),
    'expired a minute ago',
  )
  await refused(await signed9421(bob, inbox, follow(9), { fields: ['@method', '@target-uri', 'content-type'] }), 'content-digest not covered')
  await refused(await signed9421(bob, inbox, follow(10), { fields: ['@method', '@authority', 'content-digest'] }), 'the target not covered')
  await refused(await signed9421(bob, inbox, follow(11), { alg: 'ed25519' }), 'an algorithm the key is not for')

  const garbled = await signed9421(bob, inbox, follow(12))
  for (const input of ['sig=(', 'garbage "', 'sig=("@method";created=1', 'sig=:AAAA:', '']) {
    const headers = new Headers(garbled.headers)
    headers.set('signature-input', input)
    const res = await post(new Request(garbled.url, { method: 'POST', headers, body: JSON.stringify(follow(12)) }))
    t.ok(res.status >= 400 && res.status < 500, `Signature-Input ${JSON.stringify(input)}: a 4xx (${res.status})`)
  }
  const noSignature = new Headers(garbled.headers)
  noSignature.set('signature', 'sig=:bm90IGEgc2lnbmF0dXJl:')
  await refused(new Request(garbled.url, { method: 'POST', headers: noSignature, body: JSON.stringify(follow(12)) }), 'a signature of other bytes')

  // Signed properly, but no activity: a 4xx, never a 5xx.
  for (const body of [[], {}, { '@context': 5 }, { type: 'Follow' }]) {
    const res = await post(await signed9421(bob, inbox, body))
    t.ok(res.status >= 400 && res.status < 500, `${JSON.stringify(body)}: a 4xx (${res.status} ${res.body})`)
  }

  // Each of these, signed properly, is taken: the refusals above are the signatures'.
  t.equal((await post(await signed9421(bob, inbox, follow(13)))).status, 202, 'the same Follow signed properly')
  await waitUntil(() => seen.length > 0, 'the one Follow recorded')
  t.same(
    seen.map((e) => e.payload.id),
    [`${bob.id}/follows/13`],
    'only the Follow signed properly recorded',
  )
})

t.test('without allow_private_addresses the key on a loopback address is never fetched, so the Follow is refused', async (t) => {
  const { remote, bob, aliceActor, seen, follow, post } = await setUp(t, false)
  const res = await post(await signed9421(bob, `${aliceActor}/inbox`, follow(1)))
  t.equal(res.status, 401, res.body)
  t.notOk(remote.fetched.includes('/users/bob'), "bob's key not fetched")
  t.same(seen, [])
})
