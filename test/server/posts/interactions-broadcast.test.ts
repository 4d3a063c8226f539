import t from 'tap'
import { isoNow } from '../../../data/index.js'
import { makeInstance } from '../../fixtures/instance.js'
import { writePost, writeRelation, writeStar } from '../../fixtures/post-rows.js'

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000)

/**
 * alice has a post starred by bob two hours ago and a follower (carol) since
 * an hour ago; now she makes a broadcast channel, bob subscribes, carol
 * subscribes and leaves again.
 */
const story = async (t: Parameters<typeof makeInstance>[0]) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = [await svc.person('alice'), await svc.person('bob'), await svc.person('carol')]
  const [starredAt, followedAt] = [hoursAgo(2), hoursAgo(1)]
  const hello = await writePost(svc, alice.user, { created_at: isoNow(hoursAgo(3)) })
  await writeStar(svc, bob.user, hello, starredAt)
  await writeRelation(svc, 'follows', carol.user, alice.user, followedAt)
  const ok = async (method: string, url: string, token: string, payload?: unknown) => {
    const res = await svc.call(method, url, { token, payload })
    if (res.status !== 200) throw new Error(`${method} ${url}: ${JSON.stringify(res.body)}`)
    return res.body.data
  }
  const news = await ok('POST', '/channels', alice.token, { type: 'svc.core.broadcast', readers: { public: true } })
  await ok('POST', `/channels/${news.id}/subscribe`, bob.token)
  await ok('POST', `/channels/${news.id}/subscribe`, carol.token)
  await ok('DELETE', `/channels/${news.id}/subscribe`, carol.token)
  return { svc, alice, bob, carol, hello, news, ok, starredAt, followedAt }
}

const actions = (body: { data: { action: string }[] }) => body.data.map((i) => i.action)

t.test(
  "alice's broadcast channel shows as broadcast_create, broadcast_subscribe and broadcast_unsubscribe interactions, newest first among the others",
  async (t) => {
    const { svc, alice, bob, carol, hello, news, ok, starredAt, followedAt } = await story(t)
    const res = await svc.call('GET', '/stream/0/users/me/interactions', { token: alice.token })
    t.equal(res.status, 200)
    t.equal(res.body.meta.more, false)
    const r = svc.store.read
    const channel = (await r.channels.get(Number(news.id)))!
    const bobSubscribed = (await r.subscriptions.one('pair', `${news.id}:${bob.user.id}`))!.created_at
    const carolLeft = (await r.broadcast_unsubscriptions.one('pair', `${news.id}:${carol.user.id}`))!.unsubscribed_at
    const [newsJson, helloJson] = [await ok('GET', `/channels/${news.id}`, alice.token), await ok('GET', `/posts/${hello.id}`, alice.token)]
    const [aliceJson, bobJson, carolJson] = [
      await ok('GET', '/users/@alice', alice.token),
      await ok('GET', '/users/@bob', alice.token),
      await ok('GET', '/users/@carol', alice.token),
    ]
    t.equal(newsJson.counts.subscribers, 2, 'alice and bob; carol left')
    t.same(
      res.body.data.map(({ pagination_id: _, ...rest }: { pagination_id: string }) => rest),
      [
        { action: 'broadcast_unsubscribe', event_date: carolLeft, objects: [newsJson], users: [carolJson] },
        { action: 'broadcast_subscribe', event_date: bobSubscribed, objects: [newsJson], users: [bobJson] },
        { action: 'broadcast_create', event_date: channel.created_at, objects: [newsJson], users: [aliceJson] },
        { action: 'follow', event_date: isoNow(followedAt), objects: [aliceJson], users: [carolJson] },
        { action: 'star', event_date: isoNow(starredAt), objects: [helloJson], users: [bobJson] },
      ],
    )
    const ids = res.body.data.map((i: { pagination_id: string }) => i.pagination_id)
    for (const id of ids) t.match(id, /^\d+$/)
    t.same(
      ids,
      [...ids].sort((a: string, b: string) => Number(b) - Number(a)),
      'pagination ids fall down the list',
    )
    t.equal(new Set(ids).size, 5)
    t.same((await svc.call('GET', '/users/me/interactions', { token: bob.token })).body.data, [], "a subscriber hears nothing of the owner's channel")
  },
)

t.test('interaction_actions picks broadcast actions alone or with others', async (t) => {
  const { svc, alice } = await story(t)
  const get = (actionList: string) => svc.call('GET', `/users/me/interactions?interaction_actions=${actionList}`, { token: alice.token })
  t.same(actions((await get('broadcast_subscribe,broadcast_unsubscribe')).body), ['broadcast_unsubscribe', 'broadcast_subscribe'])
  t.same(actions((await get('star,broadcast_create')).body), ['broadcast_create', 'star'])
  t.same(actions((await get('welcome')).body), [], 'welcome is accepted and never produced')
  const bad = await get('broadcast_delete')
  t.equal(bad.status, 400)
  t.match(bad.body.meta.error_message, /^Bad Request: .*broadcast_delete/)
})

t.test('pages of two follow meta.min_id through broadcast and other interactions', async (t) => {
  const { svc, alice } = await story(t)
  const seen: string[][] = []
  const more: (boolean | undefined)[] = []
  let url = '/users/me/interactions?count=2'
  for (;;) {
    const res = await svc.call('GET', url, { token: alice.token })
    seen.push(actions(res.body))
    more.push(res.body.meta.more)
    if (!res.body.meta.more) break
    url = `/users/me/interactions?count=2&before_id=${res.body.meta.min_id}`
  }
  t.same(seen, [['broadcast_unsubscribe', 'broadcast_subscribe'], ['broadcast_create', 'follow'], ['star']])
  t.same(more, [true, true, false])
})

t.test('a deactivated broadcast channel leaves no interaction, and a muted subscriber none either', async (t) => {
  const { svc, alice, bob, carol, news, ok } = await story(t)
  await ok('POST', `/users/${carol.user.id}/mute`, alice.token)
  t.same(actions((await svc.call('GET', '/users/me/interactions', { token: alice.token })).body), ['broadcast_subscribe', 'broadcast_create', 'star'])
  await ok('POST', `/channels/${news.id}/mute`, bob.token)
  const afterMute = (await svc.call('GET', '/users/me/interactions?interaction_actions=broadcast_unsubscribe', { token: alice.token })).body.data
  t.same(
    afterMute.map((i: { users: { username: string }[] }) => i.users.map((u) => u.username)),
    [['bob']],
    'muting the channel is leaving it',
  )
  await ok('DELETE', `/channels/${news.id}`, alice.token)
  t.same(actions((await svc.call('GET', '/users/me/interactions', { token: alice.token })).body), ['star'])
})
