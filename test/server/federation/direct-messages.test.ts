/**
 * Private messages across servers. bob's direct Note to alice arrives in a
 * pm channel of theirs and in no post stream, hers or anyone's; a
 * followers-only Note is no message. alice's pm to @bob@his-server, and her
 * answer in the channel, go to him as direct Notes addressed to him alone;
 * deleting one sends its Delete. A remote bot keeps App.net's bot rules.
 */
import t from 'tap'
import type { Channel, Message, Post } from '../../../server/api/index.js'
import { federatingInstance, followRemote, PUBLIC, SITE } from '../../fixtures/federating.js'
import type { RemoteActor } from '../../fixtures/remote-actor.js'
import { waitUntil } from '../../fixtures/wait.js'

async function setUp(t: Parameters<typeof federatingInstance>[0]) {
  const world = await federatingInstance(t)
  const { svc, remote } = world
  const [alice, dave] = await svc.people('alice', 'dave')
  const bob = await remote.actor('bob')
  const send = (activity: object, who: RemoteActor = bob) => world.send(activity, who)
  const aliceActor = `${SITE}/ap/users/${alice.user.id}`
  let n = 0
  const direct = (content: string, to: string[] = [aliceActor]) => {
    n++
    const object = {
      id: `${bob.id}/notes/${n}`,
      type: 'Note',
      attributedTo: bob.id,
      content,
      to,
      tag: to.filter((a) => a === aliceActor).map((href) => ({ type: 'Mention', href, name: '@alice@svc.example' })),
    }
    return { id: `${object.id}/activity`, type: 'Create', actor: bob.id, object, to }
  }
  const pmChannels = async (token: string) =>
    (await svc.call<Channel[]>('GET', '/channels?channel_types=svc.core.pm', { token })).body.data.filter((c) => c.type === 'svc.core.pm')
  const messages = async (channelId: string) =>
    (await svc.call<Message[]>('GET', `/channels/${channelId}/messages`, { token: alice.token })).body.data.map((m) => m.text)
  return { svc, remote, alice, dave, bob, send, direct, pmChannels, messages }
}

t.test("bob's direct Note reaches alice in a pm channel and in no post stream; a followers-only Note is no message", async (t) => {
  const { svc, alice, dave, bob, send, direct, pmChannels, messages } = await setUp(t)
  t.equal(await send(direct('<p>followers only</p>', [`${bob.id}/followers`])), 202)
  t.equal(await send(direct('<p><span class="h-card"><a href="https://svc.example/@alice" class="u-url mention">@alice</a></span> psst</p>')), 202)
  await waitUntil(async () => (await pmChannels(alice.token)).length > 0, 'her pm channel')
  const [channel] = await pmChannels(alice.token)
  t.match(channel, { owner: { username: bob.handle }, writers: { user_ids: [alice.user.id] } }, "a channel of bob's with alice")
  t.same(await messages(channel.id), ['@alice psst'], 'the message; the followers-only Note made none')
  await send(direct('<p>again</p>'))
  await waitUntil(async () => (await messages(channel.id)).length === 2, 'the second message')
  t.equal((await pmChannels(alice.token)).length, 1, 'in the same channel')
  const texts = async (path: string, token?: string) => (await svc.call<Post[]>('GET', path, { token })).body.data.map((p) => p.text)
  for (const [path, token] of [
    ['/posts/stream/unified', alice.token],
    ['/users/me/mentions', alice.token],
    ['/posts/stream/global', alice.token],
    ['/posts/stream/global', undefined],
    [`/users/@${bob.handle}/posts`, dave.token],
  ] as const)
    t.same(await texts(path, token), [], `nothing in ${path}${token === dave.token ? ' for dave' : ''}`)
  t.same(await pmChannels(dave.token), [], 'dave has no channel of it')
  t.equal(svc.store.stats().rows.posts, 0, 'no post was made')
})

t.test("alice's pm to bob and her answer go to him alone as direct Notes; a deletion as its Delete", async (t) => {
  const { svc, remote, alice, bob } = await setUp(t)
  const sent = await svc.call<Message>('POST', '/channels/pm/messages', { token: alice.token, payload: { text: 'hi bob', destinations: [`@${bob.handle}`] } })
  t.equal(sent.status, 200, JSON.stringify(sent.body.meta))
  const creates = () => remote.received.filter((r) => r.body.type === 'Create').map((r) => r)
  await waitUntil(() => creates().length > 0, 'the Create')
  const [create] = creates()
  t.equal(create.path, '/users/bob/inbox', "at bob's own inbox, not his server's shared one")
  const note = create.body.object as Record<string, unknown>
  t.match(note, { type: 'Note', attributedTo: `${SITE}/ap/users/${alice.user.id}`, to: bob.id, content: /hi bob/ })
  t.notOk(JSON.stringify(create.body).includes(PUBLIC) || JSON.stringify(create.body).includes('as:Public'), 'not public')
  t.notOk(JSON.stringify(create.body).includes('/followers'), 'not to her followers')
  t.equal(note.cc, undefined, 'nobody in copy')
  t.match(note.tag, { type: 'Mention', href: bob.id }, 'bob mentioned')
  const answer = await svc.call<Message>('POST', `/channels/${sent.body.data.channel_id}/messages`, { token: alice.token, payload: { text: 'still there?' } })
  await waitUntil(() => creates().length > 1, 'the second Create')
  t.match(creates()[1].body.object, { to: bob.id, content: /still there\?/ })
  await svc.call('DELETE', `/channels/${sent.body.data.channel_id}/messages/${answer.body.data.id}`, { token: alice.token })
  await waitUntil(() => remote.received.some((r) => r.body.type === 'Delete'), 'the Delete')
  const del = remote.received.find((r) => r.body.type === 'Delete')!
  t.match(del.body, { object: { id: (creates()[1].body.object as { id: string }).id }, to: bob.id })
  const fetched = await svc.server.inject({ method: 'GET', url: new URL(note.id as string).pathname, headers: { accept: 'application/activity+json' } })
  t.equal(fetched.statusCode, 404, 'the Note of a message is served to nobody')
})

t.test(
  'a remote bot keeps the App.net bot rules: its direct Note starts no conversation with alice until she follows it, and its mention of her links nothing',
  async (t) => {
    const world = await federatingInstance(t)
    const { svc, remote } = world
    const alice = await svc.person('alice')
    const robo = await remote.actor('robo', { type: 'Service' })
    const aliceActor = `${SITE}/ap/users/${alice.user.id}`
    const mention = [{ type: 'Mention', href: aliceActor, name: '@alice@svc.example' }]
    const create = (n: number, to: string[]) => {
      const object = { id: `${robo.id}/notes/${n}`, type: 'Note', attributedTo: robo.id, content: `<p>@alice beep ${n}</p>`, to, tag: mention }
      return { id: `${object.id}/activity`, type: 'Create', actor: robo.id, object, to }
    }
    const pmChannels = async () => (await svc.call<Channel[]>('GET', '/channels?channel_types=svc.core.pm', { token: alice.token })).body.data
    t.equal(await world.send(create(1, [aliceActor]), robo), 202)
    t.equal(await world.send(create(2, [PUBLIC]), robo), 202)
    await waitUntil(() => svc.store.stats().rows.federation_queue === 0, 'both handled')
    t.same(await pmChannels(), [], 'no conversation with someone who does not follow it')
    const posts = (await svc.call<Post[]>('GET', `/users/@${robo.handle}/posts`, { token: alice.token })).body.data
    t.match(posts, [{ text: '@alice beep 2', entities: { mentions: [] } }], 'its public Note kept, the mention of alice not linked')
    t.same((await svc.call<Post[]>('GET', '/users/me/mentions', { token: alice.token })).body.data, [], 'nothing in her mentions')
    await followRemote(world, alice, robo)
    t.equal(await world.send(create(3, [aliceActor]), robo), 202)
    await waitUntil(async () => (await pmChannels()).length > 0, 'a conversation, now that she follows it')
  },
)
