/**
 * Remote accounts as App.net users: alice finds bob of another server by
 * his handle, the first time through WebFinger and his actor document, and
 * sees him as a user like any other, his profile's html sanitised; an
 * unknown or unreachable handle, or one on a private address while those
 * are refused, is the envelope's 404; a remote account never signs in,
 * holds no token and is no local user for NodeInfo.
 */
import t from 'tap'
import type { User } from '../../../server/api/index.js'
import { makeInstance } from '../../fixtures/instance.js'
import { remoteServer } from '../../fixtures/remote-actor.js'

const SITE = 'https://svc.example'

const federating = (t: Parameters<typeof makeInstance>[0], allowPrivate = true) =>
  makeInstance(t, { public_url: SITE, federation: { allow_private_addresses: allowPrivate } })

const PROFILE = {
  // As Mastodon writes it: PropertyValue and value are schema.org's.
  '@context': [
    'https://www.w3.org/ns/activitystreams',
    'https://w3id.org/security/v1',
    { schema: 'http://schema.org#', PropertyValue: 'schema:PropertyValue', value: 'schema:value' },
  ],
  type: 'Service',
  name: 'Bob <b>the</b> bot',
  summary:
    '<p onclick="steal()">I post <a href="https://bob.example/x" class="mention">links</a><script>alert(1)</script></p><p>and &amp; more</p><img src="x" onerror="y">',
  icon: { type: 'Image', url: 'https://cdn.example/bob.png', mediaType: 'image/png' },
  image: { type: 'Image', url: 'https://cdn.example/bob-cover.png' },
  published: '2020-01-02T03:04:05Z',
  attachment: [
    { type: 'PropertyValue', name: 'Web<b>site</b>', value: '<a href="https://bob.example" rel="me">bob.example</a><script>x</script>' },
    { type: 'PropertyValue', name: 'Pronouns', value: 'it/its' },
  ],
}

t.test('alice finds @bob@SERVER by handle: a user row made from his actor, sanitised, found again from the store', async (t) => {
  const svc = await federating(t)
  const { token } = await svc.person('alice')
  const remote = await remoteServer(t)
  const bob = await remote.actor('bob', { ...PROFILE, url: `${remote.origin}/@bob` })

  const res = await svc.call<User>('GET', `/users/@${bob.handle}`, { token })
  t.equal(res.status, 200, JSON.stringify(res.body))
  const user = res.body.data
  t.match(user, {
    id: /^\d+$/,
    username: bob.handle,
    name: 'Bob the bot',
    type: 'bot',
    canonical_url: `${remote.origin}/@bob`,
    // Never his server's address: svc's copy once it has one (remote-images.test.ts), the default until then (cdn.example is not reachable).
    avatar_image: { url: `${SITE}/images/default-avatar.png`, is_default: true },
    cover_image: { url: `${SITE}/images/default-cover.png`, is_default: true },
    description: { text: 'I post links\n\nand & more\n\nWebsite: bob.example\n\nPronouns: it/its' },
    you_follow: false,
  })
  const html = user.description.html ?? ''
  t.notMatch(html, /script|onclick|onerror|<img/, 'no script, event attribute or image')
  t.match(html, '<a href="https://bob.example/x" class="mention" rel="nofollow noopener" target="_blank">links</a>')
  t.match(html, /<p>Website: <a href="https:\/\/bob\.example"[^>]*>bob\.example<\/a><\/p><p>Pronouns: it\/its<\/p>$/, 'his profile fields after the bio')

  const row = await svc.store.read.users.get(Number(user.id))
  t.match(row?.remote, { actor_id: bob.id, inbox: `${bob.id}/inbox`, shared_inbox: `${remote.origin}/inbox`, followers: `${bob.id}/followers` })
  t.notOk(row?.password_hash, 'no password')

  // Found again without asking his server: by handle, by id, in any case.
  const fetches = remote.fetched.length
  t.equal((await svc.call<User>('GET', `/users/@${bob.handle.toUpperCase()}`, { token })).body.data.id, user.id)
  t.equal((await svc.call<User>('GET', `/users/${user.id}`)).body.data.username, bob.handle, 'anyone reads him by id')
  t.equal(remote.fetched.length, fetches, 'his server was not asked again')
})

t.test('user search given a whole handle finds the remote account', async (t) => {
  const svc = await federating(t)
  const { token } = await svc.person('alice')
  const remote = await remoteServer(t)
  const carol = await remote.actor('carol', { name: 'Carol' })
  const res = await svc.call<User[]>('GET', `/users/search?q=${encodeURIComponent(`@${carol.handle}`)}`, { token })
  t.equal(res.status, 200)
  t.same(
    res.body.data.map((u) => u.username),
    [carol.handle],
  )
})

t.test('unknown, unreachable and private handles are the envelope 404, never a 5xx', async (t) => {
  const svc = await federating(t)
  const { token } = await svc.person('alice')
  const remote = await remoteServer(t)
  await remote.actor('bob')
  for (const handle of [`nobody@${remote.authority}`, 'bob@127.0.0.1:1', `bob@svc.example`, 'bob@no-such-host.invalid']) {
    const res = await svc.call('GET', `/users/@${handle}`, { token })
    t.equal(res.status, 404, handle)
    t.match(res.body.meta, { code: 404, error_message: /not found/ }, handle)
  }
  const closed = await federating(t, false)
  const { token: other } = await closed.person('alice')
  const refused = await closed.call('GET', `/users/@bob@${remote.authority}`, { token: other })
  t.equal(refused.status, 404, 'a loopback server while private addresses are refused')
  t.equal((await closed.store.read.users.one('username', `bob@${remote.authority}`)) ?? null, null)
})

t.test('a document that is no actor, or an actor without an inbox, makes no user', async (t) => {
  const svc = await federating(t)
  const { token } = await svc.person('alice')
  const remote = await remoteServer(t)
  await remote.actor('note', { type: 'Note', content: 'not an actor' })
  await remote.actor('noinbox', { inbox: null })
  await remote.actor('bad', { preferredUsername: 'bad name<script>' })
  for (const name of ['note', 'noinbox', 'bad']) {
    const res = await svc.call('GET', `/users/@${name}@${remote.authority}`, { token })
    t.equal(res.status, 404, name)
  }
})

t.test('a remote account cannot sign in, holds no token, and NodeInfo counts local users only', async (t) => {
  const svc = await federating(t)
  const { token } = await svc.person('alice')
  const bob = await (await remoteServer(t)).actor('bob')
  const found = await svc.call<User>('GET', `/users/@${bob.handle}`, { token })
  t.equal(found.status, 200)
  t.equal(await svc.domain.users.accounts.checkPassword(bob.handle, ''), null)
  const row = (await svc.store.read.users.get(Number(found.body.data.id)))!
  await t.rejects(svc.domain.auth.tokens.issueUserToken(svc.app, row, ['basic']), { code: 'invalid' })
  const nodeinfo = JSON.parse((await svc.server.inject({ method: 'GET', url: '/nodeinfo/2.1' })).payload)
  t.equal(nodeinfo.usage.users.total, 1, 'alice only')
  const actor = await svc.server.inject({ method: 'GET', url: `/ap/users/${row.id}`, headers: { accept: 'application/activity+json' } })
  t.equal(actor.statusCode, 404, 'no local actor for a remote account')
  const webfinger = await svc.server.inject({ method: 'GET', url: `/.well-known/webfinger?resource=${encodeURIComponent(`acct:${bob.handle}@svc.example`)}` })
  t.equal(webfinger.statusCode, 404)
})
