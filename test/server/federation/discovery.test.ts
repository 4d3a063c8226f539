/**
 * How other servers find people here: WebFinger by handle and by address,
 * host-meta, NodeInfo; and what all of it answers when the instance does
 * not federate.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { ROOT } from '../../project-root.js'
import { makeDomainInstance, makeInstance } from '../../fixtures/instance.js'

const SITE = 'https://svc.example'

t.test('WebFinger finds alice by her handle, with her actor and her profile page', async (t) => {
  const svc = await makeInstance(t, { public_url: SITE })
  const { user: alice } = await svc.person('alice')
  const res = await svc.server.inject('/.well-known/webfinger?resource=acct:alice@svc.example')
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^application\/jrd\+json/)
  const jrd = JSON.parse(res.payload)
  t.equal(jrd.subject, 'acct:alice@svc.example')
  t.same(
    jrd.links.find((l: { rel: string }) => l.rel === 'self'),
    { rel: 'self', href: `${SITE}/ap/users/${alice.id}`, type: 'application/activity+json' },
  )
  t.equal(jrd.links.find((l: { rel: string }) => l.rel === 'http://webfinger.net/rel/profile-page').href, `${SITE}/@alice`)
  const upper = JSON.parse((await svc.server.inject('/.well-known/webfinger?resource=acct:ALICE@SVC.example')).payload)
  t.equal(upper.links[0].href, `${SITE}/ap/users/${alice.id}`, 'handles are not case-sensitive')
})

t.test('WebFinger finds alice by her actor address and by her profile page, answering her handle as an alias', async (t) => {
  const svc = await makeInstance(t, { public_url: SITE })
  const { user: alice } = await svc.person('alice')
  for (const resource of [`${SITE}/ap/users/${alice.id}`, `${SITE}/@alice`]) {
    const res = await svc.server.inject(`/.well-known/webfinger?resource=${encodeURIComponent(resource)}`)
    t.equal(res.statusCode, 200, resource)
    const jrd = JSON.parse(res.payload)
    t.equal(jrd.subject, resource)
    t.ok(jrd.aliases.includes('acct:alice@svc.example'), `${resource}: the handle is an alias`)
    t.equal(jrd.links.find((l: { rel: string }) => l.rel === 'self').href, `${SITE}/ap/users/${alice.id}`)
  }
})

t.test('the handle carries the port of public_url when it has one', async (t) => {
  const svc = await makeInstance(t, { public_url: 'http://127.0.0.1:8081' })
  await svc.person('alice')
  const res = await svc.server.inject('/.well-known/webfinger?resource=acct:alice@127.0.0.1:8081')
  t.equal(res.statusCode, 200)
  t.equal(JSON.parse(res.payload).subject, 'acct:alice@127.0.0.1:8081')
  t.equal((await svc.server.inject('/.well-known/webfinger?resource=acct:alice@127.0.0.1')).statusCode, 404, 'without the port it is another host')
})

t.test('WebFinger answers a 404 for nobody, a deleted or suspended account, and other hosts', async (t) => {
  const svc = await makeInstance(t, { public_url: SITE })
  const { user: carol } = await svc.person('carol')
  const { user: dave } = await svc.person('dave')
  await svc.person('alice')
  await svc.domain.users.moderation.suspend(carol.id)
  await svc.domain.users.moderation.deleteUser(dave.id)
  for (const resource of [
    'acct:nobody@svc.example',
    'acct:carol@svc.example',
    'acct:dave@svc.example',
    'acct:alice@elsewhere.example',
    'https://elsewhere.example/@alice',
    `${SITE}/@nobody`,
  ]) {
    const res = await svc.server.inject(`/.well-known/webfinger?resource=${encodeURIComponent(resource)}`)
    t.equal(res.statusCode, 404, resource)
    t.equal(JSON.parse(res.payload).meta.code, 404, `${resource}: the envelope's 404`)
  }
  t.equal((await svc.server.inject('/.well-known/webfinger')).statusCode, 400, 'no resource is a 400')
})

t.test('host-meta points at WebFinger', async (t) => {
  const svc = await makeInstance(t, { public_url: SITE })
  const res = await svc.server.inject('/.well-known/host-meta')
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^application\/xrd\+xml/)
  t.match(res.payload, `template="${SITE}/.well-known/webfinger?resource={uri}"`)
})

t.test('NodeInfo names svc and its version, and counts live local users and their posts', async (t) => {
  const svc = await makeInstance(t, { public_url: SITE, open_registration: false })
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  for (const [who, text] of [
    [alice, 'one'],
    [alice, 'two'],
    [bob, 'three'],
    [carol, 'hidden with carol'],
  ] as const) {
    await svc.call('POST', '/posts', { token: who.token, payload: { text } })
  }
  const gone = await svc.call('POST', '/posts', { token: bob.token, payload: { text: 'deleted' } })
  await svc.call('DELETE', `/posts/${gone.body.data.id}`, { token: bob.token })
  await svc.domain.users.moderation.suspend(carol.user.id)

  const links = JSON.parse((await svc.server.inject('/.well-known/nodeinfo')).payload)
  t.match(links.links, [{ rel: 'http://nodeinfo.diaspora.software/ns/schema/2.1', href: `${SITE}/nodeinfo/2.1` }])
  const res = await svc.server.inject('/nodeinfo/2.1')
  t.equal(res.statusCode, 200)
  const info = JSON.parse(res.payload)
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
  t.match(info, {
    version: '2.1',
    software: { name: 'svc', version },
    protocols: ['activitypub'],
    openRegistrations: false,
    usage: { users: { total: 2 }, localPosts: 3, localComments: 0 },
  })
})

t.test('without public_url nothing federates, and every federation address says why in the envelope', async (t) => {
  const svc = await makeInstance(t)
  const { user: alice } = await svc.person('alice')
  t.equal(svc.domain.federation.site, null)
  for (const [method, url] of [
    ['GET', '/.well-known/webfinger?resource=acct:alice@localhost'],
    ['GET', '/.well-known/nodeinfo'],
    ['GET', '/nodeinfo/2.1'],
    ['GET', '/.well-known/host-meta'],
    ['GET', `/ap/users/${alice.id}`],
    ['POST', '/ap/inbox'],
  ]) {
    const res = await svc.server.inject({ method, url, headers: { accept: 'application/activity+json' }, payload: method === 'POST' ? '{}' : undefined })
    t.equal(res.statusCode, 404, url)
    const body = JSON.parse(res.payload)
    t.equal(body.meta.code, 404)
    t.match(body.meta.error_message, /federation is off: it needs public_url/, `${url} says why`)
  }
  const page = await svc.server.inject({ url: '/@alice', headers: { accept: 'application/activity+json' } })
  t.equal(page.statusCode, 200, 'the profile page has no actor to offer: it is the page, whatever was asked')
  t.match(page.headers['content-type'], /^text\/html/)
})

t.test('federation.enabled false turns it off with a public_url, and a public_url with a path cannot federate', async (t) => {
  const off = await makeInstance(t, { public_url: SITE, federation: { enabled: false } })
  t.match(off.domain.federation.off, /federation\.enabled is false/)
  t.equal((await off.server.inject('/.well-known/nodeinfo')).statusCode, 404)
  const sub = await makeDomainInstance(t, { public_url: `${SITE}/svc` })
  t.match(sub.domain.federation.off, /without a path/)
})
