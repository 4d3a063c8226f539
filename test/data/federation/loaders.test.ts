/**
 * The loaders svc gives Fedify (data/federation/documents/loaders.ts): the
 * well-known contexts come from Fedify's preloaded copies, never fetched,
 * tagged `static` so that jsonld.js keeps them across expansions; any other
 * document is fetched once and then answered from the key-value store.
 */
import { createServer } from 'node:http'
import t from 'tap'
import { MemoryKvStore } from '@fedify/fedify'
import { loaderFactories, STATIC_CONTEXTS } from '../../../data/federation/documents/loaders.js'

t.test('every static context is answered without a fetch, tagged static, and never stored', async (t) => {
  const kv = new MemoryKvStore()
  const { contextLoaderFactory } = loaderFactories({ kv, allowPrivateAddress: false, userAgent: 'svc-test' })
  const realFetch = globalThis.fetch
  let fetched = 0
  globalThis.fetch = (() => {
    fetched++
    return Promise.reject(new Error('no fetch in this test'))
  }) as typeof fetch
  t.teardown(() => {
    globalThis.fetch = realFetch
  })
  const load = contextLoaderFactory()
  for (const url of STATIC_CONTEXTS) {
    const doc = (await load(url)) as { document: unknown; documentUrl: string; tag?: string }
    t.equal(doc.documentUrl, url)
    t.equal(doc.tag, 'static', `${url} is tagged static`)
    t.match(doc.document, { '@context': {} }, `${url} is a context`)
    t.equal(await kv.get(['_fedify', 'remoteDocument', url]), undefined, `${url} is not put in the store`)
  }
  t.equal(fetched, 0, 'nothing was fetched')
})

t.test('another document is fetched once, kept in the store, and not tagged static', async (t) => {
  let served = 0
  const server = createServer((_req, res) => {
    served++
    res.writeHead(200, { 'content-type': 'application/ld+json' })
    res.end(JSON.stringify({ '@context': { name: 'https://example.com/ns#name' } }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/context`
  const kv = new MemoryKvStore()
  const { contextLoaderFactory, documentLoaderFactory } = loaderFactories({ kv, allowPrivateAddress: true, userAgent: 'svc-test' })
  const first = (await contextLoaderFactory()(url)) as { document: unknown; tag?: string }
  t.same(first.document, { '@context': { name: 'https://example.com/ns#name' } })
  t.equal(first.tag, undefined, 'not static: it may change')
  t.ok(await kv.get(['_fedify', 'remoteDocument', url]), 'kept in the store')
  const again = await documentLoaderFactory()(url)
  t.same(again.document, first.document, 'the same document again')
  t.equal(served, 1, 'from the store, not fetched again')
})

t.test('a private address is still refused unless allowed', async (t) => {
  const kv = new MemoryKvStore()
  const { documentLoaderFactory } = loaderFactories({ kv, allowPrivateAddress: false, userAgent: 'svc-test' })
  await t.rejects(documentLoaderFactory()('http://127.0.0.1:9/actor'), 'a loopback address is refused')
})
