/**
 * A token sent in the header or the query is checked before the body is
 * read: a caller who may not call a route never gets to send it one. Real
 * sockets, with the body held back: the answer must come without it.
 */
import http from 'node:http'
import t from 'tap'
import { listeningInstance } from '../../fixtures/streams.js'

/** Sends the headers and a first kilobyte of a large body, then waits for an answer without sending the rest. */
function answerWithoutBody(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(3 * 1024 * 1024) },
    })
    const timer = setTimeout(() => reject(new Error('no answer without the body: the server was reading it')), 5000)
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        clearTimeout(timer)
        req.destroy()
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) })
      })
    })
    req.on('error', () => undefined)
    req.write(Buffer.alloc(1024, 'a'))
  })
}

t.test('an avatar sent with a wrong token, or one without update_profile, is refused before its body is read', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const alice = await svc.person('alice', { scopes: ['basic'] })
  const wrong = await answerWithoutBody(base, '/stream/0/users/me/avatar', { authorization: 'Bearer not-a-token' })
  t.equal(wrong.status, 401)
  t.equal(wrong.body.meta.code, 401)
  const narrow = await answerWithoutBody(base, '/stream/0/users/me/cover', { authorization: `Bearer ${alice.token}` })
  t.equal(narrow.status, 403, 'a token without the scope')
  t.equal(narrow.body.meta.error_slug, 'insufficient-scope')
  const byQuery = await answerWithoutBody(base, '/stream/0/posts?access_token=not-a-token', {})
  t.equal(byQuery.status, 401, 'a token in the query, on any route with a body')
})
