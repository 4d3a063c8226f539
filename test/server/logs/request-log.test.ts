/**
 * The server's log, as `svc serve` writes it: a JSON line per answered
 * request with who asked what and how it went, the `error_id` of an error
 * answer, the cause of an unexpected error under that id, and never a token,
 * a password or a client secret, wherever the caller put them.
 */
import t from 'tap'
import { PassThrough } from 'node:stream'
import type { Logger } from 'pino'
import { makeLogger } from '../../../server/index.js'
import { makeInstance } from '../../fixtures/instance.js'
import { makeClient } from '../../fixtures/oauth.js'

/** A logger as `svc serve` makes it (its redaction included), writing to a list of lines. */
function capture(): { logger: Logger; text: string[]; lines: () => Record<string, any>[] } {
  const text: string[] = []
  const logger = makeLogger({ write: (line: string) => text.push(line) }, 'info')
  return { logger, text, lines: () => text.map((line) => JSON.parse(line)) }
}

t.test('each answered request is one JSON line: method, route, path, status, duration, request id, user and app', async (t) => {
  const log = capture()
  const svc = await makeInstance(t, {}, { logger: log.logger })
  const alice = await svc.person('alice')
  const post = await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: 'hello' } })
  const read = await svc.call('GET', `/stream/0/posts/${post.body.data.id}`, { token: alice.token })
  t.equal(read.status, 200)
  const requests = log.lines().filter((line) => line.msg === 'request')
  t.equal(requests.length, 2, 'one line per request')
  const [posted, got] = requests
  t.match(posted, { level: 30, method: 'POST', route: '/posts', path: '/posts', status: 200, user_id: alice.user.id, app: svc.app.client_id })
  t.match(got, { method: 'GET', route: '/posts/{post_id}', path: `/posts/${post.body.data.id}`, status: 200, user_id: alice.user.id })
  t.type(got.duration_ms, 'number')
  t.type(got.request_id, 'string')
  t.not(posted.request_id, got.request_id, 'each request its own id')
  t.notOk('error_id' in got, 'no error id on a success')
  const anonymous = await svc.call('GET', '/stream/0/posts/stream/global')
  const line = log.lines().at(-1)!
  t.match(line, { route: '/posts/stream/global', status: anonymous.status })
  t.notOk('user_id' in line, 'nobody signed in, no user')
})

t.test('an error answer is logged with the error_id its caller was shown', async (t) => {
  const log = capture()
  const svc = await makeInstance(t, {}, { logger: log.logger })
  const missing = await svc.call('GET', '/stream/0/posts/999999')
  t.equal(missing.status, 404)
  const line = log.lines().at(-1)!
  t.match(line, { status: 404, route: '/posts/{post_id}', error_id: missing.body.meta.error_id })
  t.type(missing.body.meta.error_id, 'string')
})

t.test('an unexpected error logs its cause under the error_id of the 500 answer', async (t) => {
  const log = capture()
  const svc = await makeInstance(t, {}, { logger: log.logger })
  const alice = await svc.person('alice')
  svc.domain.text.process = async () => {
    throw new Error('the disk is on fire')
  }
  const res = await svc.call('POST', '/stream/0/text/process', { token: alice.token, payload: { text: 'hi' } })
  t.equal(res.status, 500)
  t.equal(res.body.meta.error_message, 'Internal Server Error', 'the caller sees no cause')
  const errorId = res.body.meta.error_id
  const lines = log.lines()
  const cause = lines.find((line) => line.msg === 'unexpected error')
  t.ok(cause, 'the cause is logged')
  t.match(cause, { level: 50, error_id: errorId, err: { message: 'the disk is on fire' } })
  t.match(cause!.err.stack, /the disk is on fire/, 'with its stack')
  const request = lines.find((line) => line.msg === 'request')
  t.match(request, { status: 500, error_id: errorId, request_id: cause!.request_id }, 'the request line names the same error and request')
})

t.test('no token, password or client secret reaches the log, in a header, a query or a body', async (t) => {
  const log = capture()
  const svc = await makeInstance(t, {}, { logger: log.logger })
  const alice = await svc.person('alice', { password: 'hunter2-very-secret' })
  const robo = await makeClient(svc)
  const grant = await svc.call('POST', '/oauth/access_token', {
    payload: {
      grant_type: 'password',
      client_id: robo.client_id,
      client_secret: robo.client_secret,
      username: 'alice',
      password: 'hunter2-very-secret',
      scope: 'basic',
    },
  })
  t.equal(grant.status, 200)
  const fresh = (grant.body as unknown as { access_token: string }).access_token
  await svc.call('GET', `/stream/0/token?access_token=${alice.token}`)
  await svc.call('GET', '/stream/0/token', { token: fresh })
  await svc.call('GET', '/stream/0/token', { token: 'not-a-token-but-still-secret' })
  svc.domain.text.process = async () => {
    throw Object.assign(new Error('failed'), { password: 'hunter2-very-secret', headers: { authorization: `Bearer ${alice.token}` } })
  }
  await svc.call('POST', '/stream/0/text/process', { token: alice.token, payload: { text: 'hi' } })
  const all = log.text.join('')
  t.same(
    log
      .lines()
      .filter((line) => line.msg === 'request')
      .map((line) => line.status),
    [200, 200, 200, 401, 500],
    'every request was logged',
  )
  for (const secret of ['hunter2-very-secret', alice.token, fresh, robo.client_secret, 'not-a-token-but-still-secret']) {
    t.notOk(all.includes(secret), `${secret.slice(0, 6)}… is not in the log`)
  }
  t.match(all, /\[redacted\]/, 'what an error carried is redacted, not dropped silently')
})

t.test('a server without a logger logs nothing and answers alike', async (t) => {
  const svc = await makeInstance(t)
  const res = await svc.call('GET', '/stream/0/posts/999999')
  t.equal(res.status, 404)
  t.notOk('logger' in svc.server, 'hapi-pino is not registered')
})

t.test('on a terminal each request is one readable line: method, path, status, time, and the error_id of an error', async (t) => {
  const terminal = Object.assign(new PassThrough(), { isTTY: true })
  let text = ''
  terminal.on('data', (chunk: Buffer) => (text += chunk.toString()))
  const svc = await makeInstance(t, {}, { logger: makeLogger(terminal, 'info') })
  const alice = await svc.person('alice')
  await svc.call('GET', '/stream/0/posts/stream/global', { token: alice.token })
  const missing = await svc.call('GET', '/stream/0/posts/999999')
  await new Promise((resolve) => setTimeout(resolve, 50))
  const lines = text
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .filter(Boolean)
  t.match(lines[0], new RegExp(`^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] INFO: GET /posts/stream/global 200 [\\d.]+ ms {2}user ${alice.user.id}$`))
  t.match(lines[1], new RegExp(`INFO: GET /posts/999999 404 [\\d.]+ ms {2}error_id ${missing.body.meta.error_id}$`))
  t.equal(lines.length, 2, 'a line each, no field lines under them')
})
