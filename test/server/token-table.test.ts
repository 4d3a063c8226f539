/**
 * The Token column of the API description, endpoint by endpoint: every
 * endpoint svc serves is tried without a token, with an app token, with a
 * user token holding only `basic`, and with a user token holding exactly the
 * required scope (plus basic). The allowed calls are real requests that must
 * succeed, so a route that refuses everything fails here as surely as one
 * that lets everything through.
 *
 * Rules: `none` takes no token but reads one when sent; `varies` takes no
 * token either (the fixture's channel is public), but one sent is held to its
 * scopes as `any` holds it; `any` takes either
 * kind; `user` refuses an app token (403 wrong-token-kind); `app` refuses a
 * user token, even one with every scope. A missing scope is 403
 * insufficient-scope; with several scopes listed, any one of them is enough.
 * Scopes do not apply to app tokens.
 *
 * Files have no Token column in the spec: its rule 4 (and adn-reference.md's
 * file catalogue) gives the `files` scope every file action and the upload
 * scopes creation only. A file a caller does not reach (an app token, a user
 * token without `files`) is no such file to it, a 404 and not a 403, as
 * data/files/files.ts decides; the `file_token` query parameter, which
 * reaches a file without the scope, is pinned in test/server/files/.
 *
 * Not in this table: the user stream (GET /stream/user) and an app stream's endpoint
 * (GET /channel/1/{key}), which stream until the client leaves, which inject
 * cannot do (test/server/streams/ pins their tokens); and the delegation
 * endpoint (GET /token with Basic credentials), which takes no access token
 * at all (delegation.test.ts).
 */
import t from 'tap'
import type { UserRow } from '../../data/index.js'
import { localPath, multipartOf, type Part } from '../fixtures/files.js'
import { flatImage, multipart } from '../fixtures/images.js'
import { makeInstance } from '../fixtures/instance.js'
import { makeClient } from '../fixtures/oauth.js'
import { HERE, placeAt, writePlaceSources } from '../fixtures/places.js'

const CAFE = placeAt('cafe', 'Café de Flore', 10)

type Kind = 'none' | 'varies' | 'any' | 'user' | 'app'
type Body =
  | { json: Record<string, unknown> }
  | { form: Record<string, string> }
  | { image: 'avatar' | 'cover'; width: number }
  | { parts: Part[] }
  /** A raw body of that content type. */
  | { raw: string; type: string }

interface Row {
  method: string
  /**
   * Under /stream/0 unless it starts with /oauth/, /f/ or /files-content/. Braces stand for fixture ids:
   * `{alice}`, `{bob}` (`{bob_name}` his username), `{robo}` (a second client), `{post}` (bob's), `{channel}` and `{message}` (alice's),
   * `{file}` (alice's public image; `{code}` its short address, `{signature}` and `{thumb_signature}` the query
   * of its content's and a thumbnail's signed address), `{draft}` (alice's incomplete file), `{filter}` (alice's),
   * `{stream}` (an app stream of the test client's app token), `{connection}` and `{subscription}` (alice's user
   * stream and a subscription on it).
   */
  path: string
  token: Kind
  /** Any one of these, with basic, is enough (user tokens only). */
  scopes?: string[]
  /** Refused tokens that find no such file (404) rather than a 403: `app`, `basic` (see the header). */
  hidden?: ('app' | 'basic')[]
  body?: Body
  /** The allowed calls' status. */
  status?: number
}

const MESSAGING = ['public_messages', 'messages']
const UPLOAD = ['files', 'write_post', 'messages', 'public_messages', 'update_profile']
const ALL_SCOPES = ['basic', 'stream', 'write_post', 'follow', 'update_profile', 'public_messages', 'messages', 'files', 'export']
const TOPIC: Body = { json: { annotations: [{ type: 'com.example.topic', value: { name: 'tea' } }] } }
const FILTER = { name: 'tea', match_policy: 'include_any', clauses: [{ object_type: 'post', operator: 'matches', field: '/data/text', value: 'tea' }] }
const NO_TOKEN = 'Call requires authentication: This resource requires authentication and no token was provided.'
const NOTES: Part = { name: 'content', filename: 'notes.txt', type: 'text/plain', data: 'notes' }
const ROOT = /^\/(oauth|f|files-content)\//
const PNG = await flatImage(200, 200)

const TABLE: Row[] = [
  // Tokens and identity delegation
  { method: 'GET', path: '/token', token: 'any' },
  { method: 'DELETE', path: '/token', token: 'any' },
  { method: 'GET', path: '/apps/me/tokens/user_ids', token: 'app' },
  { method: 'GET', path: '/apps/me/tokens', token: 'app' },
  { method: 'POST', path: '/oauth/access_token', token: 'user', body: { form: { grant_type: 'delegate', delegate_client_id: '{robo}' } } },
  // Profile
  {
    method: 'PUT',
    path: '/users/me',
    token: 'user',
    scopes: ['update_profile'],
    body: { json: { name: 'Alice A.', locale: 'en_GB', timezone: 'Europe/London', description: { text: 'hello' } } },
  },
  { method: 'PATCH', path: '/users/me', token: 'user', scopes: ['update_profile'], body: { json: { name: 'Alice A.' } } },
  { method: 'GET', path: '/users/{alice}/avatar', token: 'none', status: 302 },
  { method: 'POST', path: '/users/me/avatar', token: 'user', scopes: ['update_profile'], body: { image: 'avatar', width: 200 } },
  { method: 'GET', path: '/users/{alice}/cover', token: 'none', status: 302 },
  { method: 'POST', path: '/users/me/cover', token: 'user', scopes: ['update_profile'], body: { image: 'cover', width: 960 } },
  { method: 'GET', path: '/users/me/export', token: 'user', scopes: ['export'] },
  // Relations
  { method: 'POST', path: '/users/{bob}/follow', token: 'user', scopes: ['follow'] },
  { method: 'DELETE', path: '/users/{bob}/follow', token: 'user', scopes: ['follow'] },
  { method: 'GET', path: '/users/{bob}/following', token: 'any' },
  { method: 'GET', path: '/users/{bob}/followers', token: 'any' },
  { method: 'GET', path: '/users/{bob}/following/ids', token: 'any' },
  { method: 'GET', path: '/users/{bob}/followers/ids', token: 'any' },
  { method: 'POST', path: '/users/{bob}/mute', token: 'user', scopes: ['follow'] },
  { method: 'DELETE', path: '/users/{bob}/mute', token: 'user', scopes: ['follow'] },
  { method: 'GET', path: '/users/{alice}/muted', token: 'any' },
  { method: 'GET', path: '/users/muted/ids?ids={alice}', token: 'app' },
  { method: 'GET', path: '/posts/{post}/reposters', token: 'any' },
  { method: 'GET', path: '/posts/{post}/stars', token: 'any' },
  // Posts (interactions)
  { method: 'POST', path: '/posts/{post}/star', token: 'user', scopes: ['write_post'] },
  { method: 'DELETE', path: '/posts/{post}/star', token: 'user', scopes: ['write_post'] },
  { method: 'GET', path: '/users/{bob}/stars', token: 'none' },
  { method: 'POST', path: '/posts/{post}/repost', token: 'user', scopes: ['write_post'] },
  { method: 'DELETE', path: '/posts/{post}/repost', token: 'user', scopes: ['write_post'] },
  { method: 'GET', path: '/posts/{post}/replies', token: 'any' },
  { method: 'GET', path: '/posts/stream/explore', token: 'none' },
  { method: 'GET', path: '/posts/stream/explore/posts', token: 'none' },
  // Channels
  { method: 'POST', path: '/channels', token: 'user', scopes: MESSAGING, body: { json: { type: 'com.example.chat', readers: { public: true } } } },
  { method: 'PUT', path: '/channels/{channel}', token: 'user', scopes: MESSAGING, body: TOPIC },
  { method: 'PATCH', path: '/channels/{channel}', token: 'user', scopes: MESSAGING, body: TOPIC },
  { method: 'DELETE', path: '/channels/{channel}', token: 'user' },
  { method: 'GET', path: '/channels/{channel}', token: 'varies', scopes: MESSAGING },
  { method: 'GET', path: '/channels?ids={channel}', token: 'any' },
  { method: 'GET', path: '/users/me/channels', token: 'user', scopes: MESSAGING },
  { method: 'GET', path: '/users/me/channels/pm/num_unread', token: 'user', scopes: ['messages'] },
  { method: 'GET', path: '/users/me/channels/broadcast/num_unread', token: 'user', scopes: ['messages'] },
  { method: 'DELETE', path: '/users/me/channels/broadcast/num_unread', token: 'user', scopes: ['messages'] },
  { method: 'GET', path: '/users/me/channels/muted', token: 'user', scopes: MESSAGING },
  { method: 'POST', path: '/channels/{channel}/mute', token: 'user', scopes: MESSAGING },
  { method: 'DELETE', path: '/channels/{channel}/mute', token: 'user', scopes: MESSAGING },
  // Messages. The table gives sending as plain `User`; the scope meanings (public_messages:
  // send and receive in public channels) and adn-reference.md's catalogue ask for one of the two.
  { method: 'POST', path: '/channels/{channel}/messages', token: 'user', scopes: MESSAGING, body: { json: { text: 'hello again' } } },
  // The literal `pm` makes a private channel, which public_messages does not reach (adn-reference.md: "PM: messages").
  { method: 'POST', path: '/channels/pm/messages', token: 'user', scopes: ['messages'], body: { json: { text: 'psst', destinations: ['@{bob_name}'] } } },
  { method: 'DELETE', path: '/channels/{channel}/messages/{message}', token: 'user', scopes: MESSAGING },
  { method: 'GET', path: '/channels/{channel}/messages', token: 'user', scopes: MESSAGING },
  { method: 'GET', path: '/channels/{channel}/messages/{message}', token: 'any' },
  { method: 'GET', path: '/channels/messages?ids={message}', token: 'any' },
  { method: 'GET', path: '/channels/messages/search?channel_ids={channel}&query=hello', token: 'any' },
  { method: 'GET', path: '/users/me/messages', token: 'user', scopes: MESSAGING },
  // Endpoints listed without detail. Block and unblock are given as plain `User`; adn-reference.md
  // (scope meanings, and its decision on the block scope) puts them under follow with mute.
  { method: 'GET', path: '/users/{alice}', token: 'none' },
  { method: 'GET', path: '/users?ids={alice}', token: 'any' },
  { method: 'GET', path: '/users/search?q=alice', token: 'any' },
  { method: 'POST', path: '/users/{bob}/block', token: 'user', scopes: ['follow'] },
  { method: 'DELETE', path: '/users/{bob}/block', token: 'user', scopes: ['follow'] },
  { method: 'GET', path: '/users/{alice}/blocked', token: 'any' },
  { method: 'GET', path: '/users/blocked/ids?ids={alice}', token: 'app' },
  // Filters
  { method: 'POST', path: '/filters', token: 'user', body: { json: FILTER } },
  { method: 'GET', path: '/filters', token: 'user' },
  { method: 'GET', path: '/filters/{filter}', token: 'user' },
  { method: 'PUT', path: '/filters/{filter}', token: 'user', body: { json: { ...FILTER, name: 'more tea' } } },
  { method: 'DELETE', path: '/filters/{filter}', token: 'user' },
  { method: 'DELETE', path: '/filters', token: 'user' },
  // Files
  { method: 'POST', path: '/files', token: 'user', scopes: UPLOAD, body: { json: { type: 'com.example.note' } } },
  { method: 'POST', path: '/files', token: 'user', scopes: UPLOAD, body: { parts: [{ name: 'type', data: 'com.example.note' }, NOTES] } },
  { method: 'PUT', path: '/files/{draft}/content/notes', token: 'user', scopes: ['files'], hidden: ['basic'], body: { raw: 'notes', type: 'text/plain' } },
  {
    method: 'POST',
    path: '/files/{draft}/content/notes',
    token: 'user',
    scopes: ['files'],
    hidden: ['basic'],
    body: { parts: [NOTES] },
  },
  {
    method: 'POST',
    path: '/files/{draft}/notes',
    token: 'user',
    scopes: ['files'],
    hidden: ['basic'],
    body: { parts: [NOTES] },
  },
  {
    method: 'PUT',
    path: '/files/{draft}/content',
    token: 'user',
    scopes: ['files'],
    hidden: ['basic'],
    body: { raw: 'hello', type: 'text/plain' },
    status: 204,
  },
  { method: 'GET', path: '/files/{file}', token: 'user', scopes: ['files'], hidden: ['app', 'basic'] },
  { method: 'GET', path: '/files?ids={file}', token: 'user', scopes: ['files'] },
  { method: 'GET', path: '/users/me/files', token: 'user', scopes: ['files'] },
  { method: 'PUT', path: '/files/{file}', token: 'user', scopes: ['files'], hidden: ['basic'], body: { json: { name: 'tea.png' } } },
  { method: 'PATCH', path: '/files/{file}', token: 'user', scopes: ['files'], hidden: ['basic'], body: { json: { public: false } } },
  { method: 'DELETE', path: '/files/{file}', token: 'user', scopes: ['files'], hidden: ['basic'] },
  { method: 'GET', path: '/files/{file}/content', token: 'user', scopes: ['files'], hidden: ['app', 'basic'], status: 302 },
  { method: 'GET', path: '/files/{file}/content/image_thumb_200s', token: 'user', scopes: ['files'], hidden: ['app', 'basic'], status: 302 },
  // svc's own addresses for file content: the signature or the public file's short code is the credential.
  { method: 'GET', path: '/files-content/{file}?{signature}', token: 'none' },
  { method: 'GET', path: '/files-content/{file}/image_thumb_200s?{thumb_signature}', token: 'none' },
  { method: 'GET', path: '/f/{code}', token: 'none', status: 302 },
  // Streams: the user stream's deletes, and app streams.
  { method: 'DELETE', path: '/users/me/streams/{connection}', token: 'user', status: 204 },
  { method: 'DELETE', path: '/users/me/streams/{connection}/{subscription}', token: 'user', status: 204 },
  { method: 'POST', path: '/streams', token: 'app', body: { json: { object_types: ['post'], type: 'long_poll' } } },
  { method: 'GET', path: '/streams', token: 'app' },
  { method: 'GET', path: '/streams/{stream}', token: 'app' },
  { method: 'PUT', path: '/streams/{stream}', token: 'app', body: { json: { object_types: ['post', 'star'], type: 'long_poll' } } },
  { method: 'DELETE', path: '/streams/{stream}', token: 'app' },
  { method: 'DELETE', path: '/streams', token: 'app' },
  // Places: the café the instance's operator imported (below).
  { method: 'GET', path: `/places/${CAFE.id}`, token: 'any' },
  { method: 'GET', path: `/places/search?latitude=${HERE.latitude}&longitude=${HERE.longitude}`, token: 'user' },
]

const parsed = (payload: string): any => {
  try {
    return JSON.parse(payload)
  } catch {
    return {}
  }
}

/**
 * One instance serves every row: making a server (its routes and their
 * schemas) is most of what an instance costs. Each row gets a world of its
 * own in it: a client app with its app token, alice (the caller of every
 * user-token case) and bob as new users, a second client that can receive
 * delegate tokens, and the objects the table's braces name. Alice's tokens
 * are issued in the row's client, so its app token sees her as an
 * authorizing user. `renew` makes new objects for what a path names, for a
 * call after one that changed or removed them.
 */
const svc = await makeInstance(t)
writePlaceSources(svc.dir, [{ id: 'cafes', places: [CAFE] }])
let worlds = 0

async function world() {
  const { domain } = svc
  const n = ++worlds
  const { app } = await domain.auth.apps.create({ name: `Test Client ${n}`, redirect_uris: ['http://client.example/callback'] })
  const appToken = (await domain.auth.tokens.issueAppToken(app)).access_token
  // No passwords: no call here signs in, and hashing one is most of what making a user costs.
  const user = (username: string) => domain.users.accounts.create({ username: `${username}${n}`, name: username[0].toUpperCase() + username.slice(1) })
  const alice = await user('alice')
  const bob = await user('bob')
  const issue = async (who: UserRow, scopes: string[]) => (await domain.auth.tokens.issueUserToken(app, who, scopes)).access_token
  const [aliceToken, bobToken] = [await issue(alice, ALL_SCOPES), await issue(bob, ALL_SCOPES)]
  const robo = await makeClient(svc, `Robo ${n}`)
  const ids: Record<string, string> = { alice: String(alice.id), bob: String(bob.id), bob_name: bob.username, robo: robo.client_id }
  const made = async (method: string, url: string, token: string, payload?: unknown, headers?: Record<string, string>) => {
    const res = await svc.call(method, `/stream/0${url}`, { token, payload, headers })
    if (res.status !== 200) throw new Error(`fixture ${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body
  }
  const signature = (url: string) => new URL(url).search.slice(1)

  /** The objects a brace names, made anew by its maker (with the others that maker makes). */
  const makers: Record<string, () => Promise<Record<string, string>>> = {
    post: async () => ({ post: (await made('POST', '/posts', bobToken, { text: 'tea time' })).data.id }),
    channel: async () => {
      const channel = (await made('POST', '/channels', aliceToken, { type: 'com.example.chat', readers: { public: true } })).data.id
      return { channel, message: (await made('POST', `/channels/${channel}/messages`, aliceToken, { text: 'hello' })).data.id }
    },
    file: async () => {
      const body = multipartOf([
        { name: 'type', data: 'com.example.photo' },
        { name: 'public', data: '1' },
        { name: 'content', filename: 'tea.png', type: 'image/png', data: PNG },
      ])
      const file = (await made('POST', '/files', aliceToken, body.payload, body.headers)).data
      return {
        file: file.id,
        code: localPath(file.url_short).slice('/f/'.length),
        signature: signature(file.url),
        thumb_signature: signature(file.derived_files.image_thumb_200s.url),
      }
    },
    draft: async () => ({ draft: (await made('POST', '/files', aliceToken, { type: 'com.example.note' })).data.id }),
    filter: async () => ({ filter: (await made('POST', '/filters', aliceToken, FILTER)).data.id }),
    stream: async () => ({ stream: (await made('POST', '/streams', appToken, { object_types: ['post'], type: 'long_poll' })).data.id }),
    connection: async () => {
      // A token of its own, as a client that connects has: a token keeps at most five streams.
      const token = await issue(alice, ALL_SCOPES)
      const { connectionId } = await domain.streams.hub.open(await domain.auth.tokens.authenticate(token), { options: {} })
      const subscribed = await made('GET', `/users/me/posts?connection_id=${connectionId}&subscription_id=mine`, token)
      return { connection: connectionId, subscription: subscribed.meta.subscription_ids![0] }
    },
  }
  const makerOf: Record<string, string> = { message: 'channel', code: 'file', signature: 'file', thumb_signature: 'file', subscription: 'connection' }
  // Independent of each other, they are made together: their commits share the store's fsyncs.
  Object.assign(ids, ...(await Promise.all(Object.values(makers).map((make) => make()))))

  async function renew(row: Row) {
    const names = new Set([...row.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => makerOf[name] ?? name))
    Object.assign(ids, ...(await Promise.all([...names].filter((name) => makers[name]).map((name) => makers[name]()))))
  }

  const fill = (s: string) => s.replace(/\{(\w+)\}/g, (_, name: string) => ids[name])
  const userToken = (scopes: string[]) => issue(alice, scopes)

  async function call(row: Row, token?: string) {
    const url = ROOT.test(row.path) ? fill(row.path) : `/stream/0${fill(row.path)}`
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
    let payload: string | Buffer | object | undefined
    const body = row.body
    if (body && 'json' in body) payload = JSON.parse(fill(JSON.stringify(body.json)))
    if (body && 'form' in body) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      payload = new URLSearchParams(Object.entries(body.form).map(([k, v]) => [k, fill(v)])).toString()
    }
    if (body && ('image' in body || 'parts' in body)) {
      const part = 'image' in body ? multipart(body.image, await flatImage(body.width, 200)) : multipartOf(body.parts)
      Object.assign(headers, part.headers)
      payload = part.payload
    }
    if (body && 'raw' in body) {
      headers['content-type'] = body.type
      payload = body.raw
    }
    const res = await svc.server.inject({ method: row.method, url, headers, payload })
    const answer = res.headers['content-type']?.toString().startsWith('application/json') ? parsed(res.payload) : {}
    // The OAuth token endpoint answers bare JSON; every other route answers the envelope.
    return { status: res.statusCode, slug: answer.meta?.error_slug ?? answer.error_slug, message: answer.meta?.error_message }
  }
  return { appToken, userToken, call, renew }
}

/** The tokens each rule lets through, by name, with their scopes (null: the app token, undefined: none). */
function allowed(row: Row): [string, string[] | null | undefined][] {
  const scoped = (row.scopes ?? []).map((s): [string, string[]] => [`a user token with ${s}`, ['basic', s]])
  const basicUser: [string, string[]] = ['a user token with basic only', ['basic']]
  if (row.token === 'none') return [['no token', undefined], ['an app token', null], basicUser]
  if (row.token === 'app') return [['an app token', null]]
  const users = scoped.length > 0 ? scoped : [basicUser]
  if (row.token === 'varies') return [['no token', undefined], ['an app token', null], ...users]
  return row.token === 'any' ? [['an app token', null], ...users] : users
}

/** What a refused token gets: the rule's 403, or no such file. */
const refusal = (row: Row, who: 'app' | 'basic', slug: string): [number, string | undefined] => (row.hidden?.includes(who) ? [404, undefined] : [403, slug])

for (const row of TABLE) {
  const label = `${row.method} ${row.path}: ${row.token}${row.scopes ? ` / ${row.scopes.join(' or ')}` : ''}`
  t.test(label, async (t) => {
    // One world per row: the refused calls change nothing, and a read leaves the objects as the next call needs them.
    const w = await world()
    if (row.token !== 'none' && row.token !== 'varies') {
      const anonymous = await w.call(row)
      t.equal(anonymous.status, 401, 'no token')
      if (!row.path.startsWith('/oauth/')) t.equal(anonymous.message, NO_TOKEN, 'no token: the message says a token is needed')
    }
    if (row.token === 'user') {
      const app = await w.call(row, w.appToken)
      t.same([app.status, app.slug], refusal(row, 'app', 'wrong-token-kind'), 'an app token')
    }
    if (row.token === 'app') {
      const user = await w.call(row, await w.userToken(ALL_SCOPES))
      t.same([user.status, user.slug], [403, 'wrong-token-kind'], 'a user token with every scope')
    }
    if (row.scopes) {
      const basic = await w.call(row, await w.userToken(['basic']))
      t.same([basic.status, basic.slug], refusal(row, 'basic', 'insufficient-scope'), 'a user token with basic only')
    }
    for (const [i, [name, scopes]] of allowed(row).entries()) {
      // A call that may have changed or removed what the path names leaves the next one new objects.
      if (i > 0 && row.method !== 'GET') await w.renew(row)
      const token = scopes === null ? w.appToken : scopes === undefined ? undefined : await w.userToken(scopes)
      t.equal((await w.call(row, token)).status, row.status ?? 200, `${name} is let through`)
    }
  })
}
