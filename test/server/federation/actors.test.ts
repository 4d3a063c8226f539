/**
 * Local users as ActivityPub actors: what a remote server reads of alice,
 * robo the bot and a feed, her keys across a restart, her followers and
 * whom she follows, and the same addresses answering people and servers.
 */
import { rmSync } from 'node:fs'
import t from 'tap'
import { createServer } from '../../../server/server.js'
import { makeInstance } from '../../fixtures/instance.js'
import { openWithStore } from '../../fixtures/open-store.js'
import { scratchDir } from '../../fixtures/scratch.js'

const SITE = 'https://svc.example'
const AS = { accept: 'application/activity+json' }

t.test("alice's actor is a Person with her profile as the API shows it, where to reach her, and her public keys", async (t) => {
  const svc = await makeInstance(t, { public_url: SITE })
  const alice = await svc.person('alice')
  const shown = await svc.call('PATCH', '/users/me', {
    token: alice.token,
    payload: { name: 'Alice A.', description: { text: 'tea and <b>code</b> https://alice.example #tea' } },
  })
  const api = (await svc.call('GET', '/users/@alice', { headers: { 'x-forwarded-host': 'ignored.example' } })).body.data
  t.equal(shown.status, 200)
  const res = await svc.server.inject({ url: `/ap/users/${alice.user.id}`, headers: AS })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^application\/activity\+json/)
  const actor = JSON.parse(res.payload)
  const id = `${SITE}/ap/users/${alice.user.id}`
  t.match(actor, {
    id,
    type: 'Person',
    preferredUsername: 'alice',
    name: 'Alice A.',
    summary: api.description.html,
    url: api.canonical_url,
    icon: { type: 'Image', url: api.avatar_image.url },
    image: { type: 'Image', url: api.cover_image.url },
    inbox: `${id}/inbox`,
    outbox: `${id}/outbox`,
    followers: `${id}/followers`,
    following: `${id}/following`,
    endpoints: { sharedInbox: `${SITE}/ap/inbox` },
    manuallyApprovesFollowers: false,
    publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: /^-----BEGIN PUBLIC KEY-----/ },
  })
  t.notMatch(actor.summary, /<b>/, 'the summary is the html the API renders, markup in the text escaped')
  t.equal(actor.assertionMethod.length, 2, 'both keys sign proofs')
  t.ok(
    actor.assertionMethod.every(
      (k: { type: string; controller: string; publicKeyMultibase: string }) => k.type === 'Multikey' && k.controller === id && k.publicKeyMultibase,
    ),
  )
  t.notMatch(res.payload, /PRIVATE KEY|"d":/, 'no private part of any key')
})

t.test('robo the bot is a Service and a feed is an Application', async (t) => {
  const svc = await makeInstance(t, { public_url: SITE })
  const robo = await svc.person('robo', { type: 'bot' })
  const news = await svc.person('news', { type: 'feed' })
  for (const [who, type] of [
    [robo, 'Service'],
    [news, 'Application'],
  ] as const) {
    const actor = JSON.parse((await svc.server.inject({ url: `/ap/users/${who.user.id}`, headers: AS })).payload)
    t.equal(actor.type, type, who.user.username)
  }
})

t.test("alice's keys are made once: the same public keys after a restart on the same data dir", async (t) => {
  const dir = scratchDir('svc-fed-keys-')
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const keysOnce = async (make: boolean) => {
    const { domain } = await openWithStore(dir, { config: { public_url: SITE }, passwordCost: 2 ** 10 })
    try {
      const server = await createServer(domain)
      const alice = make
        ? await domain.users.accounts.create({ username: 'alice', password: 'correct horse' })
        : await domain.users.accounts.byUsername('alice')
      const actor = JSON.parse((await server.inject({ url: `/ap/users/${alice!.id}`, headers: AS })).payload)
      return { rsa: actor.publicKey.publicKeyPem as string, proofs: actor.assertionMethod.map((k: { publicKeyMultibase: string }) => k.publicKeyMultibase) }
    } finally {
      await domain.close()
    }
  }
  const first = await keysOnce(true)
  const again = await keysOnce(false)
  t.same(again, first)
})

t.test('followers and following list local actors, with counts', async (t) => {
  const svc = await makeInstance(t, { public_url: SITE })
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  await svc.call('POST', `/users/${alice.user.id}/follow`, { token: bob.token })
  await svc.call('POST', `/users/${alice.user.id}/follow`, { token: carol.token })
  await svc.call('POST', `/users/${bob.user.id}/follow`, { token: alice.token })
  const actorId = (p: typeof alice) => `${SITE}/ap/users/${p.user.id}`
  const followers = JSON.parse((await svc.server.inject({ url: `/ap/users/${alice.user.id}/followers`, headers: AS })).payload)
  t.match(followers, { type: 'OrderedCollection', totalItems: 2, first: `${actorId(alice)}/followers?cursor=` })
  const page = JSON.parse((await svc.server.inject({ url: `/ap/users/${alice.user.id}/followers?cursor=`, headers: AS })).payload)
  t.same(page.orderedItems, [actorId(carol), actorId(bob)], 'newest follower first')
  const following = JSON.parse((await svc.server.inject({ url: `/ap/users/${alice.user.id}/following?cursor=`, headers: AS })).payload)
  t.same(following.orderedItems, [actorId(bob)])
})

t.test('/@alice answers her actor to whoever asks for ActivityStreams, and the page to browsers', async (t) => {
  const svc = await makeInstance(t, { public_url: SITE })
  const { user: alice } = await svc.person('alice')
  for (const accept of ['application/activity+json', 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"']) {
    const res = await svc.server.inject({ url: '/@alice', headers: { accept } })
    t.equal(res.statusCode, 200, accept)
    t.equal(JSON.parse(res.payload).id, `${SITE}/ap/users/${alice.id}`, `${accept}: the actor`)
  }
  for (const accept of ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/ld+json', 'application/json']) {
    const res = await svc.server.inject({ url: '/@alice', headers: { accept } })
    t.match(res.headers['content-type'], /^text\/html/, `${accept}: the page`)
    t.match(res.headers.vary, /accept/i)
  }
  const browser = await svc.server.inject({ url: `/ap/users/${alice.id}`, headers: { accept: 'text/html' } })
  t.equal(browser.statusCode, 303, 'a browser at the actor address is sent to the page')
  t.equal(browser.headers.location, `${SITE}/@alice`)
})

t.test('a deleted account leaves a Tombstone at its actor address; a suspended one is not found', async (t) => {
  const svc = await makeInstance(t, { public_url: SITE })
  const [dave, carol] = await svc.people('dave', 'carol')
  await svc.domain.users.moderation.deleteUser(dave.user.id)
  await svc.domain.users.moderation.suspend(carol.user.id)
  const gone = await svc.server.inject({ url: `/ap/users/${dave.user.id}`, headers: AS })
  t.equal(gone.statusCode, 410)
  t.match(JSON.parse(gone.payload), { type: 'Tombstone', id: `${SITE}/ap/users/${dave.user.id}` })
  t.equal((await svc.server.inject({ url: `/ap/users/${carol.user.id}`, headers: AS })).statusCode, 404)
  t.equal((await svc.server.inject({ url: '/ap/users/999', headers: AS })).statusCode, 404)
  t.equal((await svc.server.inject({ url: '/ap/users/alice', headers: AS })).statusCode, 404)
})
