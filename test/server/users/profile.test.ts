import t from 'tap'
import type { DomainEvent, UserRow } from '../../../data/index.js'
import { makeInstance } from '../../fixtures/instance.js'

const full = { name: 'Alice A.', locale: 'en_GB', timezone: 'Europe/London', description: { text: 'hello' } }

t.test('GET /users/me answers the token user, and needs a user token', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice', { scopes: ['basic'] })
  const me = await svc.call('GET', '/stream/0/users/me', { token: alice.token })
  t.equal(me.status, 200)
  t.equal(me.body.data.username, 'alice')
  t.notOk('you_follow' in me.body.data, 'no relation flags on the own user')
  const none = await svc.call('GET', '/users/me')
  t.equal(none.status, 401)
  t.match(none.body.meta.error_message, /requires authentication/)
  t.equal((await svc.call('GET', '/users/me', { token: svc.appToken })).status, 403)
})

t.test('PUT and PATCH need a user token with update_profile', async (t) => {
  const svc = await makeInstance(t)
  const reader = await svc.person('alice', { scopes: ['basic', 'stream'] })
  for (const method of ['PUT', 'PATCH']) {
    const anonymous = await svc.call(method, '/users/me', { payload: full })
    t.equal(anonymous.status, 401, `${method} without a token`)
    t.equal((await svc.call(method, '/users/me', { token: svc.appToken, payload: full })).status, 403, `${method} with an app token`)
    const scoped = await svc.call(method, '/users/me', { token: reader.token, payload: full })
    t.equal(scoped.status, 403, `${method} without update_profile`)
    t.equal(scoped.body.meta.error_slug, 'insufficient-scope')
  }
  t.equal((await svc.domain.users.accounts.get(reader.user.id))?.name, 'Alice', 'nothing changed')
})

t.test('PUT needs every profile key; PATCH takes any subset', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  for (const key of ['name', 'locale', 'timezone', 'description'] as const) {
    const { [key]: _left, ...rest } = full
    const res = await svc.call('PUT', '/users/me', { token: alice.token, payload: rest })
    t.equal(res.status, 400, `PUT without ${key}`)
    t.match(res.body.meta.error_message, new RegExp(`^Bad Request: .*${key}`))
  }
  const put = await svc.call('PUT', '/stream/0/users/me', { token: alice.token, payload: full })
  t.equal(put.status, 200)
  t.same([put.body.data.name, put.body.data.locale, put.body.data.timezone, put.body.data.description.text], ['Alice A.', 'en_GB', 'Europe/London', 'hello'])
  const patch = await svc.call('PATCH', '/users/me', { token: alice.token, payload: { name: 'Alice B.' } })
  t.equal(patch.status, 200)
  t.same([patch.body.data.name, patch.body.data.locale, patch.body.data.description.text], ['Alice B.', 'en_GB', 'hello'])
})

t.test('a client may PUT back the whole user it fetched', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.call('PATCH', '/users/me', {
    token: alice.token,
    payload: { description: { text: '[my site](https://alice.example) #tea', entities: { parse_markdown_links: true } } },
  })
  const fetched = (await svc.call('GET', '/users/me', { token: alice.token })).body.data
  const body = { ...fetched, id: Number(fetched.id), name: 'Alice Liddell' }
  const res = await svc.call('PUT', '/users/me', { token: alice.token, payload: body })
  t.equal(res.status, 200)
  t.equal(res.body.data.name, 'Alice Liddell')
  t.same(res.body.data.description, fetched.description, 'the echoed description is kept as it was')
  t.equal(res.body.data.description.text, 'my site [alice.example] #tea')
})

t.test('name and description limits are 400s', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const long = await svc.call('PATCH', '/users/me', { token: alice.token, payload: { name: 'x'.repeat(51) } })
  t.equal(long.status, 400)
  t.match(long.body.meta.error_message, /^Bad Request: name is longer than 50/)
  t.equal((await svc.call('PATCH', '/users/me', { token: alice.token, payload: { name: 'x'.repeat(50) } })).status, 200)
  const longer = await svc.call('PUT', '/users/me', { token: alice.token, payload: { ...full, description: { text: 'y'.repeat(257) } } })
  t.equal(longer.status, 400)
  t.match(longer.body.meta.error_message, /256/)
  t.equal((await svc.call('PATCH', '/users/me', { token: alice.token, payload: { timezone: 'Nowhere/Special' } })).status, 400)
  t.equal((await svc.call('PATCH', '/users/me', { token: alice.token, payload: { locale: 42 } })).status, 400)
})

t.test('the description answers html and entities: a mention of a real user, a hashtag, a link', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const res = await svc.call('PATCH', '/users/me', { token: alice.token, payload: { description: { text: 'Ask @Bob about #Tea at https://tea.example' } } })
  const { description } = res.body.data
  t.same(description.entities.mentions, [{ pos: 4, len: 4, name: 'bob', id: String(bob.user.id) }])
  t.same(description.entities.hashtags, [{ pos: 15, len: 4, name: 'tea' }])
  t.same(description.entities.links, [{ pos: 23, len: 19, text: 'https://tea.example', url: 'https://tea.example' }])
  t.equal(
    description.html,
    `<span itemscope="https://app.net/schemas/Post">Ask <span data-mention-id="${bob.user.id}" data-mention-name="bob" itemprop="mention">@Bob</span> about <span data-hashtag-name="tea" itemprop="hashtag">#Tea</span> at <a href="https://tea.example">https://tea.example</a></span>`,
  )
  const plain = await svc.call('PATCH', '/users/me?include_html=0', { token: alice.token, payload: {} })
  t.notOk('html' in plain.body.data.description, 'include_html=0 leaves html out')
})

t.test('annotations: add, replace, delete by type alone; shown only when asked', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const patch = async (annotations: unknown[]) => svc.call('PATCH', '/users/me?include_user_annotations=1', { token: alice.token, payload: { annotations } })
  const blog = { type: 'svc.core.directory.blog', value: { url: 'https://alice.example' } }
  const twitter = { type: 'svc.core.directory.twitter', value: { username: 'alice' } }
  t.same((await patch([blog, twitter])).body.data.annotations, [blog, twitter])
  const moved = { type: 'svc.core.directory.blog', value: { url: 'https://alice.example/blog' } }
  t.same((await patch([moved])).body.data.annotations, [moved, twitter])
  t.same((await patch([{ type: 'svc.core.directory.twitter' }])).body.data.annotations, [moved])
  const bad = await patch([{ type: 'not a type', value: {} }])
  t.equal(bad.status, 400)
  t.match(bad.body.meta.error_message, /^Bad Request: annotation 0 type/)
  t.equal((await patch([{ type: 'svc.core.directory.blog', value: 'string' }])).status, 400)
  const hidden = await svc.call('GET', '/users/me', { token: alice.token })
  t.notOk('annotations' in hidden.body.data)
  t.same((await svc.call('GET', '/users/me?include_annotations=1', { token: alice.token })).body.data.annotations, [moved])
})

t.test('an edit through the API emits user.updated with the new row', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const seen: UserRow[] = []
  svc.domain.events.on('user.updated', (e: DomainEvent<'user.updated'>) => seen.push(e.payload.user))
  await svc.call('PATCH', '/users/me', { token: alice.token, payload: { name: 'Alice Liddell', timezone: 'Asia/Tokyo' } })
  t.equal(seen.length, 1)
  t.same([seen[0].id, seen[0].name, seen[0].timezone], [alice.user.id, 'Alice Liddell', 'Asia/Tokyo'])
  await svc.call('PATCH', '/users/me', { token: alice.token, payload: { name: 'y'.repeat(60) } })
  t.equal(seen.length, 1, 'a refused edit emits nothing')
})

t.test('name and description allow all Unicode and count characters, not bytes or UTF-16 units', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const patch = (payload: object) => svc.call('PATCH', '/users/me', { token: alice.token, payload })
  const fifty = await patch({ name: '🍵'.repeat(50) })
  t.equal(fifty.status, 200)
  t.equal(fifty.body.data.name, '🍵'.repeat(50))
  t.equal((await patch({ name: '🍵'.repeat(51) })).status, 400)
  const described = await patch({ description: { text: 'ü'.repeat(128) + '🍵'.repeat(128) } })
  t.equal(described.status, 200)
  t.equal(described.body.data.description.text, 'ü'.repeat(128) + '🍵'.repeat(128))
  const over = await patch({ description: { text: '🍵'.repeat(257) } })
  t.equal(over.status, 400)
  t.match(over.body.meta.error_message, /^Bad Request: .*256/)
})
