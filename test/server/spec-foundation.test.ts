/**
 * The spec's foundation, statement by statement, as a client sees it: the
 * User and Image objects, the Token object and the routes that answer it,
 * usernames and the other limits, scopes, token kinds, the token and user
 * events, and the addresses of the API version. What other suites pin
 * precisely (relation booleans, profile edits, OAuth flows, delegation,
 * conventions) is left to them.
 */
import t from 'tap'
import type { DomainEvent } from '../../data/index.js'
import { flatImage, multipart, noisyPng } from '../fixtures/images.js'
import { makeInstance, type Instance } from '../fixtures/instance.js'
import { csrfOf, makeClient, postForm, visitor } from '../fixtures/oauth.js'

const ISO_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/
const USER_KEYS = [
  'avatar_image',
  'canonical_url',
  'counts',
  'cover_image',
  'created_at',
  'description',
  'id',
  'locale',
  'name',
  'timezone',
  'type',
  'username',
]
const TOKEN_KEYS = ['app', 'client_id', 'invite_link', 'limits', 'scopes', 'storage']
const ALL_SCOPES = 'basic stream write_post follow update_profile public_messages messages files export'
const keys = (o: object) => Object.keys(o).sort()
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',')

/** Alice with a note annotation, so that the user general parameters have something to show. */
async function aliceWithNote(svc: Instance) {
  const alice = await svc.person('alice')
  const note = { type: 'com.example.note', value: { text: 'hi' } }
  await svc.call('PATCH', '/users/me', { token: alice.token, payload: { description: { text: 'I like #tea' }, annotations: [note] } })
  return { alice, note }
}

t.test('anyone sees alice with every field the User table names: string id, ISO time, integer counts, two images', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const { body } = await svc.call('GET', `/stream/0/users/${alice.user.id}`)
  const user = body.data
  t.same(keys(user), USER_KEYS, 'no verified_domain while unset, no annotations unless asked, no relation flags without a token')
  t.equal(user.id, String(alice.user.id))
  t.equal(user.username, 'alice')
  t.equal(user.name, 'Alice')
  t.equal(user.type, 'human', 'human is the default account type')
  t.match(user.created_at, ISO_SECONDS)
  t.equal(user.canonical_url, 'http://127.0.0.1:0/@alice')
  t.same(keys(user.description), ['entities', 'html', 'text'])
  t.same(user.description.entities, { mentions: [], hashtags: [], links: [] })
  t.same(user.counts, { following: 0, followers: 0, posts: 0, stars: 0 })
  t.same([typeof user.timezone, typeof user.locale], ['string', 'string'])
  for (const kind of ['avatar_image', 'cover_image']) {
    const image = user[kind]
    t.same(keys(image), ['height', 'is_default', 'url', 'width'], kind)
    t.ok(Number.isInteger(image.width) && Number.isInteger(image.height), `${kind} sides are integers`)
    t.equal(image.is_default, true, `${kind} is the default`)
    t.match(image.url, /^http:\/\/127\.0\.0\.1:0\/images\//)
  }
  const me = await svc.call('GET', '/stream/0/users/me', { token: alice.token })
  t.same(keys(me.body.data), USER_KEYS, 'the own user has the same fields')
})

t.test('with a public URL, canonical, image and invite URLs are absolute under it', async (t) => {
  const svc = await makeInstance(t, { public_url: 'https://svc.example/' })
  const alice = await svc.person('alice')
  const token = (await svc.call('GET', '/token', { token: alice.token })).body.data
  t.equal(token.user.canonical_url, 'https://svc.example/@alice')
  t.equal(token.user.avatar_image.url, 'https://svc.example/images/default-avatar.png')
  t.equal(token.user.cover_image.url, 'https://svc.example/images/default-cover.png')
  t.equal(token.invite_link, 'https://svc.example/signup')
})

t.test('every route here that answers users takes the user general parameters, html on and annotations off by default', async (t) => {
  const svc = await makeInstance(t)
  const { alice, note } = await aliceWithNote(svc)
  const routes: [string, string, (body: any) => any][] = [
    [`/users/${alice.user.id}`, '', (b) => b.data],
    [`/users?ids=${alice.user.id}`, alice.token, (b) => b.data[0]],
    ['/users/me', alice.token, (b) => b.data],
    ['/token', alice.token, (b) => b.data.user],
    ['/apps/me/tokens', svc.appToken, (b) => b.data[0].user],
  ]
  for (const [path, token, userOf] of routes) {
    const at = async (query: string) =>
      userOf((await svc.call('GET', `/stream/0${path}${path.includes('?') ? '&' : '?'}${query}`, { token: token || undefined })).body)
    const plain = await at('')
    t.equal(
      plain.description.html,
      '<span itemscope="https://app.net/schemas/Post">I like <span data-hashtag-name="tea" itemprop="hashtag">#tea</span></span>',
      `${path}: html by default`,
    )
    t.notOk('annotations' in plain, `${path}: no annotations by default`)
    t.notOk('html' in (await at('include_html=0')).description, `${path}: include_html=0`)
    t.ok('html' in (await at('include_html=1')).description, `${path}: include_html=1`)
    t.same((await at('include_annotations=1')).annotations, [note], `${path}: include_annotations=1`)
    t.same((await at('include_user_annotations=1')).annotations, [note], `${path}: include_user_annotations=1`)
  }
})

t.test('usernames: 1 to 20 characters of a-z, 0-9 and _, kept lower-cased and found in any case', async (t) => {
  const svc = await makeInstance(t)
  const signUp = async (username: string) => {
    const browser = visitor(svc)
    const csrf = csrfOf((await browser.get('/signup')).text)
    return browser.post('/signup', { csrf, username, password: 'long enough' })
  }
  for (const refused of ['abcdefghij_abcdefghi1', 'carol-c', 'émile', 'dot.ted', '']) {
    t.equal((await signUp(refused)).status, 400, `${JSON.stringify(refused)} is refused`)
  }
  t.equal((await signUp('Twenty_Characters_20')).status, 200)
  const found = await svc.call('GET', '/users/@TWENTY_CHARACTERS_20')
  t.equal(found.status, 200)
  t.equal(found.body.data.username, 'twenty_characters_20')
  const taken = await signUp('twenty_CHARACTERS_20')
  t.equal(taken.status, 400, 'a username differing only in case is taken')
  t.match(taken.text, /taken/)
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

t.test('the Token object: its fields always, the user for user tokens only, pagination_id in lists', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice', { scopes: ['stream'] })
  const user = (await svc.call('GET', '/stream/0/token', { token: alice.token })).body.data
  t.same(keys(user), [...TOKEN_KEYS, 'user'].sort())
  t.same(keys(user.app), ['client_id', 'link', 'name'])
  t.ok(
    Object.values(user.app).every((v) => typeof v === 'string'),
    'app fields are strings',
  )
  t.same(keys(user.limits), ['available_invites', 'following', 'max_file_size'])
  t.ok(Object.values(user.limits).every(Number.isInteger), 'limits are integers')
  t.ok(Object.values(user.storage).every(Number.isInteger), 'storage figures are integers')
  t.equal(user.user.id, String(alice.user.id))
  const app = (await svc.call('GET', '/stream/0/token', { token: svc.appToken })).body.data
  t.same(keys(app), TOKEN_KEYS, 'an app token has no user')
  const listed = (await svc.call('GET', '/stream/0/apps/me/tokens', { token: svc.appToken })).body.data
  t.same(keys(listed[0]), [...TOKEN_KEYS, 'pagination_id', 'user'].sort())
  t.match(listed[0].pagination_id, /^\d+$/)
  const deleted = (await svc.call('DELETE', '/stream/0/token', { token: alice.token })).body.data
  t.same(keys(deleted), [...TOKEN_KEYS, 'user'].sort(), 'DELETE /token answers the Token object')
  t.same(deleted.scopes, ['basic', 'stream'])
})

t.test("scopes: the nine names, the spec's post meaning write_post, basic always, unknown names dropped", async (t) => {
  const svc = await makeInstance(t)
  await svc.person('bob')
  const robo = await makeClient(svc)
  const grant = (scope: string) =>
    postForm(svc, '/oauth/access_token', {
      grant_type: 'password',
      client_id: robo.client_id,
      client_secret: robo.client_secret,
      username: 'bob',
      password: 'correct horse',
      scope,
    })
  t.same((await grant(ALL_SCOPES)).body.token.scopes, ALL_SCOPES.split(' '))
  const poster = await grant('post,email')
  t.same(poster.body.token.scopes, ['basic', 'write_post'])
  const made = await svc.call('POST', '/stream/0/posts', { token: poster.body.access_token, payload: { text: 'posted with post' } })
  t.equal(made.status, 200)
  t.equal(made.headers['x-oauth-scopes'], 'basic,write_post')
  const follow = await svc.call('POST', '/stream/0/users/@bob/mute', { token: poster.body.access_token })
  t.equal(follow.status, 403, 'follow was not granted')
  t.equal(follow.body.meta.error_slug, 'insufficient-scope')
})

t.test('token kinds: Any takes an app token, App refuses a user token, none of them goes without one', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  t.equal((await svc.call('GET', `/stream/0/users?ids=${alice.user.id}`, { token: svc.appToken })).status, 200, 'GET /users is Any')
  for (const [method, url] of [
    ['DELETE', '/token'],
    ['GET', '/apps/me/tokens/user_ids'],
    ['GET', `/users?ids=${alice.user.id}`],
    ['PATCH', '/users/me'],
  ]) {
    const res = await svc.call(method, `/stream/0${url}`)
    t.equal(res.status, 401, `${method} ${url} without a token`)
    t.equal(res.body.meta.error_message, 'Call requires authentication: This resource requires authentication and no token was provided.')
  }
  const userOnApp = await svc.call('GET', '/stream/0/apps/me/tokens/user_ids', { token: alice.token })
  t.same([userOnApp.status, userOnApp.body.meta.error_slug], [403, 'wrong-token-kind'])
  t.equal((await svc.call('GET', `/stream/0/users/${alice.user.id}`, { token: svc.appToken })).status, 200, 'None still reads a token when sent')
})

t.test("limits: an app's token list pages 20 by default and caps count at 200", async (t) => {
  const svc = await makeInstance(t)
  for (let i = 0; i < 25; i++) {
    const user = await svc.domain.users.create({ username: `reader${i}` })
    await svc.domain.tokens.issueUserToken(svc.app, user, ['stream'])
  }
  const first = await svc.call('GET', '/stream/0/apps/me/tokens', { token: svc.appToken })
  t.equal(first.body.data.length, 20)
  t.equal(first.body.meta.more, true)
  t.same(first.body.data.map((tk: { user: { username: string } }) => tk.user.username).slice(0, 2), ['reader24', 'reader23'], 'newest first')
  const rest = await svc.call('GET', `/stream/0/apps/me/tokens?before_id=${first.body.meta.min_id}`, { token: svc.appToken })
  t.same(
    rest.body.data.map((tk: { user: { username: string } }) => tk.user.username),
    ['reader4', 'reader3', 'reader2', 'reader1', 'reader0'],
  )
  t.equal(rest.body.meta.more, false)
  const capped = await svc.call('GET', '/stream/0/apps/me/tokens?count=201', { token: svc.appToken })
  t.equal(capped.status, 200, 'a count over 200 is capped, not refused')
  t.equal(capped.body.data.length, 25)
})

t.test('limits: at most 200 ids per request for users and channels', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  for (const path of ['/users', '/channels']) {
    const over = await svc.call('GET', `/stream/0${path}?ids=${upTo(201)}`, { token: alice.token })
    t.equal(over.status, 400, `${path}: 201 ids`)
    t.equal(over.body.meta.error_message, 'Bad Request: at most 200 ids are allowed')
    t.equal((await svc.call('GET', `/stream/0${path}?ids=${upTo(200)}`, { token: alice.token })).status, 200, `${path}: 200 ids`)
  }
})

t.test('limits: a cover under 4 MB is taken, one of 4 MB or more is a 400', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const upload = async (data: Buffer) => {
    const { payload, headers } = multipart('cover', data)
    return svc.call('POST', '/stream/0/users/me/cover', { token: alice.token, payload, headers })
  }
  const justOver = await noisyPng(1190, 1190)
  t.ok(justOver.length >= 4 * 1024 * 1024 && justOver.length < 4 * 1024 * 1024 + 64 * 1024, 'the svc check is the one that sees it')
  for (const data of [justOver, await noisyPng(1400, 1400)]) {
    const res = await upload(data)
    t.equal(res.status, 400)
    t.match(res.body.meta.error_message, /^Bad Request: Cover image must be smaller than 4 MB/)
  }
  const under = await upload(await noisyPng(1150, 1150))
  t.equal(under.status, 200)
  t.match(under.body.data.cover_image, { is_default: false, width: 1150, height: 1150 })
})

t.test('token events carry what the app stream shows: scopes, app and user; deauthorizing any token is one', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('bob')
  const robo = await makeClient(svc)
  const seen: { name: string; scopes: string[]; client_id: string; user?: string }[] = []
  svc.domain.events.onAny((e: DomainEvent) => {
    if (!e.name.startsWith('token.')) return
    const { token, app, user } = e.payload as DomainEvent<'token.authorized'>['payload']
    seen.push({ name: e.name, scopes: token.scopes, client_id: app.client_id, ...(user ? { user: user.username } : {}) })
  })
  const grant = (scope: string) =>
    postForm(svc, '/oauth/access_token', {
      grant_type: 'password',
      client_id: robo.client_id,
      client_secret: robo.client_secret,
      username: 'bob',
      password: 'correct horse',
      scope,
    })
  const first = await grant('stream')
  await grant('stream')
  await grant('stream follow')
  await svc.call('DELETE', '/token', { token: first.body.access_token })
  const app = await postForm(svc, '/oauth/access_token', { grant_type: 'client_credentials', client_id: robo.client_id, client_secret: robo.client_secret })
  await svc.call('DELETE', '/token', { token: app.body.access_token })
  const id = robo.client_id
  t.same(seen, [
    { name: 'token.authorized', scopes: ['basic', 'stream'], client_id: id, user: 'bob' },
    { name: 'token.scopes_changed', scopes: ['basic', 'stream', 'follow'], client_id: id, user: 'bob' },
    { name: 'token.deauthorized', scopes: ['basic', 'stream'], client_id: id, user: 'bob' },
    { name: 'token.authorized', scopes: [], client_id: id },
    { name: 'token.deauthorized', scopes: [], client_id: id },
  ])
})

t.test('a new cover is a profile update: user.updated with the new row', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const updated: DomainEvent<'user.updated'>['payload']['user'][] = []
  svc.domain.events.on('user.updated', (e) => updated.push(e.payload.user))
  const { payload, headers } = multipart('cover', await flatImage(960, 300))
  await svc.call('POST', '/users/me/cover', { token: alice.token, payload, headers })
  t.equal(updated.length, 1)
  t.same([updated[0].id, updated[0].cover?.width, updated[0].cover?.height], [alice.user.id, 960, 300])
})

t.test('version 0: this area answers alike under /stream/0 and at the root', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  for (const [url, token] of [
    ['/token', alice.token],
    ['/apps/me/tokens/user_ids', svc.appToken],
    ['/users/@alice', undefined],
    [`/users?ids=${alice.user.id}`, alice.token],
    ['/config', undefined],
  ] as const) {
    const versioned = await svc.call('GET', `/stream/0${url}`, { token })
    const root = await svc.call('GET', url, { token })
    t.equal(versioned.status, 200, `/stream/0${url}`)
    t.same(root.body, versioned.body, `${url} at the root`)
  }
  t.equal((await svc.call('GET', '/stream/1/token', { token: alice.token })).status, 404, 'no other version')
})

t.test('a JSONP call as jQuery makes it, with its _ cache buster, is answered', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  for (const url of ['/stream/0/config', '/stream/0/users/@alice', `/stream/0/token?access_token=${alice.token}`]) {
    const res = await svc.server.inject(`${url}${url.includes('?') ? '&' : '?'}callback=jQuery1910_17&_=1380000000000`)
    t.equal(res.statusCode, 200, url)
    t.equal(JSON.parse(/^jQuery1910_17\((.*)\)$/s.exec(res.payload)?.[1] ?? '{}').meta.code, 200, `${url} meta.code`)
  }
})

t.test("a user's canonical_url leads a browser to a page about them", async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.call('PATCH', '/users/me', { token: alice.token, payload: { name: 'Alice <A>', description: { text: 'I like #tea' } } })
  const { canonical_url } = (await svc.call('GET', '/users/@alice')).body.data
  const page = await svc.server.inject(new URL(canonical_url).pathname)
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /^text\/html/)
  t.match(page.payload, /<h1>Alice &lt;A&gt;<\/h1>/, 'the name, escaped')
  t.match(page.payload, /@alice/)
  t.match(page.payload, /I like <span data-hashtag-name="tea" itemprop="hashtag">#tea<\/span>/, 'the description as its html')
  t.match(page.payload, /src="http:\/\/127\.0\.0\.1:0\/images\/default-avatar\.png\?w=80&amp;h=80"/)
  t.equal((await svc.server.inject('/@ALICE')).statusCode, 200, 'any case')
  const nobody = await svc.server.inject('/@nobody')
  t.equal(nobody.statusCode, 404)
  t.match(nobody.headers['content-type'], /^text\/html/)
  t.equal((await svc.server.inject('/@no-one')).statusCode, 400)
})
