/**
 * The API's cross-cutting rules as a client sees them, each checked on
 * several unrelated routes: the envelope, 404 and 405, pretty JSON, JSONP,
 * CORS, X-OAuth-Scopes, bad bodies, pagination bounds, where a token may
 * travel, and what a missing or bad token answers.
 */
import { request } from 'node:http'
import t, { type Test } from 'tap'
import { makeInstance, type Instance, type Person } from '../fixtures/instance.js'

const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',')

const inject = async (svc: Instance, method: string, url: string, headers: Record<string, string> = {}, payload?: string) => {
  const res = await svc.server.inject({ method, url, headers, payload })
  return { status: res.statusCode, headers: res.headers, text: res.payload }
}

/** An error as every route answers it: the HTTP status again in meta.code, a message and an id, no data. */
const isErrorEnvelope = (t: Test, res: { status: number; text: string; headers: Record<string, unknown> }, status: number, label: string) => {
  t.equal(res.status, status, `${label}: HTTP ${status}`)
  t.match(res.headers['content-type'], /^application\/json/, `${label}: JSON`)
  const body = JSON.parse(res.text)
  t.equal(body.meta.code, status, `${label}: meta.code`)
  t.type(body.meta.error_message, 'string', `${label}: error_message`)
  t.match(body.meta.error_id, /^[0-9a-f]{32}$/, `${label}: error_id`)
  t.notOk('data' in body, `${label}: no data`)
  return body
}

const withPosts = async (t: Test): Promise<{ svc: Instance; alice: Person; bob: Person; postId: string }> => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const post = await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'first' } })
  return { svc, alice, bob, postId: post.body.data.id }
}

t.test('unknown paths answer a 404 in the envelope, under /stream/0 and at the root, whatever the method', async (t) => {
  const svc = await makeInstance(t)
  for (const [method, url] of [
    ['GET', '/stream/0/nowhere'],
    ['GET', '/nowhere/at/all'],
    ['POST', '/stream/0/posts/1/nonsense'],
    ['DELETE', '/zzz'],
    ['GET', '/stream/1/users/1'],
  ]) {
    isErrorEnvelope(t, await inject(svc, method, url), 404, `${method} ${url}`)
  }
})

t.test('a known path with the wrong method is a 405 that names the allowed methods in Allow and in the message', async (t) => {
  const svc = await makeInstance(t)
  const cases: [string, string, string][] = [
    ['PUT', '/posts/stream/global', 'GET'],
    ['PATCH', '/stream/0/channels', 'GET,POST'],
    ['DELETE', '/stream/0/config', 'GET'],
    ['POST', '/token', 'GET,DELETE'],
  ]
  for (const [method, url, allow] of cases) {
    const res = await inject(svc, method, url)
    const body = isErrorEnvelope(t, res, 405, `${method} ${url}`)
    t.equal(res.headers.allow, allow)
    t.match(body.meta.error_message, allow)
  }
})

t.test('X-SVC-Pretty-JSON indents the answer and ends it with a newline; without it the JSON is minified', async (t) => {
  const { svc, postId } = await withPosts(t)
  for (const url of ['/users/@alice', `/stream/0/posts/${postId}`, '/posts/stream/global', '/posts/999', '/stream/0/nowhere']) {
    const pretty = await inject(svc, 'GET', url, { 'x-svc-pretty-json': '1' })
    t.equal(pretty.text, JSON.stringify(JSON.parse(pretty.text), null, 2) + '\n', `${url} pretty`)
    const plain = await inject(svc, 'GET', url)
    t.equal(plain.text, JSON.stringify(JSON.parse(plain.text)), `${url} minified`)
    t.equal(pretty.status, plain.status)
  }
})

t.test('JSONP wraps the envelope in the callback, always HTTP 200, with the real status in meta.code', async (t) => {
  const { svc, postId } = await withPosts(t)
  const cases: [string, number][] = [
    [`/posts/${postId}`, 200],
    ['/stream/0/users/999', 404],
    ['/users/me', 401],
    ['/nowhere', 404],
    ['/posts/stream/global?count=abc', 400],
  ]
  for (const [url, code] of cases) {
    const res = await inject(svc, 'GET', `${url}${url.includes('?') ? '&' : '?'}callback=App.on_data`)
    t.equal(res.status, 200, url)
    t.match(res.headers['content-type'], /^application\/javascript/)
    const m = /^App\.on_data\((.*)\)$/s.exec(res.text)
    t.ok(m, `${url} is a call of the callback`)
    t.equal(JSON.parse(m?.[1] ?? '{}').meta.code, code, `${url} meta.code`)
  }
})

t.test('a callback that is not a JavaScript name is a 400 in the plain envelope', async (t) => {
  const { svc, postId } = await withPosts(t)
  for (const callback of ['1bad', 'a(b)', 'alert(1);x', 'x y', '']) {
    for (const url of [`/posts/${postId}`, '/users/@alice']) {
      const res = await inject(svc, 'GET', `${url}?callback=${encodeURIComponent(callback)}`)
      const body = isErrorEnvelope(t, res, 400, `${url} callback=${callback}`)
      t.match(body.meta.error_message, /^Bad Request: .*callback/)
    }
  }
})

t.test('CORS: any origin may call, with the svc headers allowed in and the rate and scope headers exposed', async (t) => {
  const { svc, alice } = await withPosts(t)
  const origin = { origin: 'https://client.example' }
  for (const [url, headers] of [
    ['/users/@alice', {}],
    ['/users/me', alice.auth],
    ['/users/me', {}],
    ['/stream/0/nowhere', {}],
  ] as const) {
    const res = await inject(svc, 'GET', url, { ...origin, ...headers })
    t.equal(res.headers['access-control-allow-origin'], '*', `${url} (${res.status})`)
    t.match(res.headers['access-control-expose-headers'], /X-OAuth-Scopes/)
    t.match(res.headers['access-control-expose-headers'], /X-RateLimit-Remaining/)
  }
  for (const [url, method] of [
    ['/stream/0/posts', 'POST'],
    ['/users/me', 'GET'],
    ['/posts/1', 'DELETE'],
  ]) {
    const preflight = await inject(svc, 'OPTIONS', url, {
      ...origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization, x-svc-pretty-json, content-type',
    })
    t.equal(preflight.status, 200, `preflight ${method} ${url}`)
    t.equal(preflight.headers['access-control-allow-origin'], '*')
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase().split(',')
    for (const header of ['authorization', 'x-svc-pretty-json', 'content-type']) t.ok(allowed.includes(header), `${header} allowed`)
  }
})

t.test("every authenticated answer, errors included, names the token's scopes in X-OAuth-Scopes", async (t) => {
  const { svc, alice, postId } = await withPosts(t)
  const reader = await svc.person('carol', { scopes: ['basic', 'stream'] })
  const all = 'basic,stream,write_post,follow,update_profile,public_messages,messages,files,export'
  const cases: [string, string, Person, number, string][] = [
    ['GET', '/posts/stream', alice, 200, all],
    ['POST', `/posts/${postId}/star`, alice, 200, all],
    ['GET', '/posts/999', alice, 404, all],
    ['GET', '/posts/stream/global?count=abc', alice, 400, all],
    ['GET', '/users/me', reader, 200, 'basic,stream'],
    ['POST', '/posts', reader, 403, 'basic,stream'],
  ]
  for (const [method, url, who, status, scopes] of cases) {
    const res = await inject(svc, method, url, who.auth)
    t.equal(res.status, status, `${method} ${url}`)
    t.equal(res.headers['x-oauth-scopes'], scopes, `${method} ${url} scopes`)
  }
  t.notOk('x-oauth-scopes' in (await inject(svc, 'GET', '/posts/stream/global')).headers, 'none without a token')
})

t.test('a body that is not JSON, or not of a type the route reads, is a 4xx in the envelope, never a 500', async (t) => {
  const { svc, alice, postId } = await withPosts(t)
  const json = { ...alice.auth, 'content-type': 'application/json' }
  for (const [method, url] of [
    ['POST', '/posts'],
    ['POST', '/stream/0/channels'],
    ['PUT', '/users/me'],
    ['POST', `/posts/${postId}/star`],
  ]) {
    for (const payload of ['{"text":', 'not json at all', '[1,2']) {
      const body = isErrorEnvelope(t, await inject(svc, method, url, json, payload), 400, `${method} ${url} ${payload}`)
      t.match(body.meta.error_message, /^Bad Request: /)
    }
  }
  for (const type of ['application/xml', 'text/plain', 'image/png']) {
    const res = await inject(svc, 'POST', '/posts', { ...alice.auth, 'content-type': type }, '<post>hi</post>')
    t.ok(res.status >= 400 && res.status < 500, `${type}: ${res.status}`)
    t.equal(JSON.parse(res.text).meta.code, res.status)
  }
})

t.test('count is an integer on every paginated list, capped to 200 either way; anything else is a 400', async (t) => {
  const { svc, alice, postId } = await withPosts(t)
  const lists = [
    '/posts/stream/global',
    '/users/@alice/posts',
    '/users/@alice/followers',
    `/posts/${postId}/replies`,
    '/users/me/channels',
    '/users/me/interactions',
  ]
  for (const url of lists) {
    for (const count of ['abc', '1.5']) {
      const res = await inject(svc, 'GET', `${url}?count=${count}`, alice.auth)
      t.match(isErrorEnvelope(t, res, 400, `${url}?count=${count}`).meta.error_message, /count/)
    }
    for (const count of ['200', '201', '-201', '100000'])
      t.equal((await inject(svc, 'GET', `${url}?count=${count}`, alice.auth)).status, 200, `${url}?count=${count}`)
  }
})

t.test('a count over 200 answers 200 items and says there are more; under -200, the 200 nearest since_id', async (t) => {
  const { svc, alice } = await withPosts(t)
  const viewer = await svc.domain.auth.tokens.authenticate(alice.token)
  for (let i = 0; i < 204; i++) await svc.domain.posts.core.create(viewer, { text: `post ${i}` })
  const over = JSON.parse((await inject(svc, 'GET', '/posts/stream/global?count=500', alice.auth)).text)
  t.equal(over.data.length, 200)
  t.equal(over.meta.more, true)
  const under = JSON.parse((await inject(svc, 'GET', '/posts/stream/global?count=-500&since_id=1', alice.auth)).text)
  t.equal(under.data.length, 200)
  t.same([under.data[0].text, under.data[199].text], ['post 199', 'post 0'], 'the oldest 200 after since_id, newest first')
})

t.test('query parameters the API does not know are ignored, as the original API did', async (t) => {
  const { svc, alice, postId } = await withPosts(t)
  const plain = JSON.parse((await inject(svc, 'GET', `/posts/${postId}`, alice.auth)).text)
  const extra = await inject(svc, 'GET', `/posts/${postId}?include_client_info=1&_=1700000000000&colour=red`, alice.auth)
  t.equal(extra.status, 200)
  t.same(JSON.parse(extra.text).data, plain.data)
  t.equal((await inject(svc, 'GET', '/users/me?bogus=1', alice.auth)).status, 200)
})

t.test('a token works in the header, the query string, and a POST body (JSON or form); a GET or DELETE body is never read', async (t) => {
  const { svc, alice, bob, postId } = await withPosts(t)
  t.equal((await inject(svc, 'GET', `/users/me?access_token=${alice.token}`)).status, 200, 'query')
  t.equal((await inject(svc, 'DELETE', `/posts/${postId}/star?access_token=${alice.token}`)).status, 200, 'query on a DELETE')
  const json = await inject(svc, 'POST', '/posts', { 'content-type': 'application/json' }, JSON.stringify({ text: 'by body', access_token: bob.token }))
  t.equal(JSON.parse(json.text).data.user.username, 'bob', 'JSON body')
  const form = await inject(svc, 'POST', '/stream/0/users/@alice/follow', { 'content-type': 'application/x-www-form-urlencoded' }, `access_token=${bob.token}`)
  t.equal(JSON.parse(form.text).data.you_follow, true, 'form body')
  const body = JSON.stringify({ access_token: alice.token })
  for (const [method, url] of [
    ['DELETE', `/posts/${postId}`],
    ['DELETE', '/users/@bob/follow'],
    ['GET', '/users/me'],
    ['GET', '/posts/stream'],
  ]) {
    const res = await inject(svc, method, url, { 'content-type': 'application/json' }, body)
    t.equal(
      isErrorEnvelope(t, res, 401, `${method} ${url}`).meta.error_message,
      'Call requires authentication: This resource requires authentication and no token was provided.',
    )
  }
  t.equal(JSON.parse((await inject(svc, 'GET', `/posts/${postId}`)).text).data.text, 'first', 'the DELETE with a body token deleted nothing')
})

t.test('`me` without a token is a client error that says a token is needed', async (t) => {
  const svc = await makeInstance(t)
  for (const url of ['/users/me', '/stream/0/users/me/posts', '/users/me/stars', '/users/me/following', '/users/me/mentions', '/users/me/channels']) {
    const res = await inject(svc, 'GET', url)
    t.ok(res.status === 400 || res.status === 401, `${url}: ${res.status}`)
    const body = isErrorEnvelope(t, res, res.status, url)
    t.match(body.meta.error_message, /token/, url)
  }
})

t.test('a bad token is a 401 invalid-token everywhere, even where no token is needed', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  for (const url of ['/users/@alice', '/posts/stream/global', '/stream/0/config', '/users/me', '/nowhere']) {
    for (const [how, res] of [
      ['header', await inject(svc, 'GET', url, { authorization: 'Bearer made-up' })],
      ['query', await inject(svc, 'GET', `${url}?access_token=made-up`)],
    ] as const) {
      t.equal(isErrorEnvelope(t, res, 401, `${url} (${how})`).meta.error_slug, 'invalid-token')
    }
  }
})

t.test('a multipart body to an unknown path is a 404 in the envelope, whatever the method', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const payload = '--XyZ\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nnot really a png\r\n--XyZ--\r\n'
  const headers = { ...alice.auth, 'content-type': 'multipart/form-data; boundary=XyZ' }
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    for (const url of ['/stream/0/users/me/avatar/nowhere', '/nowhere']) {
      t.equal(isErrorEnvelope(t, await inject(svc, method, url, headers, payload), 404, `${method} ${url}`).meta.error_message, 'Not found')
    }
  }
  const wrongMethod = await inject(svc, 'PUT', '/stream/0/users/me/avatar', headers, payload)
  isErrorEnvelope(t, wrongMethod, 405, 'PUT to the avatar')
  t.equal(wrongMethod.headers.allow, 'GET,POST')
})

t.test('an unknown path never reads the body: malformed, of any type or too large, it is a 404', async (t) => {
  const svc = await makeInstance(t)
  const cases: [string, Record<string, string>, string | Buffer][] = [
    ['JSON that does not parse', { 'content-type': 'application/json' }, '{"text":'],
    ['multipart without a boundary', { 'content-type': 'multipart/form-data' }, 'zz'],
    ['a type no route reads', { 'content-type': 'application/xml' }, '<post>hi</post>'],
    ['a content-type that does not parse', { 'content-type': '/;;' }, 'zz'],
    ['gzip that is not gzip', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'zz'],
    ['2 MB, over the 1 MB any route takes', { 'content-type': 'application/octet-stream' }, Buffer.alloc(2 * 1024 * 1024)],
  ]
  for (const [label, headers, payload] of cases) {
    const res = await svc.server.inject({ method: 'POST', url: '/stream/0/nowhere', headers, payload })
    isErrorEnvelope(t, { status: res.statusCode, headers: res.headers, text: res.payload }, 404, label)
  }
})

t.test('over a real connection, an unknown path answers its 404 before the body has arrived', { timeout: 10_000 }, async (t) => {
  const svc = await makeInstance(t)
  await svc.server.start()
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    // The body announced is under the 1 MB limit and never ends: a server that waited for it would never answer.
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: svc.server.info.port,
          method,
          path: '/stream/0/nowhere',
          headers: { 'content-type': 'multipart/form-data; boundary=XyZ', 'content-length': String(512 * 1024) },
        },
        async (res) => {
          let text = ''
          for await (const chunk of res) text += chunk
          resolve({ status: res.statusCode ?? 0, body: text })
        },
      )
      req.on('error', reject)
      req.write(Buffer.alloc(16 * 1024))
    })
    t.equal(status, 404, method)
    t.equal(JSON.parse(body).meta.code, 404, `${method}: in the envelope`)
  }
})

t.test('limits: at most 200 ids per request for users and channels', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  for (const path of ['/users', '/channels']) {
    const over = await svc.call('GET', `/stream/0${path}?ids=${upTo(201)}`, { token: alice.token })
    t.equal(over.status, 400, `${path}: 201 ids`)
    t.equal(over.body.meta.error_message, 'Bad Request: at most 200 ids are allowed')
    t.equal((await svc.call('GET', `/stream/0${path}?ids=${upTo(200)}`, { token: alice.token })).status, 200, `${path}: 200 ids`)
  }
})

t.test('version 0: this area answers alike under /stream/0 and at the root', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  for (const [url, token] of [
    ['/token', alice.token],
    ['/apps/me/tokens/user_ids', svc.appToken],
    ['/users/@alice', undefined],
    [`/users?ids=${alice.user.id}`, alice.token],
    ['/config', undefined],
  ] as const) {
    const versioned = await svc.call('GET', `/stream/0${url}`, { token })
    const root = await svc.call('GET', url, { token })
    t.equal(versioned.status, 200, `/stream/0${url}`)
    t.same(root.body, versioned.body, `${url} at the root`)
  }
  t.equal((await svc.call('GET', '/stream/1/token', { token: alice.token })).status, 404, 'no other version')
})

t.test('a JSONP call as jQuery makes it, with its _ cache buster, is answered', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  for (const url of ['/stream/0/config', '/stream/0/users/@alice', `/stream/0/token?access_token=${alice.token}`]) {
    const res = await svc.server.inject(`${url}${url.includes('?') ? '&' : '?'}callback=jQuery1910_17&_=1380000000000`)
    t.equal(res.statusCode, 200, url)
    t.equal(JSON.parse(/^jQuery1910_17\((.*)\)$/s.exec(res.payload)?.[1] ?? '{}').meta.code, 200, `${url} meta.code`)
  }
})
