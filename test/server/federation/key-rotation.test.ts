/**
 * The parsed keys inbox POSTs are verified with (data/federation/signatures):
 * a key is fetched once and used from then on; a remote server that rotated
 * its key is believed after one fetch of the new one, at a user's inbox and
 * at the shared one alike, and the old key is refused from then on; a
 * forged signature is refused however often it comes, and makes svc fetch
 * the key it names no more than once a minute.
 */
import { exportSpki } from '@fedify/fedify'
import t from 'tap'
import { generateKeyPair } from '../../../data/federation/key-pairs.js'
import { makeInstance } from '../../fixtures/instance.js'
import { injectionOf, remoteServer } from '../../fixtures/remote-actor.js'

const SITE = 'https://svc.example'
const AS = 'https://www.w3.org/ns/activitystreams'

async function setUp(t: Parameters<typeof makeInstance>[0]) {
  const svc = await makeInstance(t, { public_url: SITE, federation: { allow_private_addresses: true } })
  const { user: alice } = await svc.person('alice')
  const remote = await remoteServer(t)
  const bob = await remote.actor('bob')
  const mallory = await remote.actor('mallory')
  const aliceId = `${SITE}/ap/users/${alice.id}`
  const inboxes = { "alice's inbox": `${aliceId}/inbox`, 'the shared inbox': `${SITE}/ap/inbox` }
  let n = 0
  /**
   * An activity of bob's to alice at `inbox`, signed with `key`, as svc
   * answers it: a Listen, which svc takes and ignores, so only the
   * signature's check fetches anything of bob's.
   */
  const send = async (key: CryptoKey, inbox: string) => {
    const activity = { '@context': AS, id: `${bob.id}/listens/${++n}`, type: 'Listen', actor: bob.id, object: aliceId }
    return (await svc.server.inject(await injectionOf(await bob.signedPost(inbox, activity, key)))).statusCode
  }
  const bobFetches = () => remote.fetched.filter((path) => path === '/users/bob').length
  return { bob, mallory, inboxes, send, bobFetches }
}

for (const which of ["alice's inbox", 'the shared inbox'] as const) {
  t.test(`at ${which}: a key is fetched once; a rotated key is believed after one fetch, and the old one is refused from then on`, async (t) => {
    const { bob, inboxes, send, bobFetches } = await setUp(t)
    const inbox = inboxes[which]
    t.equal(await send(bob.privateKey, inbox), 202, 'signed with the key bob has')
    t.equal(bobFetches(), 1, "bob's key fetched")
    t.equal(await send(bob.privateKey, inbox), 202, 'signed with it again')
    t.equal(bobFetches(), 1, 'the key kept, not fetched again')

    const rotated = await generateKeyPair('RSASSA-PKCS1-v1_5')
    bob.document.publicKey = { id: bob.keyId, owner: bob.id, publicKeyPem: await exportSpki(rotated.publicKey) }
    t.equal(await send(rotated.privateKey, inbox), 202, 'signed with the new key under the same key id: accepted')
    t.equal(bobFetches(), 2, 'after one fetch of the new key')
    t.equal(await send(rotated.privateKey, inbox), 202, 'the new key again')
    t.equal(bobFetches(), 2, 'the new key kept')
    t.equal(await send(bob.privateKey, inbox), 401, 'the old key is refused')
  })
}

t.test('a forged signature is refused every time, and svc fetches the key it names at most once a minute for it', async (t) => {
  const { bob, mallory, inboxes, send, bobFetches } = await setUp(t)
  const inbox = inboxes['the shared inbox']
  t.equal(await send(bob.privateKey, inbox), 202, "bob's own signature first: his key is kept")
  const before = bobFetches()
  for (let i = 0; i < 5; i++) t.equal(await send(mallory.privateKey, inbox), 401, `forgery ${i + 1}: mallory's key under bob's key id`)
  t.ok(bobFetches() - before <= 1, `bob's key fetched ${bobFetches() - before} times for five forgeries`)
  t.equal(await send(bob.privateKey, inbox), 202, 'bob himself is still believed')
  t.equal(await send(mallory.privateKey, inboxes["alice's inbox"]), 401, "and a forgery at alice's inbox is refused too")
})

t.test('a forged signature under a key svc never saw is refused', async (t) => {
  const { mallory, inboxes, send } = await setUp(t)
  for (const inbox of Object.values(inboxes)) {
    t.equal(await send(mallory.privateKey, inbox), 401)
    t.equal(await send(mallory.privateKey, inbox), 401, 'and again, with the key now kept')
  }
})
