/**
 * Headers that keep browsers from misreading svc's answers: every answer,
 * errors and unknown paths included, is `nosniff` (a JSON body is never
 * taken for HTML or script); HTML pages, the OAuth consent page first, are
 * never framed (clickjacking) and send no referrer.
 */
import t from 'tap'
import { makeInstance } from '../fixtures/instance.js'

t.test('every answer is nosniff: data, errors, unknown paths, JSONP, pages, files and redirects', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const answers: [string, Parameters<typeof svc.server.inject>[0], number][] = [
    ['data', { url: '/stream/0/users/@alice', headers: alice.auth }, 200],
    ['a missing token', { url: '/stream/0/users/me' }, 401],
    ['an unknown path', { url: '/stream/0/nowhere' }, 404],
    ['a wrong method', { method: 'DELETE', url: '/stream/0/config' }, 405],
    ['bad input', { url: '/stream/0/users/@alice/posts?count=many' }, 400],
    ['a path that is not UTF-8', { url: '/stream/0/users/%E0%A4%A' }, 400],
    ['JSONP', { url: '/stream/0/users/@alice?callback=show' }, 200],
    ['a page', { url: '/@alice' }, 200],
    ['a missing page', { url: '/@nobody' }, 404],
    ['the web client', { url: '/' }, 200],
    ['an avatar redirect', { url: '/users/@alice/avatar' }, 302],
  ]
  for (const [what, request, status] of answers) {
    const res = await svc.server.inject(request)
    t.equal(res.statusCode, status, what)
    t.equal(res.headers['x-content-type-options'], 'nosniff', `${what} is nosniff`)
  }
})

t.test('the OAuth pages and every other page refuse to be framed and send no referrer', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const hello = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'hello' } })).body.data
  const query = new URLSearchParams({ client_id: svc.app.client_id, response_type: 'code', redirect_uri: 'http://client.example/callback', scope: 'basic' })
  for (const url of [`/oauth/authorize?${query}`, `/oauth/authenticate?${query}`, '/signup', '/@alice', `/@alice/post/${hello.id}`, '/@nobody', '/', '/home']) {
    const res = await svc.server.inject(url)
    t.match(res.headers['content-type'], /^text\/html/, url)
    t.equal(res.headers['x-frame-options'], 'DENY', `${url}: X-Frame-Options`)
    t.match(res.headers['content-security-policy'], /(^|; )frame-ancestors 'none'(;|$)/, `${url}: frame-ancestors`)
    t.equal(res.headers['referrer-policy'], 'no-referrer', `${url}: Referrer-Policy`)
    t.equal(res.headers['x-content-type-options'], 'nosniff', `${url}: nosniff`)
  }
})
