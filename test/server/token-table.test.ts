/**
 * The Token column of the API description, endpoint by endpoint: every
 * endpoint svc serves is tried without a token, with an app token, with a
 * user token holding only `basic`, and with a user token holding exactly the
 * required scope (plus basic). The allowed calls are real requests that must
 * succeed, so a route that refuses everything fails here as surely as one
 * that lets everything through.
 *
 * Rules: `none` takes no token but reads one when sent; `any` takes either
 * kind; `user` refuses an app token (403 wrong-token-kind); `app` refuses a
 * user token, even one with every scope. A missing scope is 403
 * insufficient-scope; with several scopes listed, any one of them is enough.
 * Scopes do not apply to app tokens.
 *
 * Not in this table, because svc does not serve them yet: filters (POST, GET,
 * PUT, DELETE /filters and /filters/{id}), places (GET /places/{vendor_id},
 * /places/search), files (POST /files, PUT and POST
 * /files/{id}/content/{derived_key}, PUT /files/{id}/content), the user stream
 * and its subscriptions (GET {stream_url}/stream/user, DELETE
 * /users/me/streams/{connection_id}[/{subscription_id}]) and app streams
 * (POST, GET, PUT, DELETE /streams and /streams/{id}, the stream endpoint).
 * The delegation endpoint (GET /token with Basic credentials) takes no access
 * token at all; delegation.test.ts pins it.
 */
import t from 'tap'
import { flatImage, multipart } from '../fixtures/images.js'
import { makeInstance } from '../fixtures/instance.js'
import { makeClient } from '../fixtures/oauth.js'

type Kind = 'none' | 'any' | 'user' | 'app'
type Body = { json: Record<string, unknown> } | { form: Record<string, string> } | { image: 'avatar' | 'cover'; width: number }

interface Row {
  method: string
  /** With `{alice}`, `{bob}`, `{post}` (bob's), `{channel}`, `{message}` (alice's) standing for fixture ids. */
  path: string
  token: Kind
  /** Any one of these, with basic, is enough (user tokens only). */
  scopes?: string[]
  body?: Body
  /** The allowed calls' status. */
  status?: number
}

const MESSAGING = ['public_messages', 'messages']
const ALL_SCOPES = ['basic', 'stream', 'write_post', 'follow', 'update_profile', 'public_messages', 'messages', 'files', 'export']
const TOPIC: Body = { json: { annotations: [{ type: 'com.example.topic', value: { name: 'tea' } }] } }
const NO_TOKEN = 'Call requires authentication: This resource requires authentication and no token was provided.'

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
  { method: 'GET', path: '/channels/{channel}', token: 'any', scopes: MESSAGING },
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
  { method: 'POST', path: '/channels/pm/messages', token: 'user', scopes: ['messages'], body: { json: { text: 'psst', destinations: ['@bob'] } } },
  { method: 'DELETE', path: '/channels/{channel}/messages/{message}', token: 'user', scopes: MESSAGING },
  { method: 'GET', path: '/channels/{channel}/messages', token: 'user', scopes: MESSAGING },
  { method: 'GET', path: '/channels/{channel}/messages/{message}', token: 'any' },
  { method: 'GET', path: '/channels/messages?ids={message}', token: 'any' },
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
]

/**
 * A fresh instance where alice (the caller of every user-token case) owns a
 * public channel with a message in it, bob has a post, and a second client
 * can receive delegate tokens. Alice's tokens are issued in the test client,
 * so its app token sees her as an authorizing user.
 */
async function world(t: Parameters<typeof makeInstance>[0]) {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const post = (await svc.call('POST', '/stream/0/posts', { token: bob.token, payload: { text: 'tea time' } })).body.data
  const channel = (await svc.call('POST', '/stream/0/channels', { token: alice.token, payload: { type: 'com.example.chat', readers: { public: true } } })).body
    .data
  const message = (await svc.call('POST', `/stream/0/channels/${channel.id}/messages`, { token: alice.token, payload: { text: 'hello' } })).body.data
  const robo = await makeClient(svc, 'Robo')
  const ids: Record<string, string> = {
    alice: String(alice.user.id),
    bob: String(bob.user.id),
    post: post.id,
    channel: channel.id,
    message: message.id,
    robo: robo.client_id,
  }
  const fill = (s: string) => s.replace(/\{(\w+)\}/g, (_, name: string) => ids[name])
  const userToken = async (scopes: string[]) => (await svc.domain.tokens.issueUserToken(svc.app, alice.user, scopes)).access_token

  async function call(row: Row, token?: string) {
    const url = row.path.startsWith('/oauth/') ? row.path : `/stream/0${fill(row.path)}`
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
    let payload: string | Buffer | object | undefined
    if (row.body && 'json' in row.body) payload = row.body.json
    if (row.body && 'form' in row.body) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      payload = new URLSearchParams(Object.entries(row.body.form).map(([k, v]) => [k, fill(v)])).toString()
    }
    if (row.body && 'image' in row.body) {
      const part = multipart(row.body.image, await flatImage(row.body.width, 200))
      Object.assign(headers, part.headers)
      payload = part.payload
    }
    const res = await svc.server.inject({ method: row.method, url, headers, payload })
    const body = res.headers['content-type']?.toString().startsWith('application/json') ? JSON.parse(res.payload) : {}
    // The OAuth token endpoint answers bare JSON; every other route answers the envelope.
    return { status: res.statusCode, slug: body.meta?.error_slug ?? body.error_slug, message: body.meta?.error_message }
  }
  return { svc, userToken, call }
}

/** The tokens each rule lets through, by name, with their scopes (null: the app token, undefined: none). */
function allowed(row: Row): [string, string[] | null | undefined][] {
  const scoped = (row.scopes ?? []).map((s): [string, string[]] => [`a user token with ${s}`, ['basic', s]])
  const basicUser: [string, string[]] = ['a user token with basic only', ['basic']]
  if (row.token === 'none') return [['no token', undefined], ['an app token', null], basicUser]
  if (row.token === 'app') return [['an app token', null]]
  const users = scoped.length > 0 ? scoped : [basicUser]
  return row.token === 'any' ? [['an app token', null], ...users] : users
}

for (const row of TABLE) {
  const label = `${row.method} ${row.path}: ${row.token}${row.scopes ? ` / ${row.scopes.join(' or ')}` : ''}`
  t.test(label, async (t) => {
    // Each allowed call gets a world of its own: several of them change or remove what the next would act on.
    const first = await world(t)
    if (row.token !== 'none') {
      const anonymous = await first.call(row)
      t.equal(anonymous.status, 401, 'no token')
      if (!row.path.startsWith('/oauth/')) t.equal(anonymous.message, NO_TOKEN, 'no token: the message says a token is needed')
    }
    if (row.token === 'user') {
      const app = await first.call(row, first.svc.appToken)
      t.same([app.status, app.slug], [403, 'wrong-token-kind'], 'an app token')
    }
    if (row.token === 'app') {
      const user = await first.call(row, await first.userToken(ALL_SCOPES))
      t.same([user.status, user.slug], [403, 'wrong-token-kind'], 'a user token with every scope')
    }
    if (row.scopes) {
      const basic = await first.call(row, await first.userToken(['basic']))
      t.same([basic.status, basic.slug], [403, 'insufficient-scope'], 'a user token with basic only')
    }
    for (const [i, [name, scopes]] of allowed(row).entries()) {
      const w = i === 0 ? first : await world(t)
      const token = scopes === null ? w.svc.appToken : scopes === undefined ? undefined : await w.userToken(scopes)
      t.equal((await w.call(row, token)).status, row.status ?? 200, `${name} is let through`)
    }
  })
}
