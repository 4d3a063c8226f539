/**
 * Bad input on every route the server serves (both mounts, the catch-all
 * included): malformed path params, query params of the wrong type, shape or
 * count, and request bodies of the wrong shape, syntax or content type, each
 * sent with no token, the app token and alice's token. Every answer must be a
 * 4xx or better, and a JSON answer the envelope with meta.code equal to the
 * HTTP status and an error message on errors. Afterwards nothing the fixture
 * made may be gone and the server must still answer.
 *
 * The cases per route are drawn by a PRNG seeded from SEED and the route, so a
 * failure names a request that fails again on the next run.
 */
import t from 'tap'
import type { RequestRoute } from '@hapi/hapi'
import { multipart } from '../fixtures/images.js'
import { makeInstance } from '../fixtures/instance.js'
import { openWithStore } from '../fixtures/open-store.js'
import { makeClient } from '../fixtures/oauth.js'

const SEED = 20261124
const PATH_CASES = 10
const QUERY_CASES = 12
const FIELD_CASES = 16
/** Requests in flight at once. */
const BATCH = 6

/** mulberry32: small, seedable, the same sequence on every platform. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296
}
const seedOf = (text: string) => [...text].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, SEED)
const sample = <T>(items: T[], n: number, rand: () => number): T[] => {
  const copy = [...items]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[copy[i], copy[j]] = [copy[j], copy[i]]
  }
  return copy.slice(0, n)
}

const LONG = 'a'.repeat(300)
const UNICODE = 'ünï☃😀\u202e'
/** Path segments, already URL-encoded. `{id}` stands for an id of alice's that a lossy parse would reach. */
const PATH_VALUES = [
  '0',
  'pm',
  '-1',
  '99999999999999999999',
  'abc',
  '%00',
  '..%2F..',
  LONG,
  encodeURIComponent(UNICODE),
  '{id}abc',
  '{id}.5',
  '%2B{id}',
  '%20{id}',
  '1e3',
  '%E0%A4%A',
]
/** Query values, already URL-encoded. */
const QUERY_VALUES = [
  '',
  'abc',
  '-1',
  '1.5',
  '1e309',
  '99999999999999999999',
  '9'.repeat(400),
  'NaN',
  'true',
  'maybe',
  '%00',
  encodeURIComponent(UNICODE),
  LONG,
  '%2C%2C%2C',
  encodeURIComponent('1,abc,-2'),
  '%E0%A4%A',
]
const GENERIC_QUERY = ['count', 'since_id', 'before_id', 'ids', 'include_annotations', 'include_deleted', 'include_html', 'include_muted']
const GENERIC_BODY = [
  'text',
  'name',
  'type',
  'annotations',
  'entities',
  'reply_to',
  'readers',
  'writers',
  'destinations',
  'id',
  'grant_type',
  'username',
  'password',
  'client_id',
]

const nest = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : { a: nest(depth - 1, leaf) })
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

/** Values for one body field at a time, the other fields valid or absent: they get past the first check to the domain's. */
const FIELD_VALUES: unknown[] = [
  { a: { b: [1] } },
  [null, 1, 'x'],
  null,
  true,
  12345678901234567890,
  -1,
  1.5,
  '',
  ' ',
  '\u0000',
  UNICODE,
  'x'.repeat(100_000),
  [{ type: 'com.example.fuzz', value: nest(1000, 1) }],
  [{ type: 'com.example.fuzz', value: 'x'.repeat(100_000) }],
  [{ type: null }, null, 1],
  [{ type: 'x'.repeat(300), value: {} }],
  { links: [{ pos: 9999, len: 9999, url: 'javascript:alert(1)' }], mentions: [{ id: '99999999' }], parse_links: 'x' },
  { links: [{ pos: 0, len: 1, url: '' }], mentions: [{ name: '' }] },
  { public: 'yes', user_ids: ['@nobody', 'abc', -1, null], any_user: 1, immutable: 'no' },
  { user_ids: Array.from({ length: 500 }, (_, i) => String(i + 1)) },
  ['@', '@nobody', '99999999999', -1, null],
  { text: 'x'.repeat(100_000), entities: 'x' },
  { pos: -1, len: -1 },
]

const FIELD_LABELS = FIELD_VALUES.map((v) => JSON.stringify(v).slice(0, 60))

interface Case {
  what: string
  path: string
  query: string
  body?: { payload: string | Buffer; type: string }
}

/** The keys a route's joi schema names (query or payload), or `fallback` when it has none to describe. */
function keysOf(schema: unknown, fallback: string[]): string[] {
  const describe = (schema as { describe?: () => any } | undefined)?.describe
  if (typeof describe !== 'function') return fallback
  const d = describe.call(schema)
  const object = d.type === 'alternatives' ? d.matches?.map((m: any) => m.schema).find((s: any) => s?.type === 'object') : d
  const keys = Object.keys(object?.keys ?? {})
  return keys.length > 0 ? keys : fallback
}

const json = (value: unknown) => ({ payload: JSON.stringify(value), type: 'application/json' })
const fill = (keys: string[], value: unknown) => Object.fromEntries(keys.map((k) => [k, value]))
/** `JSON.stringify(fill(keys, value))`, the value serialized once for every route (some are 100k characters). */
const filled = (keys: string[], valueJson: string) => ({
  payload: `{${keys.map((k) => `${JSON.stringify(k)}:${valueJson}`).join(',')}}`,
  type: 'application/json',
})
const BIG_VALUES = {
  object: JSON.stringify({ a: { b: [1] } }),
  number: JSON.stringify(12345678901234567890),
  array: JSON.stringify([null, 1, 'x']),
  long: JSON.stringify('x'.repeat(100_000)),
  nested: JSON.stringify(nest(1000, 'x')),
}
const PART = multipart('text', Buffer.from('hello'))

function bodyCases(keys: string[]): [string, Case['body']][] {
  const part = PART
  return [
    ['an array', json([{ text: 'x' }])],
    ['null', { payload: 'null', type: 'application/json' }],
    ['a bare string', json('text')],
    ['a number', json(42)],
    ['objects for every field', filled(keys, BIG_VALUES.object)],
    ['numbers for every field', filled(keys, BIG_VALUES.number)],
    ['arrays for every field', filled(keys, BIG_VALUES.array)],
    ['null for every field', json(fill(keys, null))],
    ['booleans for every field', json(fill(keys, true))],
    ['100k characters in every field', filled(keys, BIG_VALUES.long)],
    ['1000 levels of nesting in every field', filled(keys, BIG_VALUES.nested)],
    ['1000 nested arrays', { payload: deepArray(1000), type: 'application/json' }],
    ['invalid JSON', { payload: '{"text": "a",', type: 'application/json' }],
    ['a __proto__ key', { payload: '{"__proto__": {"admin": true}, "text": "x"}', type: 'application/json' }],
    ['JSON sent as text/plain', { payload: JSON.stringify(fill(keys, 'x')), type: 'text/plain' }],
    ['JSON sent as XML', { payload: '<post><text>x</text></post>', type: 'application/xml' }],
    [
      'odd form fields',
      { payload: `${keys.map((k) => `${k}[]=a&${k}[x]=b&${k}=%00`).join('&')}&%00=1&=2&__proto__[a]=1`, type: 'application/x-www-form-urlencoded' },
    ],
    ['an empty JSON body', { payload: '', type: 'application/json' }],
    ['a multipart body', { payload: part.payload, type: part.headers['content-type'] }],
    ['a multipart body without its closing boundary', { payload: part.payload.subarray(0, part.payload.length - 20), type: part.headers['content-type'] }],
    ['a multipart content type without a boundary', { payload: 'x', type: 'multipart/form-data' }],
  ]
}

interface World {
  /** A valid path value for `param` on `route`. */
  valid: (param: string, route: RequestRoute) => string
  /** Well-formed bodies (and the path to send them to) that one bad field is put into, so it gets past the others to the domain. */
  bases: (route: RequestRoute, path: string) => { path: string; body: Record<string, unknown> }[]
  alicePostId: string
}

/** Fills the route's path: `bad` for param `target`, valid ids elsewhere. */
function urlOf(world: World, route: RequestRoute, target?: string, bad?: string): string {
  return route.path.replace(/\{(\w+)(\*|\?)?\}/g, (_, name: string) => (name === target ? bad!.replace('{id}', world.alicePostId) : world.valid(name, route)))
}

/**
 * Every route as a client reaches it: at the root, and under /stream/0 unless
 * it is served at the root only. On PostgreSQL (`onPostgres`) the root only:
 * the prefix is answered by the same rewrite whatever the store, which the
 * embedded run covers; what the PostgreSQL run adds is the store's side.
 */
const mountsOf = (routes: RequestRoute[], onPostgres: boolean): RequestRoute[] =>
  routes.flatMap((route) =>
    route.path === '/{p*}' || route.settings.plugins?.svc?.rootOnly || onPostgres
      ? [route]
      : [{ ...route, path: `/stream/0${route.path}` } as RequestRoute, route],
  )

function casesOf(world: World, route: RequestRoute): Case[] {
  const rand = prng(seedOf(`${route.method} ${route.path}`))
  const params = [...route.path.matchAll(/\{(\w+)/g)].map((m) => m[1])
  const validate = route.settings.validate as { query?: unknown; payload?: unknown } | undefined
  const paths = params.flatMap((p) => PATH_VALUES.map((v): Case => ({ what: `path ${p}=${v}`, path: urlOf(world, route, p, v), query: '' })))
  const base = urlOf(world, route)
  const queries = keysOf(validate?.query, GENERIC_QUERY).flatMap((k): Case[] => [
    ...sample(QUERY_VALUES, 3, rand).map((v) => ({ what: `query ${k}=${v}`, path: base, query: `${k}=${v}` })),
    { what: `query ${k} repeated`, path: base, query: `${k}=1&${k}=2` },
    { what: `query ${k} as an array`, path: base, query: `${k}[]=1&${k}[0]=2` },
    { what: `query ${k} as an object`, path: base, query: `${k}[a][b]=1` },
  ])
  if (route.method === 'get') return [...sample(paths, PATH_CASES, rand), ...sample(queries, QUERY_CASES, rand)]
  const keys = keysOf(validate?.payload, GENERIC_BODY)
  const bodies = bodyCases(keys).map(([what, body]): Case => ({ what: `body: ${what}`, path: base, query: '', body }))
  const bases = world.bases(route, base)
  // Built once drawn: most are never sent, and some carry 100k characters.
  const fields = keys.flatMap((k) =>
    FIELD_VALUES.map((v, i) => (): Case => {
      const { path, body } = bases[i % bases.length]
      return { what: `field ${k}=${FIELD_LABELS[i]} in ${JSON.stringify(body).slice(0, 60)}`, path, query: '', body: json({ ...body, [k]: v }) }
    }),
  )
  return [...sample(paths, PATH_CASES, rand), ...sample(queries, QUERY_CASES, rand), ...bodies, ...sample(fields, FIELD_CASES, rand).map((make) => make())]
}

interface Failure {
  request: string
  token: string
  status: number
  problem: string
  answer: string
}

/** What is wrong with an answer, or null: a 5xx, or JSON that is not the envelope as the status asks. */
function problemOf(route: RequestRoute, res: { statusCode: number; payload: string; headers: Record<string, unknown> }): string | null {
  if (res.statusCode >= 500) return 'a 5xx'
  // The token endpoint answers RFC 6749 bodies, and the API document OpenAPI's shape, not the envelope.
  if (route.path.endsWith('/oauth/access_token') || route.path === '/openapi.json' || !String(res.headers['content-type'] ?? '').startsWith('application/json'))
    return null
  let body: any
  try {
    body = JSON.parse(res.payload)
  } catch {
    return 'JSON that does not parse'
  }
  if (typeof body?.meta !== 'object' || body.meta === null) return 'no meta'
  if (body.meta.code !== res.statusCode) return `meta.code ${body.meta.code}`
  if (res.statusCode < 400) return null
  if (typeof body.meta.error_message !== 'string' || body.meta.error_message.length === 0) return 'no error_message'
  if (res.statusCode === 400 && !body.meta.error_message.startsWith('Bad Request: ')) return 'a 400 message without "Bad Request: "'
  return null
}

t.test('bad input on every route answers a 4xx in the envelope and loses nothing', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const post = async (token: string, text: string) => (await svc.call('POST', '/stream/0/posts', { token, payload: { text } })).body.data
  const alicePosts = [await post(alice.token, 'first light #tea'), await post(alice.token, 'second cup @bob')]
  const bobPost = await post(bob.token, 'tea time')
  const channel = async (token: string) => {
    const made = (await svc.call('POST', '/stream/0/channels', { token, payload: { type: 'com.example.chat', readers: { public: true } } })).body.data
    const message = (await svc.call('POST', `/stream/0/channels/${made.id}/messages`, { token, payload: { text: 'hello' } })).body.data
    return { channel: made.id as string, message: message.id as string }
  }
  const aliceChannel = await channel(alice.token)
  const bobChannel = await channel(bob.token)
  const filter = { match_policy: 'include_any', clauses: [{ object_type: 'post', operator: 'matches', field: '/data/text', value: 'tea' }] }
  const aliceFilter = (await svc.call('POST', '/stream/0/filters', { token: alice.token, payload: filter })).body.data
  const file = async (token: string) => (await svc.call('POST', '/stream/0/files', { token, payload: { type: 'com.example.fuzz', public: true } })).body.data
  const [aliceFile, bobFile] = [await file(alice.token), await file(bob.token)]
  t.ok(alicePosts.every(Boolean) && bobPost && aliceChannel.message && bobChannel.message && aliceFilter && aliceFile && bobFile, 'the fixture is made')
  const before = svc.store.stats()

  const valid: Record<string, string> = {
    user_id: String(bob.user.id),
    post_id: bobPost.id,
    username: 'bob',
    slug: 'photos',
    hashtag: 'tea',
    file: 'nothing.png',
    channel: 'abc',
    message: 'abc',
    p: 'nowhere',
    filter_id: aliceFilter.id,
    derived_key: 'fuzz',
    code: '1abcdef12',
  }
  const client = await makeClient(svc)
  const grant = {
    grant_type: 'password',
    client_id: client.client_id,
    password_grant_secret: client.password_grant_secret,
    username: 'alice',
    password: 'correct horse',
    scope: 'basic',
  }
  /** By method and path under /stream/0: what a well-formed body looks like there. */
  const wellFormed: Record<string, Record<string, unknown>[]> = {
    'post /posts': [{ text: 'fuzz' }, { text: 'fuzz', reply_to: bobPost.id }],
    'post /channels': [{ type: 'com.example.fuzz' }, { type: 'com.example.fuzz', readers: { public: true } }],
    'put /channels/{channel_id}': [{}, { readers: { public: true } }],
    'patch /channels/{channel_id}': [{}, { annotations: [] }],
    'post /channels/{channel_id}/messages': [{ text: 'fuzz' }, { text: 'fuzz', reply_to: aliceChannel.message }],
    'put /users/me': [{ name: 'Alice', locale: 'en_US', timezone: 'UTC', description: { text: 'hi' } }],
    'patch /users/me': [{}, { description: { text: 'hi' } }],
    'post /posts/marker': [{ name: 'global', id: bobPost.id }],
    'post /text/process': [{ text: 'fuzz' }],
    'post /oauth/access_token': [grant],
    'post /filters': [filter, { ...filter, name: 'fuzz' }],
    'put /filters/{filter_id}': [filter],
    'post /files': [{ type: 'com.example.fuzz' }, { type: 'com.example.fuzz', name: 'fuzz.txt', public: true }],
    'put /files/{file_id}': [{}, { name: 'fuzz.txt' }],
    'patch /files/{file_id}': [{}, { public: false }],
  }
  const world: World = {
    alicePostId: alicePosts[0].id,
    valid: (param, route) => {
      // DELETE routes get bob's channel and message, so a well-formed request among the bad ones removes nothing alice owns.
      const made = route.method === 'delete' ? bobChannel : aliceChannel
      if (param === 'channel_id') return made.channel
      if (param === 'message_id') return made.message
      if (param === 'file_id') return route.method === 'delete' ? bobFile.id : aliceFile.id
      // Blocking or muting bob would turn every later request about him into a 403 before it reached the input.
      if (param === 'user_id' && /\/(block|mute)$/.test(route.path)) return String(carol.user.id)
      return valid[param]
    },
    bases: (route, path) => {
      const own = wellFormed[`${route.method} ${route.path.replace(/^\/stream\/0/, '')}`]?.map((body) => ({ path, body }))
      // A message to the literal `pm` makes a private channel from its destinations.
      if (route.method === 'post' && route.path.endsWith('/channels/{channel_id}/messages'))
        own!.push({ path: path.replace(/channels\/\d+/, 'channels/pm'), body: { text: 'fuzz', destinations: ['@bob'] } })
      return (
        own ?? [
          { path, body: {} },
          { path, body: { text: 'fuzz' } },
        ]
      )
    },
  }
  const tokens: [string, string | undefined][] = [
    ['no token', undefined],
    ['the app token', svc.appToken],
    ["alice's token", alice.token],
  ]

  const failures: Failure[] = []
  let requests = 0
  const send = async (route: RequestRoute, c: Case, who: string, given: string | undefined, revokes: boolean) => {
    let token = given
    if (revokes && token)
      token =
        token === svc.appToken
          ? (await svc.domain.auth.tokens.issueAppToken(svc.app)).access_token
          : (await svc.domain.auth.tokens.issueUserToken(svc.app, alice.user, ['basic'])).access_token
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
    if (c.body) headers['content-type'] = c.body.type
    const url = c.query ? `${c.path}?${c.query}` : c.path
    // The catch-all takes any method; POST lets the bodies reach it too.
    const method = route.method === '*' ? 'POST' : route.method.toUpperCase()
    const res = await svc.server.inject({ method, url, headers, payload: c.body?.payload })
    requests++
    const problem = problemOf(route, res)
    if (problem)
      failures.push({
        request: `${method} ${url.slice(0, 200)} (${c.what.slice(0, 120)})`,
        token: who,
        status: res.statusCode,
        problem,
        answer: res.payload.slice(0, 300),
      })
  }
  const mounts = mountsOf(svc.server.table(), svc.storeUrl !== undefined)
  for (const route of mounts) {
    // A well-formed connect streams until the client leaves, which inject cannot do: its bad input is told in test/server/streams/user-stream.test.ts.
    if (route.path === '/stream/user') continue
    // DELETE /token revokes the token it is called with: each call gets a token of its own.
    const revokes = route.method === 'delete' && /^(\/stream\/0)?\/token$/.test(route.path)
    const calls = casesOf(world, route).flatMap((c) =>
      tokens.map(
        ([who, given]) =>
          () =>
            send(route, c, who, given, revokes),
      ),
    )
    // A few at a time: one request's wait for the store's fsync is another's turn on the CPU, and their commits share it.
    for (let i = 0; i < calls.length; i += BATCH) await Promise.all(calls.slice(i, i + BATCH).map((call) => call()))
  }
  t.comment(`${requests} requests on ${mounts.length} routes, seed ${SEED}`)
  t.strictSame(failures, [], 'no 5xx, and every JSON answer is the envelope with meta.code = status and a message on errors')

  const after = svc.store.stats()
  for (const table of ['users', 'apps', 'posts', 'channels', 'messages']) {
    t.ok(
      after.rows[table] >= before.rows[table] && before.rows[table] > 0,
      `no ${table} row is lost (${before.rows[table]} before, ${after.rows[table]} after)`,
    )
  }
  for (const [i, text] of ['first light #tea', 'second cup @bob'].entries()) {
    const read = await svc.call('GET', `/stream/0/posts/${alicePosts[i].id}`, { token: alice.token })
    t.strictSame([read.status, read.body.data.text, read.body.data.is_deleted], [200, text, undefined], `alice's post ${alicePosts[i].id} is still there`)
  }
  const bobRead = await svc.call('GET', `/stream/0/posts/${bobPost.id}`, { token: bob.token })
  t.strictSame(
    [bobRead.status, bobRead.body.data.text, bobRead.body.data.is_deleted],
    [200, 'tea time', undefined],
    "bob's post, the target of alice's deletes, is still there",
  )
  for (const [owner, made] of [
    ['alice', aliceChannel],
    ['bob', bobChannel],
  ] as const) {
    const message = await svc.call('GET', `/stream/0/channels/${made.channel}/messages/${made.message}`, { token: owner === 'alice' ? alice.token : bob.token })
    t.strictSame([message.status, message.body.data.text, message.body.data.is_deleted], [200, 'hello', undefined], `${owner}'s channel message is still there`)
  }
  const fresh = await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: 'still here' } })
  t.strictSame([fresh.status, fresh.body.meta.code, fresh.body.data.text], [200, 200, 'still here'], 'the server still takes a normal post')

  // What the server answered must also be what the data dir holds: reopened, it has every row and alice's posts as written.
  const written = svc.store.stats().rows
  await svc.server.stop()
  await svc.domain.close()
  const reopened = await openWithStore(svc.dir, { config: { rate_limits: { enabled: false } as never }, storeUrl: svc.storeUrl })
  t.teardown(() => reopened.domain.close())
  t.strictSame(reopened.store.stats().rows, written, 'the reopened store holds every row')
  const texts = (await reopened.store.read.posts.getMany(alicePosts.map((p) => Number(p.id)))).map((p) => [p.text, p.is_deleted])
  t.strictSame(
    texts,
    [
      ['first light #tea', undefined],
      ['second cup @bob', undefined],
    ],
    "the reopened store holds alice's posts",
  )
})

t.test('a path that is not valid percent-encoding is a 400 that says so, on both mounts and the catch-all', async (t) => {
  const svc = await makeInstance(t)
  for (const url of ['/stream/0/posts/%E0%A4%A', '/users/%ff/posts', '/stream/0/channels/1/messages/%E0', '/nowhere/%ff']) {
    const res = await svc.server.inject({ method: 'GET', url })
    t.match(res.headers['content-type'], /^application\/json/, `${url}: JSON`)
    t.strictSame(
      [res.statusCode, JSON.parse(res.payload).meta.code, JSON.parse(res.payload).meta.error_message],
      [400, 400, 'Bad Request: the path is not valid percent-encoded UTF-8'],
      url,
    )
  }
})
