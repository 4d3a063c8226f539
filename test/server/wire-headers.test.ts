/**
 * On the wire, svc spells its own headers as App.net did: client libraries
 * look up `X-OAuth-Scopes` exactly, whatever HTTP says about case. Only a
 * real socket shows the spelling (inject's answers lower-case every name),
 * so alice's calls go to a listening server and the raw bytes are read.
 */
import t from 'tap'
import { connect } from 'node:net'
import { makeInstance, type Instance } from '../fixtures/instance.js'

/** Sends one raw HTTP/1.1 request and answers the response's head: the status line and header lines as sent. */
function rawHead(svc: Instance, method: string, path: string, headers: Record<string, string> = {}, body = ''): Promise<string> {
  const port = Number(svc.server.info.port)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close', `Content-Length: ${Buffer.byteLength(body)}`]
      for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`)
      // Written, not ended: the server closes the connection once it has answered (Connection: close).
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`)
    })
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1').split('\r\n\r\n')[0]))
  })
}

const headerLine = (head: string, name: string): string | undefined =>
  head.split('\r\n').find((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))

t.test('alice’s calls carry X-OAuth-Scopes and the rate headers in App.net’s spelling; a 429 carries Retry-After', async (t) => {
  const svc = await makeInstance(t, {
    rate_limits: {
      enabled: true,
      authenticated: { limit: 100, window_s: 3600 },
      write: { limit: 1, window_s: 60 },
      unauthenticated: { limit: 50, window_s: 60 },
    },
  })
  const alice = await svc.person('alice', { scopes: ['stream', 'write_post'] })
  await svc.server.start()

  const me = await rawHead(svc, 'GET', '/stream/0/users/me', { Authorization: `Bearer ${alice.token}` })
  t.match(me, /^HTTP\/1\.1 200 /)
  t.equal(headerLine(me, 'X-OAuth-Scopes'), 'X-OAuth-Scopes: basic,stream,write_post')
  t.equal(headerLine(me, 'X-RateLimit-Limit'), 'X-RateLimit-Limit: 100')
  t.equal(headerLine(me, 'X-RateLimit-Remaining'), 'X-RateLimit-Remaining: 99')
  t.match(headerLine(me, 'X-RateLimit-Reset'), /^X-RateLimit-Reset: \d+$/)
  t.equal(headerLine(me, 'X-SVC-Migrations-Enabled'), 'X-SVC-Migrations-Enabled: ')
  t.equal(me.split('\r\n').filter((line) => /^x-ratelimit-limit:/i.test(line)).length, 1, 'one line per header, not a second lower-cased copy')

  const post = { Authorization: `Bearer ${alice.token}`, 'Content-Type': 'application/json' }
  t.match(await rawHead(svc, 'POST', '/stream/0/posts', post, '{"text":"hello"}'), /^HTTP\/1\.1 200 /)
  const refused = await rawHead(svc, 'POST', '/stream/0/posts', post, '{"text":"again"}')
  t.match(refused, /^HTTP\/1\.1 429 /)
  t.match(headerLine(refused, 'Retry-After'), /^Retry-After: \d+$/)
  t.match(headerLine(refused, 'X-RateLimit-Remaining'), /^X-RateLimit-Remaining: 0$/)
  t.equal(headerLine(refused, 'X-OAuth-Scopes'), 'X-OAuth-Scopes: basic,stream,write_post', 'errors too')

  const anonymous = await rawHead(svc, 'GET', '/stream/0/users/@alice')
  t.equal(headerLine(anonymous, 'X-RateLimit-Limit'), 'X-RateLimit-Limit: 50')
  t.equal(headerLine(anonymous, 'X-OAuth-Scopes'), undefined, 'no token, no scopes')
})
