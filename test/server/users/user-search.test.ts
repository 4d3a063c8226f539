import t from 'tap'
import { isoNow } from '../../../data/index.js'
import { makeInstance, type Instance } from '../../fixtures/instance.js'

const names = (res: { body: { data: { username: string }[] } }) => res.body.data.map((u) => u.username)

/** ali and alice, bob who calls himself Ali Baba, carol who writes about alice and coffee, dave. */
const story = async (t: Parameters<typeof makeInstance>[0]) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const ali = await svc.person('ali')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const dave = await svc.person('dave')
  await svc.domain.users.profiles.update(await svc.viewerOf(bob), { name: 'Ali Baba' })
  await svc.domain.users.profiles.update(await svc.viewerOf(carol), { description: { text: 'Friends with @alice, loves #Coffee' } })
  return { svc, alice, ali, bob, carol, dave }
}
const search = (svc: Instance, query: string, token: string) => svc.call('GET', `/stream/0/users/search?${query}`, { token })

t.test('an exact username comes first, then username prefixes, then names and descriptions', async (t) => {
  const { svc, dave } = await story(t)
  const res = await search(svc, 'q=ali', dave.token)
  t.equal(res.status, 200)
  t.same(names(res), ['ali', 'alice', 'carol', 'bob'], 'newest first among equal matches')
  t.ok(res.body.data.every((u: { pagination_id?: string }) => typeof u.pagination_id === 'string'))
  t.equal(res.body.meta.more, false)
})

t.test('@username looks at usernames and description mentions; plain words at names and descriptions', async (t) => {
  const { svc, dave } = await story(t)
  t.same(names(await search(svc, 'q=%40alice', dave.token)), ['alice', 'carol'])
  t.same(names(await search(svc, 'q=%40ALI', dave.token)), ['ali', 'alice'], 'case does not matter')
  t.same(names(await search(svc, 'q=baba', dave.token)), ['bob'])
  t.same(names(await search(svc, 'q=coffee', dave.token)), ['carol'])
  t.same(names(await search(svc, 'q=ali+baba', dave.token)), ['bob'], 'every term must match')
  t.same(names(await search(svc, 'q=nobody', dave.token)), [])
})

t.test('#tag matches description hashtags only', async (t) => {
  const { svc, dave } = await story(t)
  t.same(names(await search(svc, 'q=%23coffee', dave.token)), ['carol'])
  t.same(names(await search(svc, 'q=%23friends', dave.token)), [], 'a word of the description is not a hashtag')
})

t.test('count pages through the results with before_id', async (t) => {
  const { svc, dave } = await story(t)
  const first = await search(svc, 'q=ali&count=2', dave.token)
  t.same(names(first), ['ali', 'alice'])
  t.equal(first.body.meta.more, true)
  const next = await search(svc, `q=ali&count=2&before_id=${first.body.meta.min_id}`, dave.token)
  t.same(names(next), ['carol', 'bob'])
  t.equal(next.body.meta.more, false)
  const back = await search(svc, `q=ali&count=2&since_id=${next.body.meta.max_id}`, dave.token)
  t.same(names(back), ['ali', 'alice'])
})

t.test('users blocked either way are left out', async (t) => {
  const { svc, alice, carol, dave } = await story(t)
  await svc.call('POST', `/users/${dave.user.id}/block`, { token: alice.token })
  t.same(names(await search(svc, 'q=ali', dave.token)), ['ali', 'carol', 'bob'], 'alice blocked dave')
  t.same(names(await search(svc, 'q=dave', alice.token)), [], 'alice blocked dave')
  t.same(names(await search(svc, 'q=ali', carol.token)), ['ali', 'alice', 'carol', 'bob'], 'others still see alice')
})

t.test('q is required and must hold something to search for; count is an integer', async (t) => {
  const { svc, dave } = await story(t)
  for (const query of ['', 'q=', 'q=%20%20', 'q=%23', 'q=ali&count=2.5', 'q=ali&count=lots', 'q=ali&before_id=soon']) {
    const res = await search(svc, query, dave.token)
    t.equal(res.status, 400, query)
    t.match(res.body.meta.error_message, /^Bad Request: /)
  }
})

t.test('search needs a token of either kind and answers the user general parameters', async (t) => {
  const { svc } = await story(t)
  const none = await svc.call('GET', '/users/search?q=ali')
  t.equal(none.status, 401)
  const app = await search(svc, 'q=carol&include_html=0&include_user_annotations=1', svc.appToken)
  t.equal(app.status, 200)
  t.same(names(app), ['carol'])
  t.notOk('html' in app.body.data[0].description)
  t.same(app.body.data[0].annotations, [])
})

t.test('a search reaches users beyond the first scan chunk', async (t) => {
  const svc = await makeInstance(t)
  const viewer = await svc.person('viewer')
  const empty = { text: '', entities: { mentions: [], hashtags: [], links: [] } }
  await svc.store.transact((tx) => {
    for (let i = 0; i < 12_000; i++) {
      const username = i % 5000 === 4999 ? `needle${i}` : `hay${i}`
      tx.users.insert({
        username,
        username_key: username,
        name: '',
        type: 'human',
        locale: 'en_US',
        timezone: 'UTC',
        description: empty,
        annotations: [],
        created_at: isoNow(),
      })
    }
  })
  t.same(names(await search(svc, 'q=needle&count=200', viewer.token)), ['needle9999', 'needle4999'])
})
