/**
 * The operator's blocks of other servers. Blocking bob's server hides him
 * at once (his post leaves alice's streams, his profile is gone), refuses
 * what his server sends with a 403, and sends it nothing; unblocking brings
 * him back and deliveries resume. Silencing carol's server keeps her posts
 * out of the global and hashtag streams of those who do not follow her.
 * An admin suspends a remote account as a local one. With an allow-list,
 * every server it does not cover is refused as if blocked.
 */
import t from 'tap'
import type { Post } from '../../../server/api/index.js'
import { watchTopics } from '../../../data/admin/watch-topics.js'
import { blockDomainOf, covers } from '../../../data/federation/domain-blocks.js'
import { AS, federatingInstance, followRemote, PUBLIC, SITE } from '../../fixtures/federating.js'
import { makeInstance } from '../../fixtures/instance.js'
import { injectionOf, remoteServer, type RemoteActor } from '../../fixtures/remote-actor.js'
import { waitUntil } from '../../fixtures/wait.js'

t.test('a block names a domain, which covers its subdomains, or one host:port', async (t) => {
  t.equal(blockDomainOf(' Bad.Example. '), 'bad.example')
  t.equal(blockDomainOf('bad.example:8443'), 'bad.example:8443')
  t.equal(blockDomainOf('xn--bcher-kva.example'), 'xn--bcher-kva.example')
  t.equal(blockDomainOf('bücher.example'), 'xn--bcher-kva.example', 'an IDN as its ASCII form')
  for (const bad of ['', 'https://bad.example/', 'bad example', 'user@bad.example', 'bad.example/path'])
    t.throws(() => blockDomainOf(bad), { code: 'invalid' }, JSON.stringify(bad))
  t.ok(covers('bad.example', 'bad.example') && covers('bad.example', 'social.bad.example:8443'), 'the domain, its subdomains, any port')
  t.notOk(covers('bad.example', 'notbad.example') || covers('bad.example', 'bad.example.org'), 'not a name that only ends alike')
  t.ok(covers('bad.example:8443', 'bad.example:8443') && !covers('bad.example:8443', 'bad.example:443'), 'host:port: that server only')
})

/** alice and bob (on a remote server) follow each other, and bob's first post is in her unified stream. */
async function friends(t: Parameters<typeof federatingInstance>[0]) {
  const world = await federatingInstance(t)
  const { svc, remote } = world
  const alice = await svc.person('alice')
  const bob = await remote.actor('bob')
  const send = (activity: object, who: RemoteActor = bob) => world.send(activity, who)
  const note = (n: number) => {
    const object = { id: `${bob.id}/notes/${n}`, type: 'Note', attributedTo: bob.id, content: `<p>bob ${n}</p>`, to: PUBLIC }
    return { id: `${object.id}/activity`, type: 'Create', actor: bob.id, object, to: PUBLIC }
  }
  await followRemote(world, alice, bob)
  await send({ id: `${bob.id}/follows/1`, type: 'Follow', actor: bob.id, object: `${SITE}/ap/users/${alice.user.id}` })
  await send(note(1))
  const unified = async () => (await svc.call<Post[]>('GET', '/posts/stream/unified', { token: alice.token })).body.data.map((p) => p.text)
  await waitUntil(async () => (await unified()).includes('bob 1'), "bob's post")
  return { svc, remote, alice, bob, send, note, unified }
}

t.test("blocking bob's server hides him, refuses what it sends and sends it nothing, at once; unblocking brings him back", async (t) => {
  const { svc, remote, alice, bob, send, note, unified } = await friends(t)

  const { block, accounts } = await svc.domain.federation.blocks.block(remote.authority)
  t.same([block.domain, block.silence, accounts], [remote.authority, false, 1], 'the block suspends bob, the one account known there')
  t.notOk((await unified()).includes('bob 1'), "bob's post is gone from alice's stream")
  t.equal((await svc.call('GET', `/users/@${bob.handle}`, { token: alice.token })).status, 404, 'his profile is gone')
  t.equal(await send(note(2)), 403, 'what his server sends is refused')
  const before = remote.received.length
  await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'while blocked' } })
  // The outbox goes in order: once her next post, to dave on another server, is out, the one before it was handled under the block.
  const elsewhere = await remoteServer(t)
  const dave = await elsewhere.actor('dave')
  await svc.call('POST', '/posts', { token: alice.token, payload: { text: `@${dave.handle} hello` } })
  await waitUntil(() => elsewhere.received.some((r) => (r.body.object as { content?: string })?.content?.includes('hello')), 'her post to dave')
  t.same(
    svc.domain.federation.blocks.list().map((b) => b.domain),
    [remote.authority],
    'listed',
  )
  const picture = await watchTopics.federation.picture(svc.domain)
  t.match(picture.status, /^federating as svc\.example; outbox at event \d+ of \d+$/)
  t.match(
    picture.hosts,
    [
      { host: elsewhere.authority, accounts: 1, block: '-', delivered: Number },
      { host: remote.authority, accounts: 1, block: 'suspended', delivered: Number },
    ].sort((a, b) => a.host.localeCompare(b.host)),
    "the console's Federation tab shows bob's server blocked, dave's not",
  )

  const lifted = await svc.domain.federation.blocks.unblock(remote.authority)
  t.equal(lifted.accounts, 1, 'unblocking restores bob')
  t.ok((await unified()).includes('bob 1'), "his post is back in alice's stream")
  t.notOk((await unified()).includes('bob 2'), 'what was refused stays refused')
  await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'after the block' } })
  await waitUntil(() => remote.received.some((r) => (r.body.object as { content?: string })?.content?.includes('after the block')), 'the post after')
  t.notOk(
    remote.received.slice(before).some((r) => (r.body.object as { content?: string })?.content?.includes('while blocked')),
    'the post made while blocked was never sent there',
  )
  await t.rejects(svc.domain.federation.blocks.unblock(remote.authority), { code: 'not_found' }, 'unblocking twice')
})

t.test("silencing carol's server keeps her posts out of public streams for those who do not follow her", async (t) => {
  const world = await federatingInstance(t)
  const { svc, remote } = world
  const [alice, dave] = await svc.people('alice', 'dave')
  const carol = await remote.actor('carol')
  const send = (activity: object, who: RemoteActor = carol) => world.send(activity, who)
  await followRemote(world, alice, carol)
  const { block } = await svc.domain.federation.blocks.block(remote.authority, { silence: true })
  t.equal(block.silence, true)
  const object = {
    id: `${carol.id}/notes/1`,
    type: 'Note',
    attributedTo: carol.id,
    content: '<p>quiet <a href="https://tags.example/tags/tea" class="mention hashtag" rel="tag">#<span>tea</span></a></p>',
    tag: [{ type: 'Hashtag', href: 'https://tags.example/tags/tea', name: '#tea' }],
    to: PUBLIC,
  }
  t.equal(await send({ id: `${object.id}/activity`, type: 'Create', actor: carol.id, object, to: PUBLIC }), 202, 'a silenced server is not refused')
  const global = async (token: string) => (await svc.call<Post[]>('GET', '/posts/stream/global', { token })).body.data.map((p) => p.text)
  const tagged = async (token: string) => (await svc.call<Post[]>('GET', '/posts/tag/tea', { token })).body.data.map((p) => p.text)
  await waitUntil(async () => (await global(alice.token)).includes('quiet #tea'), 'her post, for alice who follows her')
  t.ok((await tagged(alice.token)).includes('quiet #tea'), "in alice's hashtag stream")
  t.notOk((await global(dave.token)).includes('quiet #tea'), "not in dave's global stream")
  t.notOk((await tagged(dave.token)).includes('quiet #tea'), 'nor in his hashtag stream')
  await svc.domain.federation.blocks.unblock(remote.authority)
  t.ok((await global(dave.token)).includes('quiet #tea'), 'unsilenced, dave sees it')
})

t.test('an admin suspends remote bob as a local account: his posts leave the streams, what he sends makes nothing, nothing goes to him', async (t) => {
  const { svc, remote, alice, bob, send, note, unified } = await friends(t)
  const bobUser = (await svc.store.read.users.one('actor', bob.id))!
  await svc.domain.users.moderation.suspend(bobUser.id)
  t.notOk((await unified()).includes('bob 1'), 'his post is gone from her stream')
  t.equal((await svc.call('GET', `/users/@${bob.handle}`, { token: alice.token })).status, 404, 'his profile is gone')
  await send(note(2))
  await waitUntil(() => svc.store.stats().rows.federation_queue === 0, 'his Create handled')
  const sent = remote.received.length
  await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'while he is suspended' } })
  // The outbox goes in order: once her next post, to carol, is out, the one before it was handled with bob suspended.
  const carol = await remote.actor('carol')
  await svc.call('POST', '/posts', { token: alice.token, payload: { text: `@${carol.handle} hello` } })
  await waitUntil(() => remote.received.some((r) => (r.body.object as { content?: string })?.content?.includes('hello')), 'her post to carol')
  await svc.domain.users.moderation.unsuspend(bobUser.id)
  t.ok((await unified()).includes('bob 1'), 'restored, his post is back')
  t.notOk((await unified()).includes('bob 2'), 'what he sent while suspended made nothing')
  await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'after' } })
  await waitUntil(() => remote.received.some((r) => (r.body.object as { content?: string })?.content?.includes('after')), 'the post after')
  t.notOk(
    remote.received.slice(sent).some((r) => (r.body.object as { content?: string })?.content?.includes('while he is suspended')),
    'nothing was sent to him while suspended',
  )
})

t.test('with an allow-list, svc federates only with the servers it covers: any other is refused, looked up by nobody, sent nothing', async (t) => {
  const svc = await makeInstance(t, { public_url: SITE, federation: { allow_private_addresses: true, allowed_domains: ['friends.example'] } })
  const alice = await svc.person('alice')
  const remote = await remoteServer(t)
  const bob = await remote.actor('bob')
  const follow = { '@context': AS, id: `${bob.id}/follows/1`, type: 'Follow', actor: bob.id, object: `${SITE}/ap/users/${alice.user.id}` }
  t.equal((await svc.server.inject(await injectionOf(await bob.signedPost(`${SITE}/ap/inbox`, follow)))).statusCode, 403, 'his Follow is refused')
  t.equal((await svc.call('GET', `/users/@${bob.handle}`, { token: alice.token })).status, 404, 'he is not looked up')
  t.same(remote.fetched, [], 'nothing was fetched from his server')
  t.match((await watchTopics.federation.picture(svc.domain)).hosts, [], 'no server known')
  t.equal(svc.domain.federation.blocks.leavesOut('social.friends.example:8443'), false, 'a subdomain of an allowed one is allowed')
  await t.rejects(
    makeInstance(t, { public_url: SITE, federation: { allowed_domains: ['https://friends.example/'] } }),
    /allowed_domains/,
    'an allow-list entry that is not a domain is refused at start',
  )
})
