import t from 'tap'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { PlaceService } from '../../../data/places/places.js'
import { HERE, placeAt, writePlaceSources } from '../../fixtures/places.js'
import { scratchDir } from '../../fixtures/scratch.js'

const PLACES = 30_000

t.test('the main thread stays mostly idle while 30k places are indexed, and other calls are answered before the first search', async (t) => {
  const dir = scratchDir('svc-places-worker-')
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // Spread over about 20 km around HERE, a few names repeated so duplicates have to be settled too.
  const places = Array.from({ length: PLACES }, (_, i) => placeAt(`p${i}`, `place ${i % (PLACES / 2)}`, (i % 400) * 50, { east: Math.floor(i / 400) * 80 }))
  writePlaceSources(dir, [{ id: 'many', places }])
  const service = new PlaceService(join(dir, 'places'), { bundled: false })
  t.teardown(() => service.close())

  // Utilization, not a timed gap: a loaded machine stretches every gap, but the share of time the loop is busy stays low
  // only when the sort and the duplicate pass run elsewhere.
  const start = performance.eventLoopUtilization()
  const order: string[] = []
  const search = service.search({ ...HERE, radius: 100 }).then((hits) => {
    order.push('search')
    return hits
  })
  await service.stats().then(() => order.push('stats'))
  const hits = await search
  const busy = performance.eventLoopUtilization(start).utilization

  t.same(order, ['stats', 'search'], 'stats answered while the search waited for the index')
  t.equal(hits[0].place.name, 'place 0', 'the search answers from the index built')
  // A build on the main thread keeps the loop busy for the whole sort and duplicate pass (utilization near 1).
  t.ok(busy < 0.5, `the main thread was busy ${(busy * 100).toFixed(0)} % of the build`)
})

t.test('a reload builds a new index while searches answer from the old one, and swaps it in when built', async (t) => {
  const dir = scratchDir('svc-places-worker-')
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writePlaceSources(dir, [{ id: 'cafes', places: [placeAt('old', 'Old Cafe', 10)] }])
  const service = new PlaceService(join(dir, 'places'), { bundled: false })
  t.teardown(() => service.close())
  t.same(
    (await service.search({ ...HERE })).map((h) => h.place.name),
    ['Old Cafe'],
  )
  writePlaceSources(dir, [{ id: 'cafes', places: [placeAt('new', 'New Cafe', 10)] }])
  const reloaded = service.reload()
  t.same(
    (await service.search({ ...HERE })).map((h) => h.place.name),
    ['Old Cafe'],
    'the old index answers until the new one is built',
  )
  t.equal((await reloaded).total, 1)
  t.same(
    (await service.search({ ...HERE })).map((h) => h.place.name),
    ['New Cafe'],
    'the new index answers once reload has answered',
  )
})
