import t from 'tap'
import { DEFAULT_EXPLORE_STREAMS, openDomain } from '../../../data/index.js'
import { openWithStore } from '../../fixtures/open-store.js'

t.test('opening a fresh data dir writes nothing: starting it seeds the explore streams and registers the web client', async (t) => {
  const domain = await openDomain(t.testdir())
  t.teardown(() => domain.close())
  t.same(await domain.explore.list(), [], 'no explore stream before the start')
  t.equal(await domain.auth.apps.webClient(), null, 'no web client either')
  t.equal(domain.events.head(), 0, 'and no event')

  await domain.start()
  t.same(
    (await domain.explore.list()).map((s) => s.slug),
    DEFAULT_EXPLORE_STREAMS.map((s) => s.slug),
  )
  t.ok(await domain.auth.apps.webClient(), 'the web client is registered')
  await domain.start()
  t.equal((await domain.explore.list()).length, DEFAULT_EXPLORE_STREAMS.length, 'a second start does nothing more')
})

t.test('a domain opened and closed without a start leaves its store empty: no hub saved a position', async (t) => {
  const dir = t.testdir()
  await (await openDomain(dir)).close()
  const { domain, store } = await openWithStore(dir, { start: false })
  t.teardown(() => domain.close())
  t.same(
    Object.entries(store.stats().rows).filter(([, n]) => n > 0),
    [],
  )
})
