/**
 * User streams against a real `svc serve` process, over real sockets: alice
 * signs in with the password grant as an outside client would, follows bob
 * and watches her unified stream over a WebSocket and over chunked HTTP
 * while bob posts through HTTP. Her streams survive a graceful restart
 * (exactly what she missed, once) and a kill -9 (at most a repeat of what
 * came before the crash, never a gap). One data dir, three servers.
 */
import t from 'tap'
import { openChunked, openWebSocket, type Frame, type StreamClient } from '../fixtures/streams.js'
import { serve, svcJson, tempDir, type Serving } from '../fixtures/svc-process.js'
import { signIn, api } from '../fixtures/password-grant.js'

interface Client {
  client_id: string
  password_grant_secret: string
}

/** Subscribes a stream to alice's unified stream; answers the subscription ids of the answer. */
const subscribeUnified = async (server: Serving, token: string, connectionId: string, subscriptionId: string): Promise<string[] | undefined> =>
  (await api(server, token, 'GET', `posts/stream/unified?connection_id=${connectionId}&subscription_id=${subscriptionId}`)).body.meta.subscription_ids

/** The next `count` frames of the stream, each within `ms`. */
async function framesFor(stream: StreamClient, count: number, ms = 10_000): Promise<Frame[]> {
  const got: Frame[] = []
  for (let i = 0; i < count; i++) got.push(await stream.next(ms))
  return got
}

const texts = (frames: Frame[]): string[] => frames.map((f) => f.data[0].text)

const settle = (ms = 500) => new Promise((r) => setTimeout(r, ms))

t.test('alice watches bob post over her user streams, through a graceful restart and a kill -9', async (t) => {
  const dir = tempDir(t)
  const d = ['--data-dir', dir]
  let server = await serve(dir)
  t.teardown(() => server.stop())

  const app = (await svcJson(['app', 'create', '--name', 'Stream Client', ...d])) as Client
  await svcJson(['user', 'create', '--username', 'alice', '--password', 'correct horse', '--name', 'Alice', ...d])
  await svcJson(['user', 'create', '--username', 'bob', '--password', 'battery staple', '--name', 'Bob', ...d])
  const aliceToken = await signIn(server, app, 'alice', 'correct horse', 'stream follow')
  const bobToken = await signIn(server, app, 'bob', 'battery staple', 'stream write_post')
  t.equal((await api(server, aliceToken, 'POST', 'users/@bob/follow')).status, 200, 'alice follows bob')
  const bobPosts = async (text: string) => {
    const res = await api(server, bobToken, 'POST', 'posts', { text })
    if (res.status !== 200) throw new Error(`bob's post answered ${res.status}: ${JSON.stringify(res.body)}`)
    return res.body.data as { id: string; text: string }
  }

  let ws!: StreamClient
  /** What the WebSocket stream was sent since it resumed after the graceful restart, in order. */
  const seen: string[] = []
  let chunked!: StreamClient & { status: number }

  await t.test('a WebSocket and a chunked consumer each get bob’s post, in the documented shape', async (t) => {
    ws = await openWebSocket(server.url, aliceToken)
    t.match(ws.connectionId, /^[\w-]{10,}$/, 'the first frame carries the connection id')
    t.same(await subscribeUnified(server, aliceToken, ws.connectionId, 'home'), ['home'], 'subscribing answers meta.subscription_ids')
    chunked = await openChunked(server.url, aliceToken)
    t.equal(chunked.status, 200)
    t.match(chunked.connectionId, /^[\w-]{10,}$/, 'the Connection-Id header is set')
    t.not(chunked.connectionId, ws.connectionId, 'a stream of its own')
    t.same(await subscribeUnified(server, aliceToken, chunked.connectionId, 'unified'), ['unified'])

    const made = await bobPosts('hello alice')
    for (const [stream, sub] of [
      [ws, 'home'],
      [chunked, 'unified'],
    ] as const) {
      const frame = await stream.next()
      t.equal(frame.meta.type, 'post')
      t.same(frame.meta.subscription_ids, [sub])
      t.equal(frame.meta.connection_id, stream.connectionId)
      t.equal(frame.meta.min_id, made.id)
      t.equal(frame.meta.max_id, made.id)
      t.equal(frame.meta.more, false)
      t.equal(frame.data.length, 1)
      t.equal(frame.data[0].id, made.id)
      t.equal(frame.data[0].text, 'hello alice')
      t.equal(frame.data[0].user.username, 'bob')
      t.same(await stream.quiet(200), [], 'once')
    }
  })

  await t.test('an unknown connection id gets a new one; a bad token is refused at the handshake with the JSON envelope', async (t) => {
    const stranger = await openWebSocket(server.url, null, `access_token=${aliceToken}&connection_id=never-seen-before`)
    t.match(stranger.connectionId, /^[\w-]{10,}$/)
    t.not(stranger.connectionId, 'never-seen-before', 'a new id, not the one asked for')
    stranger.close()
    await stranger.closed

    const refused = await openWebSocket(server.url, 'not-a-token').catch((err: unknown) => err)
    t.match(refused, { status: 401, body: { meta: { code: 401 } } }, 'a bad token: HTTP 401, meta.code 401')
    t.type((refused as { body: any }).body.meta.error_message, 'string')
    t.match(await openWebSocket(server.url, null).catch((err: unknown) => err), { status: 401, body: { meta: { code: 401 } } }, 'no token at all: 401 too')
    const chunkedRefused = await openChunked(server.url, 'not-a-token')
    t.equal(chunkedRefused.status, 401, 'the chunked flavour answers 401 as well')
    chunkedRefused.close()
  })

  await t.test('graceful restart: alice misses five posts around it and gets exactly those, in order, then live ones', async (t) => {
    // The first WebSocket consumer leaves; the chunked one and a second WebSocket stay connected through the stop.
    ws.close()
    await ws.closed
    await settle()
    const stayer = await openWebSocket(server.url, aliceToken)
    t.same(await subscribeUnified(server, aliceToken, stayer.connectionId, 'stay'), ['stay'])
    const before = [await bobPosts('before 1'), await bobPosts('before 2'), await bobPosts('before 3')]
    t.same(texts(await framesFor(chunked, 3)), ['before 1', 'before 2', 'before 3'], 'the connected chunked consumer sees them live')
    t.same(texts(await framesFor(stayer, 3)), ['before 1', 'before 2', 'before 3'], 'and so does the second WebSocket')

    const stopping = Date.now()
    t.equal(await server.stop(), 0, 'SIGTERM stops the server cleanly')
    const stopMs = Date.now() - stopping
    // Held up, the stop would last hapi's whole 10 s timeout (svc serve's); a busy machine is far from that.
    t.ok(stopMs < 9000, `connected streams do not hold up the stop (took ${stopMs} ms)`)
    t.match(await stayer.closed, { code: 4000, reason: /shutting down.*connection_id/ }, 'the WebSocket is closed with the reason')
    await chunked.closed
    t.match(chunked.frames.at(-1), { meta: { disconnected: true, error_message: /shutting down/ } }, 'the chunked stream ends with a disconnect line')
    server = await serve(dir)

    const after = [await bobPosts('after 1'), await bobPosts('after 2')]
    const wsAgain = await openWebSocket(server.url, aliceToken, `connection_id=${ws.connectionId}`)
    t.equal(wsAgain.connectionId, ws.connectionId, 'resumed: the same id')
    const missed = await framesFor(wsAgain, 5)
    t.same(texts(missed), ['before 1', 'before 2', 'before 3', 'after 1', 'after 2'], 'exactly what she missed, in order')
    t.same(
      missed.map((f) => f.data[0].id),
      [...before, ...after].map((p) => p.id),
    )
    for (const f of missed) t.same([f.meta.type, f.meta.subscription_ids, f.meta.connection_id], ['post', ['home'], ws.connectionId])
    t.same(await wsAgain.quiet(300), [], 'nothing twice')

    const chunkedAgain = await openChunked(server.url, aliceToken, `connection_id=${chunked.connectionId}`)
    t.equal(chunkedAgain.connectionId, chunked.connectionId, 'the chunked stream resumes too')
    t.same(texts(await framesFor(chunkedAgain, 2)), ['after 1', 'after 2'], 'from exactly where the stop left it')
    t.same(await chunkedAgain.quiet(300), [], 'none of what it saw before the stop again')
    const stayerAgain = await openWebSocket(server.url, aliceToken, `connection_id=${stayer.connectionId}`)
    t.equal(stayerAgain.connectionId, stayer.connectionId)
    t.same(texts(await framesFor(stayerAgain, 2)), ['after 1', 'after 2'], 'so does the second WebSocket')
    t.same(await stayerAgain.quiet(300), [])
    stayerAgain.close()

    await bobPosts('live after the restart')
    const live = await framesFor(wsAgain, 1)
    t.same(texts(live), ['live after the restart'])
    seen.push(...[...missed, ...live].map((f) => f.data[0].id))
    t.same(texts(await framesFor(chunkedAgain, 1)), ['live after the restart'])
    chunkedAgain.close()
    ws = wsAgain
  })

  await t.test('kill -9: alice resumes with at most a repeat of what came before the crash, never a gap', async (t) => {
    const one = await bobPosts('crash 1')
    const first = await framesFor(ws, 1)
    t.same([first[0].data[0].id, first[0].data[0].text], [one.id, 'crash 1'], 'alice has post 1 when the server dies')
    seen.push(first[0].data[0].id)
    const exited = new Promise((resolve) => server.child.once('exit', resolve))
    server.child.kill('SIGKILL')
    await exited
    await ws.closed
    server = await serve(dir)

    const two = await bobPosts('crash 2')
    const three = await bobPosts('crash 3')
    const again = await openWebSocket(server.url, aliceToken, `connection_id=${ws.connectionId}`)
    t.equal(again.connectionId, ws.connectionId, 'resumed: the same id')
    const got: Frame[] = []
    while (!got.some((f) => f.data[0].id === three.id)) got.push(await again.next())
    got.push(...(await again.quiet(300)))
    const ids = got.map((f) => f.data[0].id)
    t.comment(`after the kill -9 alice got ${JSON.stringify(texts(got))}`)
    const repeated = ids.slice(0, ids.indexOf(two.id))
    t.same(ids.slice(repeated.length), [two.id, three.id], 'both posts made after the restart, in order, once each, after any repeat')
    t.same(repeated, seen.slice(seen.length - repeated.length), 'what repeats is the tail of what she was sent before the crash: no gap, nothing new')
    t.comment(`${repeated.length} event(s) repeated after the crash`)

    await bobPosts('live after the crash')
    t.same(texts(await framesFor(again, 1)), ['live after the crash'])
    again.close()
  })
})
