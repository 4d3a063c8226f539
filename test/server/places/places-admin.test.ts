/** The places admin operations through a running server's admin socket, as `svc places import` and `svc places stats` call them. */
import t from 'tap'
import { callAdminSocket } from '../../../data/index.js'
import { serveAdminSocket } from '../../../server/index.js'
import { makeInstance } from '../../fixtures/instance.js'
import { HERE, placeAt, writePlaceSources } from '../../fixtures/places.js'

t.test('places.reload makes a running server search what was imported since, and answers the stats like places.stats', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const admin = await serveAdminSocket(svc.domain, { baseUrl: 'http://svc.test', log: () => {} })
  t.teardown(() => admin.close())
  const search = async () =>
    (await svc.call('GET', `/stream/0/places/search?latitude=${HERE.latitude}&longitude=${HERE.longitude}`, { token: alice.token })).body.data.map(
      (p: any) => p.name,
    )
  t.same(await search(), [], 'nothing imported yet')
  writePlaceSources(svc.dir, [{ id: 'cafes', places: [placeAt('flore', 'Café de Flore', 10)] }])
  t.same(await search(), [], 'the server reads places again only when told')
  const reloaded = (await callAdminSocket(admin.path, 'places.reload', {})) as any
  t.same(await search(), ['Café de Flore'])
  const stats = (await callAdminSocket(admin.path, 'places.stats', {})) as any
  t.same(reloaded, stats)
  t.same(
    stats.sources.map((s: any) => [s.id, s.format, s.count]),
    [['cafes', 'geojson', 1]],
    'the imported source (this instance leaves the bundled cities out; test/bin/places.test.ts lists them)',
  )
  t.equal(stats.total, 1)
})
