/** `GET /openapi.json`: the OpenAPI 3 document of every route the server serves, made from the routes' own schemas and the API objects' types. */
import t from 'tap'
import { API_SCHEMAS } from '../../../server/api-document/api-schemas.js'
import { makeInstance } from '../../fixtures/instance.js'
import { apiSchemas } from '../../tools/api-schemas.js'

t.test('every route the server serves is in the document, at the address clients call', async (t) => {
  const svc = await makeInstance(t)
  const res = await svc.server.inject('/openapi.json')
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^application\/json/)
  const doc = JSON.parse(res.payload)
  t.equal(doc.openapi, '3.1.0')
  t.match(doc.info, { title: 'svc (svc)', version: String })
  const missing: string[] = []
  for (const route of svc.server.table()) {
    if (route.path === '/{p*}') continue
    const rootOnly = route.settings.plugins?.svc?.rootOnly
    const path = (rootOnly ? route.path : `/stream/0${route.path}`).replace(/\{(\w+)[?*]\d*\}/g, '{$1}')
    if (!doc.paths[path]?.[route.method]) missing.push(`${route.method} ${path}`)
  }
  t.same(missing, [], 'no route left out')
  t.ok(Object.keys(doc.paths).length > 100)
})

t.test('an operation names its parameters, its body and who may call it, as the route checks them', async (t) => {
  const svc = await makeInstance(t)
  const doc = JSON.parse((await svc.server.inject('/openapi.json')).payload)
  const lookup = doc.paths['/stream/0/posts/{post_id}'].get
  t.match(
    lookup.parameters.find((p: any) => p.in === 'path'),
    { name: 'post_id', required: true, schema: { type: 'string', pattern: String } },
  )
  t.match(
    lookup.parameters.find((p: any) => p.name === 'include_annotations'),
    { in: 'query', required: false, schema: { type: 'boolean' } },
  )
  t.same(lookup.security, [{}, { userToken: [] }, { appToken: [] }], 'no token needed, a user or an app token used')
  t.same(doc.paths['/stream/0/posts/stream/unified'].get.security, [{ userToken: ['stream'] }], 'a user token with stream')
  t.same(
    doc.paths['/stream/0/channels/{channel_id}'].get.security,
    [{}, { userToken: ['public_messages'] }, { userToken: ['messages'] }, { appToken: [] }],
    'no token (a public channel), a user token with either messaging scope, or an app token',
  )
  const create = doc.paths['/stream/0/posts'].post
  t.same(create.security, [{ userToken: ['write_post'] }], 'a user token with write_post')
  t.same(create['x-svc-scopes'], ['write_post'])
  // The route's joi schema bounds the text's length before the domain counts its characters.
  t.equal(create.requestBody.content['application/json'].schema.properties.text.maxLength, 20000, "the body's limits are the route's")
  t.ok(doc.paths['/oauth/access_token'].post, 'OAuth at the root')
  t.notOk(doc.paths['/stream/0/oauth/access_token'], 'and only there')
  t.match(doc.components.securitySchemes, { userToken: { type: 'http', scheme: 'bearer' }, appToken: { type: 'http', scheme: 'bearer' } })
})

t.test('the same document as a page to read: every operation, who may call it, its parameters and body', async (t) => {
  const svc = await makeInstance(t)
  const doc = JSON.parse((await svc.server.inject('/openapi.json')).payload)
  const res = await svc.server.inject('/openapi')
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^text\/html/)
  const page = res.payload
  const missing = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods as object)
      .map((method) => `<code>${method.toUpperCase()} ${path}</code>`)
      .filter((heading) => !page.includes(heading)),
  )
  t.same(missing, [], 'every operation has its heading')
  t.match(page, /<code>POST \/stream\/0\/posts<\/code><\/h2><p>Who may call it: a user token with write_post\.<\/p>/)
  t.match(page, /<code>text<\/code><\/td><td><\/td><td>string, up to 20000 characters<\/td>/)
  t.match(page, /<code>post_id<\/code><\/td><td>path<\/td><td>yes<\/td>/)
  t.match(page, /Who may call it: no token, or a user token, or an app token\./, 'routes open to anyone say so')
})

t.test('every API route names its answer, an object of the document: the answer is its type in the envelope', async (t) => {
  const svc = await makeInstance(t)
  const doc = JSON.parse((await svc.server.inject('/openapi.json')).payload)
  const silent = svc.server
    .table()
    .filter((route) => route.path !== '/{p*}' && route.settings.plugins?.svc?.raw !== true && route.settings.plugins?.svc?.answer === undefined)
    .map((route) => `${route.method} ${route.path}`)
  t.same(silent, [], 'no enveloped route leaves its answer unsaid')
  const unknown = Object.values(doc.paths)
    .flatMap((methods) => Object.values(methods as Record<string, { 'x-svc-answer'?: string | string[] }>))
    .flatMap((op) => [op['x-svc-answer'] ?? []].flat())
    .map((answer) => answer.replace(/\[\]$/, ''))
    .filter((name) => !['string', 'number', 'object'].includes(name) && !doc.components.schemas[name])
  t.same(unknown, [], 'every answer names a schema of the document')
  const lookup = doc.paths['/stream/0/posts/{post_id}'].get
  t.equal(lookup['x-svc-answer'], 'Post')
  t.match(lookup.responses['200'].content['application/json'].schema, {
    properties: { data: { $ref: '#/components/schemas/Post' }, meta: { $ref: '#/components/schemas/Meta' } },
    required: ['data', 'meta'],
  })
  t.same(doc.paths['/stream/0/posts/stream/global'].get.responses['200'].content['application/json'].schema.properties.data, {
    type: 'array',
    items: { $ref: '#/components/schemas/PaginatedPost' },
  })
  t.match(doc.components.schemas.PaginatedPost, { properties: { pagination_id: { type: 'string' }, thread_id: { type: 'string' } } })
  t.ok(doc.components.schemas.PaginatedPost.required.includes('pagination_id'), 'a page’s items carry their place')
  t.same(doc.paths['/stream/0/posts/marker'].post['x-svc-answer'], ['Marker', 'Marker[]'], 'a route whose answer depends on the request names each')
  t.match(doc.components.schemas.Post, {
    type: 'object',
    properties: { id: { type: 'string' }, user: { $ref: '#/components/schemas/User' } },
    additionalProperties: false,
  })
  t.notMatch(JSON.stringify(doc.components.schemas), '#/definitions/', 'references point into the document')
  const page = (await svc.server.inject('/openapi')).payload
  t.match(page, /Answers a list of <a href="#object-PaginatedPost">PaginatedPost<\/a> in the envelope/, 'the page says what a list answers')
  t.match(page, /<section id="object-Post"><h2>Post<\/h2>.*<code>thread_id<\/code><\/td><td>always<\/td><td>string<\/td>/s, 'and shows each object')
})

t.test('the API objects’ schemas kept in the server are those of their TypeScript types today (npm run api-schemas)', async (t) => {
  t.same(API_SCHEMAS, apiSchemas(), 'server/api-document/api-schemas.ts is current')
})
