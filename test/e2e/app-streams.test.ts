/**
 * App streams against a real `svc serve` process, as an outside push
 * notification service lives them: the operator registers the service's app
 * and the users on the command line, the app gets its token through the
 * client_credentials grant, the users authorize it with the password grant.
 * The app makes a plain stream and a filtered one (the filter inline, sent
 * form-encoded with nested keys as PHP clients send it) and reads both
 * endpoints with a bare GET, the URL being the credential. Queued events
 * survive a graceful restart (exactly what was missed, once) and a kill -9
 * (at most a repeat of what was delivered just before it, never a gap);
 * `purge=1` skips what was queued. One data dir, three servers.
 */
import t from 'tap'
import { readChunked, type Frame, type StreamClient } from '../fixtures/streams.js'
import { serve, svcJson, tempDir, type Serving } from '../fixtures/svc-process.js'
import { signIn, api } from '../fixtures/password-grant.js'

interface Client {
  client_id: string
  client_secret: string
  password_grant_secret: string
}

interface Person {
  id: string
  token: string
}

const ALL_TYPES = ['post', 'star', 'user_follow', 'mute', 'block', 'stream_marker', 'message', 'channel', 'channel_subscription', 'token', 'file', 'user']

/** The filtered stream's object types and inline filter, as `http_build_query` writes them: every key bracketed, every value text. */
const filterForm = (aliceId: string): [string, string][] => [
  ['object_types[0]', 'post'],
  ['object_types[1]', 'star'],
  ['object_types[2]', 'user_follow'],
  ['object_types[3]', 'mute'],
  ['object_types[4]', 'message'],
  ['type', 'long_poll'],
  ['key', 'urgent'],
  ['filter[name]', 'what the pager wants'],
  ['filter[match_policy]', 'include_any'],
  // Posts that say "urgent".
  ['filter[clauses][0][object_type]', 'post'],
  ['filter[clauses][0][operator]', 'matches'],
  ['filter[clauses][0][field]', '/data/text'],
  ['filter[clauses][0][value]', 'urgent'],
  // Stars by bob.
  ['filter[clauses][1][object_type]', 'star'],
  ['filter[clauses][1][operator]', 'equals'],
  ['filter[clauses][1][field]', '/data/user/username'],
  ['filter[clauses][1][value]', 'bob'],
  // Follows of alice (a list value, one bracketed key per element).
  ['filter[clauses][2][object_type]', 'user_follow'],
  ['filter[clauses][2][operator]', 'one_of'],
  ['filter[clauses][2][field]', '/data/follows_user/id'],
  ['filter[clauses][2][value][0]', aliceId],
  ['filter[clauses][2][value][1]', '999999'],
  // Messages by users who authorized the app.
  ['filter[clauses][3][object_type]', 'message'],
  ['filter[clauses][3][operator]', 'one_of'],
  ['filter[clauses][3][field]', '/data/user/id'],
  ['filter[clauses][3][value]', '$authorized_userids'],
  // Unmutes only: a boolean field compared with the text a form sends.
  ['filter[clauses][4][object_type]', 'mute'],
  ['filter[clauses][4][operator]', 'equals'],
  ['filter[clauses][4][field]', '/meta/is_deleted'],
  ['filter[clauses][4][value]', 'true'],
]

async function grant(server: Serving, fields: Record<string, string>): Promise<string> {
  const res = await fetch(`${server.url}/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })
  if (res.status !== 200) throw new Error(`${fields.grant_type} grant answered ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { access_token: string }).access_token
}

/** The next `count` frames of the stream, each within `ms`. */
async function framesFor(stream: StreamClient, count: number, ms = 10_000): Promise<Frame[]> {
  const got: Frame[] = []
  for (let i = 0; i < count; i++) got.push(await stream.next(ms))
  return got
}

/** A frame as one word: its type, marked when it is a deletion. */
const kind = (f: Frame): string => (f.control ? `control:${f.control.type}` : `${f.meta.type}${f.meta.is_deleted ? ' deleted' : ''}`)
const kinds = (frames: Frame[]): string[] => frames.map(kind)
const texts = (frames: Frame[]): string[] => frames.map((f) => f.data?.text)
/** What identifies an event across connections. */
const eventKey = (f: Frame): string => `${f.meta.type}:${f.meta.id}:${f.meta.is_deleted}`

const settle = (ms = 500) => new Promise((r) => setTimeout(r, ms))

/** The endpoint on the server now running: its path (the credential) stays, the port is the new server's. */
const on = (server: Serving, endpoint: string): string => `${server.url}${new URL(endpoint).pathname}`

t.test('a push service consumes its app streams through a graceful restart and a kill -9', async (t) => {
  const dir = tempDir(t)
  const d = ['--data-dir', dir]
  let server = await serve(dir)
  t.teardown(() => server.stop())

  // The operator's commands, each a process of its own, at once.
  const [push, other, ...created] = await Promise.all([
    svcJson(['app', 'create', '--name', 'Pager Push', ...d]) as Promise<Client>,
    svcJson(['app', 'create', '--name', 'Other Client', ...d]) as Promise<Client>,
    ...[
      ['alice', 'correct horse'],
      ['bob', 'battery staple'],
      ['carol', 'tr0ub4dor&3'],
    ].map(([username, password]) => svcJson(['user', 'create', '--username', username, '--password', password, ...d])),
  ])
  const scope = 'stream write_post follow messages'
  // alice and bob authorize the push service; carol only another client, so the app sees her only in public.
  const alice: Person = { id: String(created[0].id), token: await signIn(server, push, 'alice', 'correct horse', scope) }
  const bob: Person = { id: String(created[1].id), token: await signIn(server, push, 'bob', 'battery staple', scope) }
  const carol: Person = { id: String(created[2].id), token: await signIn(server, other, 'carol', 'tr0ub4dor&3', scope) }
  const appToken = await grant(server, { grant_type: 'client_credentials', client_id: push.client_id, client_secret: push.client_secret })

  const act = async (who: Person, method: string, path: string, body?: unknown) => {
    const res = await api(server, who.token, method, path, body)
    if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`)
    return res.body.data
  }

  let plain!: { id: string; endpoint: string }
  let urgent!: { id: string; endpoint: string; filter: any }
  let plainReader!: StreamClient & { status: number }
  let urgentReader!: StreamClient & { status: number }
  /** Every event the plain stream's consumer was sent, in order. */
  const seen: string[] = []
  /** And the filtered stream's. */
  const urgentSeen: string[] = []

  await t.test('the app makes a plain stream (JSON) and a filtered one (form-encoded, nested keys)', async (t) => {
    const made = await api(server, appToken, 'POST', 'streams', { object_types: ALL_TYPES, type: 'long_poll', key: 'all' })
    t.equal(made.status, 200, JSON.stringify(made.body.meta))
    plain = made.body.data
    t.match(plain, { id: /^\d+$/, object_types: ALL_TYPES, type: 'long_poll', key: 'all' })
    t.match(plain.endpoint, new RegExp(`^${server.url}/channel/1/\\d+-[\\w-]{43}$`), 'a full URL on this server')
    t.notOk('filter' in plain)

    const res = await fetch(`${server.url}/stream/0/streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${appToken}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(filterForm(alice.id)).toString(),
    })
    const body = (await res.json()) as any
    t.equal(res.status, 200, `the nested form is accepted: ${JSON.stringify(body.meta)}`)
    urgent = body.data
    t.match(urgent, { object_types: ['post', 'star', 'user_follow', 'mute', 'message'], type: 'long_poll', key: 'urgent' })
    t.match(urgent.filter, { id: /^\d+$/, name: 'what the pager wants', match_policy: 'include_any' })
    t.same(
      urgent.filter.clauses,
      [
        { object_type: 'post', operator: 'matches', field: '/data/text', value: 'urgent' },
        { object_type: 'star', operator: 'equals', field: '/data/user/username', value: 'bob' },
        { object_type: 'user_follow', operator: 'one_of', field: '/data/follows_user/id', value: [alice.id, '999999'] },
        { object_type: 'message', operator: 'one_of', field: '/data/user/id', value: '$authorized_userids' },
        { object_type: 'mute', operator: 'equals', field: '/meta/is_deleted', value: 'true' },
      ],
      'five clauses, the list value rebuilt from its bracketed keys',
    )
    const listed = await api(server, appToken, 'GET', 'streams')
    t.same(
      listed.body.data.map((s: { key: string }) => s.key),
      ['all', 'urgent'],
    )
  })

  await t.test('users post, star, follow, mute and message: each event in its envelope, the filtered stream only what it lets through', async (t) => {
    plainReader = await readChunked(plain.endpoint)
    urgentReader = await readChunked(urgent.endpoint)
    t.equal(plainReader.status, 200, 'a bare GET, no Authorization header: the URL is the credential')
    t.equal(urgentReader.status, 200)
    const forged = await readChunked(plain.endpoint.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))
    t.equal(forged.status, 404, 'a forged endpoint is not found')
    forged.close()

    const start = Date.now()
    await act(bob, 'POST', 'users/@alice/follow')
    await act(bob, 'POST', 'users/@carol/mute')
    const carolsUrgent = await act(carol, 'POST', 'posts', { text: 'urgent: @bob are you there?' })
    const alicesHello = await act(alice, 'POST', 'posts', { text: 'hello @bob' })
    await act(bob, 'POST', `posts/${alicesHello.id}/star`)
    await act(carol, 'POST', `posts/${alicesHello.id}/star`)
    await act(carol, 'POST', 'users/@alice/follow')
    await act(alice, 'POST', 'users/@carol/follow')
    const channel = await act(alice, 'POST', 'channels', { type: 'com.example.chat', writers: { user_ids: [bob.id, carol.id] } })
    await act(bob, 'POST', `channels/${channel.id}/subscribe`)
    await act(carol, 'POST', `channels/${channel.id}/subscribe`)
    const alicesMessage = await act(alice, 'POST', `channels/${channel.id}/messages`, { text: 'standup in five' })
    const carolsMessage = await act(carol, 'POST', `channels/${channel.id}/messages`, { text: 'running late' })
    await act(bob, 'DELETE', 'users/@carol/mute')
    await act(alice, 'DELETE', `posts/${alicesHello.id}`)

    const all = await framesFor(plainReader, 16)
    t.same(
      kinds(all),
      [
        'user_follow',
        'mute',
        'post',
        'post',
        'star',
        'star',
        'user_follow',
        'user_follow',
        'channel',
        // alice's own, as she made the channel, then bob's and carol's.
        'channel_subscription',
        'channel_subscription',
        'channel_subscription',
        'message',
        'message',
        'mute deleted',
        'post deleted',
      ],
      'every event, in the order it happened',
    )
    t.same(await plainReader.quiet(300), [], 'each once')
    seen.push(...all.map(eventKey))
    for (const f of all) {
      t.type(f.meta.id, 'string')
      t.type(f.meta.is_deleted, 'boolean')
      t.ok(Number.isInteger(f.meta.timestamp) && f.meta.timestamp >= start - 1000 && f.meta.timestamp <= Date.now(), `${kind(f)}: timestamp in unix ms`)
      t.ok(Array.isArray(f.meta.suppress_notifications), `${kind(f)}: suppress_notifications is a list`)
      t.type(f.meta.suppress_notifications_all, 'boolean')
    }
    const [follow, mute, urgentPost, hello, bobStar, , , , chan, owner, , , aliceMsg, carolMsg, unmute, deleted] = all
    t.match(follow, { meta: { id: `${bob.id}:${alice.id}` }, data: { user: { username: 'bob' }, follows_user: { username: 'alice' } } })
    t.same(follow.meta.suppress_notifications, [])
    t.match(mute, { meta: { id: `${bob.id}:${carol.id}`, is_deleted: false }, data: { user: { username: 'bob' }, muted_user: { username: 'carol' } } })
    t.match(urgentPost, { meta: { id: carolsUrgent.id, is_deleted: false }, data: { id: carolsUrgent.id, user: { username: 'carol' } } })
    t.same(urgentPost.meta.suppress_notifications, [bob.id], 'bob muted carol: not to be told of her mention')
    t.equal(urgentPost.meta.suppress_notifications_all, false)
    t.match(hello, { meta: { id: alicesHello.id, suppress_notifications: [] }, data: { text: 'hello @bob' } })
    t.match(bobStar, { meta: { id: `${bob.id}:${alicesHello.id}` }, data: { post: { id: alicesHello.id }, user: { username: 'bob' } } })
    t.match(chan, { meta: { id: channel.id }, data: { id: channel.id, type: 'com.example.chat' } })
    t.match(owner, { meta: { id: `${alice.id}:${channel.id}`, is_deleted: false }, data: { user: { username: 'alice' }, channel: { id: channel.id } } })
    t.same(
      all.slice(9, 12).map((f) => f.data.user.username),
      ['alice', 'bob', 'carol'],
    )
    t.match(aliceMsg, { meta: { id: alicesMessage.id, channel_type: 'com.example.chat', suppress_notifications: [] }, data: { text: 'standup in five' } })
    t.same([...aliceMsg.meta.subscribed_user_ids].sort(), [alice.id, bob.id, carol.id].sort())
    t.match(carolMsg, { meta: { id: carolsMessage.id, suppress_notifications: [bob.id] }, data: { text: 'running late' } })
    t.match(unmute, { meta: { id: `${bob.id}:${carol.id}`, is_deleted: true, suppress_notifications_all: true } }, 'nobody is pushed about an unmute')
    t.match(deleted, { meta: { id: alicesHello.id, is_deleted: true, suppress_notifications_all: true } })

    const passed = await framesFor(urgentReader, 6)
    t.same(
      passed.map((f) => [kind(f), f.meta.id]),
      [
        ['user_follow', `${bob.id}:${alice.id}`],
        ['post', carolsUrgent.id],
        ['star', `${bob.id}:${alicesHello.id}`],
        ['user_follow', `${carol.id}:${alice.id}`],
        ['message', alicesMessage.id],
        ['mute deleted', `${bob.id}:${carol.id}`],
      ],
      'one event per clause, and the follow of alice both times: nothing else',
    )
    t.same(await urgentReader.quiet(300), [], 'carol’s message (she never authorized the app), the mute, alice’s post and the follow of carol stay out')
    urgentSeen.push(...passed.map(eventKey))
  })

  await t.test('graceful restart between queueing and consuming: exactly what was missed, once, in order', async (t) => {
    // The plain consumer leaves; the filtered one stays connected through the stop.
    plainReader.close()
    await plainReader.closed
    await settle()
    const before = [await act(alice, 'POST', 'posts', { text: 'queued 1' }), await act(bob, 'POST', 'posts', { text: 'urgent: queued 2' })]
    const live = await framesFor(urgentReader, 1)
    t.same(texts(live), ['urgent: queued 2'], 'the connected filtered consumer sees its one live')
    urgentSeen.push(...live.map(eventKey))

    const stopping = Date.now()
    t.equal(await server.stop(), 0, 'SIGTERM stops the server cleanly')
    const stopMs = Date.now() - stopping
    // Held up, the stop would last hapi's whole 10 s timeout (svc serve's); a busy machine is far from that.
    t.ok(stopMs < 9000, `a connected app stream does not hold up the stop (took ${stopMs} ms)`)
    await urgentReader.closed
    t.match(urgentReader.frames.at(-1), { control: { type: 'disconnect', message: /shutting down/ } }, 'the connected consumer is told why')
    server = await serve(dir)

    const after = [await act(carol, 'POST', 'posts', { text: 'queued 3' }), await act(alice, 'POST', 'posts', { text: 'urgent: queued 4' })]
    const again = await api(server, appToken, 'GET', `streams/${plain.id}`)
    t.equal(new URL(again.body.data.endpoint).pathname, new URL(plain.endpoint).pathname, 'the same endpoint after the restart')
    plainReader = await readChunked(on(server, plain.endpoint))
    t.equal(plainReader.status, 200)
    const missed = await framesFor(plainReader, 4)
    t.same(texts(missed), ['queued 1', 'urgent: queued 2', 'queued 3', 'urgent: queued 4'], 'exactly what it missed, in order')
    t.same(
      missed.map((f) => f.meta.id),
      [...before, ...after].map((p) => p.id),
    )
    t.same(await plainReader.quiet(300), [], 'nothing twice, nothing from before it left')
    seen.push(...missed.map(eventKey))

    urgentReader = await readChunked(on(server, urgent.endpoint))
    const resumed = await framesFor(urgentReader, 1)
    t.same(texts(resumed), ['urgent: queued 4'], 'the filtered stream resumes from where the stop left it')
    urgentSeen.push(...resumed.map(eventKey))
    t.same(await urgentReader.quiet(300), [], 'what it saw before the stop is not sent again')
  })

  await t.test('kill -9 with nothing connected: at most a repeat of what was delivered just before, never a gap', async (t) => {
    const one = await act(bob, 'POST', 'posts', { text: 'crash 1' })
    const first = await framesFor(plainReader, 1)
    t.equal(first[0].meta.id, one.id, 'delivered before the crash')
    seen.push(eventKey(first[0]))
    plainReader.close()
    urgentReader.close()
    await Promise.all([plainReader.closed, urgentReader.closed])
    await settle()
    const two = await act(alice, 'POST', 'posts', { text: 'urgent: crash 2' })
    // Well within the second between saves of the queues' cursors.
    const exited = new Promise((resolve) => server.child.once('exit', resolve))
    server.child.kill('SIGKILL')
    await exited
    server = await serve(dir)

    const three = await act(carol, 'POST', 'posts', { text: 'crash 3' })
    plainReader = await readChunked(on(server, plain.endpoint))
    const got: Frame[] = []
    while (!got.some((f) => f.meta?.id === three.id)) got.push(await plainReader.next())
    got.push(...(await plainReader.quiet(300)))
    const keys = got.map(eventKey)
    t.comment(`after the kill -9 the plain stream got ${JSON.stringify(kinds(got))}`)
    const repeated = keys.slice(0, keys.indexOf(eventKey({ meta: { type: 'post', id: two.id, is_deleted: false } })))
    t.same(
      got.slice(repeated.length).map((f) => f.meta.id),
      [two.id, three.id],
      'the post queued before the crash and the one after it, in order, once each, after any repeat',
    )
    t.same(repeated, seen.slice(seen.length - repeated.length), 'what repeats is the tail of what was delivered before the crash: nothing new, no gap')
    t.comment(`${repeated.length} event(s) repeated after the crash`)

    urgentReader = await readChunked(on(server, urgent.endpoint))
    const urgentGot: Frame[] = []
    while (!urgentGot.some((f) => f.meta?.id === two.id)) urgentGot.push(await urgentReader.next())
    urgentGot.push(...(await urgentReader.quiet(300)))
    t.equal(texts(urgentGot).at(-1), 'urgent: crash 2', 'the filtered stream gets the one it lets through, last')
    const urgentRepeated = urgentGot.slice(0, -1).map(eventKey)
    t.same(urgentRepeated, urgentSeen.slice(urgentSeen.length - urgentRepeated.length), 'before it at most a repeat of its own last deliveries')
    urgentReader.close()
  })

  await t.test('purge=1 skips what was queued; what comes after is delivered', async (t) => {
    plainReader.close()
    await plainReader.closed
    await settle()
    await act(alice, 'POST', 'posts', { text: 'stale 1' })
    await act(bob, 'POST', 'posts', { text: 'stale 2' })
    // The queue is emptied before the answer's headers go out.
    plainReader = await readChunked(`${on(server, plain.endpoint)}?purge=1`)
    t.equal(plainReader.status, 200)
    await act(carol, 'POST', 'posts', { text: 'fresh' })
    t.same(texts(await framesFor(plainReader, 1)), ['fresh'], 'the stale posts were skipped')
    t.same(await plainReader.quiet(300), [])
    plainReader.close()
    await plainReader.closed
    await settle()
    plainReader = await readChunked(on(server, plain.endpoint))
    t.same(await plainReader.quiet(500), [], 'and they do not come back on the next connect')
    plainReader.close()
  })
})
