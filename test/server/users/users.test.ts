import t from 'tap'
import { makeInstance, type Instance } from '../../fixtures/instance.js'
import { csrfOf, visitor } from '../../fixtures/oauth.js'
import { post } from '../../fixtures/posts.js'
import { ISO_SECONDS, keys, RELATION_KEYS } from '../../fixtures/shapes.js'

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

/** Alice with a note annotation, so that the user general parameters have something to show. */
async function aliceWithNote(svc: Instance) {
  const alice = await svc.person('alice')
  const note = { type: 'com.example.note', value: { text: 'hi' } }
  await svc.call('PATCH', '/users/me', { token: alice.token, payload: { description: { text: 'I like #tea' }, annotations: [note] } })
  return { alice, note }
}

t.test('anyone can look alice up by id or @username', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  for (const ref of [String(alice.user.id), '@alice', '@ALICE']) {
    const res = await svc.call('GET', `/stream/0/users/${ref}`)
    t.equal(res.status, 200)
    t.equal(res.body.meta.code, 200)
    t.equal(res.body.data.username, 'alice')
    t.notOk('you_follow' in res.body.data, 'no relation flags without a token')
  }
})

t.test('an unknown user is a 404 in the envelope', async (t) => {
  const svc = await makeInstance(t)
  const res = await svc.call('GET', '/users/999')
  t.equal(res.status, 404)
  t.equal(res.body.meta.code, 404)
  t.type(res.body.meta.error_message, 'string')
  t.match(res.body.meta.error_id, /^[0-9a-f]{32}$/)
})

t.test('a malformed user id is a 400 that says Bad Request', async (t) => {
  const svc = await makeInstance(t)
  const res = await svc.call('GET', '/stream/0/users/al!ce')
  t.equal(res.status, 400)
  t.match(res.body.meta.error_message, /^Bad Request: /)
})

t.test('a wrong method is a 405 with Allow', async (t) => {
  const svc = await makeInstance(t)
  const res = await svc.call('DELETE', '/stream/0/users/1')
  t.equal(res.status, 405)
  t.equal(res.headers.allow, 'GET')
})

t.test('a bad token is a 401 with the invalid-token slug', async (t) => {
  const svc = await makeInstance(t)
  const res = await svc.call('GET', '/stream/0/users/1', { token: 'nope' })
  t.equal(res.status, 401)
  t.equal(res.body.meta.error_slug, 'invalid-token')
})

t.test('GET /users needs a token and answers the known ids only', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  t.equal((await svc.call('GET', `/users?ids=${alice.user.id}`)).status, 401)
  const res = await svc.call('GET', `/users?ids=${alice.user.id},999,${bob.user.id}`, { token: alice.token })
  t.same(
    res.body.data.map((u: { username: string }) => u.username),
    ['alice', 'bob'],
  )
  t.equal(res.headers['x-oauth-scopes'], 'basic,stream,write_post,follow,update_profile,public_messages,messages,files,export')
})

t.test('GET /users takes ids the way client libraries send a list: repeated keys, commas, or both', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const [a, b, c] = [alice, bob, carol].map((p) => p.user.id)
  for (const query of [`ids=${a}&ids=${b}&ids=${c}`, `ids=${a},${b}&ids=${c}`, `ids=${a}&ids=999&ids=${b},${c}`]) {
    const res = await svc.call('GET', `/stream/0/users?${query}`, { token: alice.token })
    t.equal(res.status, 200, query)
    t.same(
      res.body.data.map((u: { username: string }) => u.username),
      ['alice', 'bob', 'carol'],
      query,
    )
  }
})

t.test('the 200 ids limit counts every repeat of the key, and says so as it does for commas', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const upTo = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)
  const commas = await svc.call('GET', `/users?ids=${upTo(1, 201).join(',')}`, { token: alice.token })
  t.equal(commas.status, 400, '201 comma separated ids')
  for (const query of [
    upTo(1, 201)
      .map((id) => `ids=${id}`)
      .join('&'),
    `ids=${upTo(1, 150).join(',')}&${upTo(151, 201)
      .map((id) => `ids=${id}`)
      .join('&')}`,
  ]) {
    const over = await svc.call('GET', `/users?${query}`, { token: alice.token })
    t.equal(over.status, 400, '201 ids over repeats')
    t.equal(over.body.meta.code, 400)
    t.equal(over.body.meta.error_message, commas.body.meta.error_message)
    t.equal(over.body.meta.error_message, 'Bad Request: at most 200 ids are allowed')
  }
  const atLimit = await svc.call(
    'GET',
    `/users?ids=${upTo(1, 150).join(',')}&${upTo(151, 200)
      .map((id) => `ids=${id}`)
      .join('&')}`,
    { token: alice.token },
  )
  t.equal(atLimit.status, 200, '200 ids over repeats')
  t.same(
    atLimit.body.data.map((u: { username: string }) => u.username),
    ['alice'],
  )
})

t.test('a repeated ids key with a bad value is refused like a bad comma separated one', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await svc.call('GET', `/users?ids=${alice.user.id}&ids=@bob`, { token: alice.token })
  t.equal(res.status, 400)
  t.equal(res.body.meta.error_message, 'Bad Request: ids must be a comma separated list of ids')
})

t.test('relation booleans are left out without a token, with an app token and on oneself', async (t) => {
  const svc = await makeInstance(t)
  const [alice] = await svc.people('alice', 'bob')
  await svc.call('POST', '/users/@bob/follow', { token: alice.token })
  const deprecated = ['is_following', 'is_follower', 'is_muted']
  for (const [who, token] of [
    ['anonymous', undefined],
    ['app', svc.appToken],
  ] as const) {
    const res = await svc.call('GET', '/users/@bob', { token })
    t.equal(res.status, 200)
    t.same(
      [...RELATION_KEYS, ...deprecated].filter((k) => k in res.body.data),
      [],
      who,
    )
    t.same(res.body.data.counts, { following: 0, followers: 1, posts: 0, stars: 0 }, `${who}: counts are there`)
  }
  const self = await svc.call('GET', '/users/@alice', { token: alice.token })
  t.same(
    [...RELATION_KEYS, ...deprecated].filter((k) => k in self.body.data),
    [],
  )
})

t.test('counts: posts leave out deleted ones, stars count what the user starred', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const kept = await post(svc, alice, { text: 'kept' })
  const gone = await post(svc, alice, { text: 'gone' })
  await svc.call('DELETE', `/posts/${gone.id}`, { token: alice.token })
  await svc.call('POST', `/posts/${kept.id}/star`, { token: bob.token })
  t.same((await svc.call('GET', '/users/@alice')).body.data.counts, { following: 0, followers: 0, posts: 1, stars: 0 })
  t.same((await svc.call('GET', '/users/@bob')).body.data.counts, { following: 0, followers: 0, posts: 0, stars: 1 })
})

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
  t.match(page.payload, /I like <a href="http:\/\/127\.0\.0\.1:0\/explore\/tag\/tea">#tea<\/a>/, 'the description, its hashtag linked')
  t.match(page.payload, /src="http:\/\/127\.0\.0\.1:0\/images\/default-avatar\.png\?w=80&amp;h=80"/)
  t.equal((await svc.server.inject('/@ALICE')).statusCode, 200, 'any case')
  const nobody = await svc.server.inject('/@nobody')
  t.equal(nobody.statusCode, 404)
  t.match(nobody.headers['content-type'], /^text\/html/)
  t.equal((await svc.server.inject('/@no-one')).statusCode, 400)
})

t.test("a user's page lists their latest posts, each linked to its own page, and leads into the web app", async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  t.match((await svc.server.inject('/@alice')).payload, /No posts yet\./)
  const first = await post(svc, alice, { text: 'first <b>post</b>' })
  const second = await post(svc, alice, { text: 'second post #tea' })
  const page = (await svc.server.inject('/@alice')).payload
  t.ok(page.indexOf('second post') < page.indexOf('first &lt;b&gt;post'), 'newest first, text escaped')
  t.match(page, `href="http://127.0.0.1:0/@alice/post/${first.id}"`)
  t.match(page, `href="http://127.0.0.1:0/@alice/post/${second.id}"`)
  t.match(page, 'href="http://127.0.0.1:0/people/alice"', 'the web app profile')
})
