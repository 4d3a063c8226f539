import t from 'tap'
import { rmSync } from 'node:fs'
import { makeDomainInstance } from '../../fixtures/instance.js'
import { openWithStore } from '../../fixtures/open-store.js'
import { HERE, placeAt, writePlaceSources } from '../../fixtures/places.js'
import { scratchDir } from '../../fixtures/scratch.js'

const flore = placeAt('flore', 'Café de Flore', 10)
const bakery = placeAt('bakery', 'Flore Bakery', 50)
const petit = placeAt('petit', 'Le Petit Flore', 30)
const inside = placeAt('inside', 'Mayflorence', 40)
const closed = placeAt('closed', 'Flore Closed', 20, { is_open: false })
const twin = placeAt('twin', 'CAFE DE FLORE', 15)
const far = placeAt('far', 'Far Away', 2000)

const names = (hits: { place: { name: string } }[]) => hits.map((h) => h.place.name)

t.test('a search answers the open places within the radius, nearest first, each with its distance in metres', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  writePlaceSources(svc.dir, [{ id: 'cafes', places: [far, bakery, flore, petit, inside, closed] }])
  const hits = await svc.domain.places.search({ ...HERE, radius: 100 })
  t.same(names(hits), ['Café de Flore', 'Le Petit Flore', 'Mayflorence', 'Flore Bakery'])
  t.ok(Math.abs(hits[0].distance - 10) < 0.5, `about 10 m, not ${hits[0].distance}`)
  t.same(names(await svc.domain.places.search({ ...HERE, radius: 35 })), ['Café de Flore', 'Le Petit Flore'], 'the radius bounds it')
  t.same(names(await svc.domain.places.search({ ...HERE, radius: 5000, count: 2 })), ['Café de Flore', 'Le Petit Flore'], 'count bounds it')
  t.same(names(await svc.domain.places.search({ ...HERE, radius: 5000 })).at(-1), 'Far Away')
})

t.test('closed places are left out unless remove_closed is off', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  writePlaceSources(svc.dir, [{ id: 'cafes', places: [flore, closed] }])
  t.same(names(await svc.domain.places.search({ ...HERE })), ['Café de Flore'])
  t.same(names(await svc.domain.places.search({ ...HERE, remove_closed: false })), ['Café de Flore', 'Flore Closed'])
})

t.test(
  'q matches part of a name whatever its case and accents: the same name first, then prefixes, word prefixes and the rest, nearest first among equals',
  async (t) => {
    const svc = await makeDomainInstance(t, {}, { start: false })
    const cafe = placeAt('cafe', 'Café', 60)
    writePlaceSources(svc.dir, [{ id: 'cafes', places: [flore, bakery, petit, inside, far, cafe, placeAt('plain', 'Tea Room', 5)] }])
    t.same(names(await svc.domain.places.search({ ...HERE, q: 'FLORE' })), ['Flore Bakery', 'Café de Flore', 'Le Petit Flore', 'Mayflorence'])
    t.same(names(await svc.domain.places.search({ ...HERE, q: 'cafe' })), ['Café', 'Café de Flore'], 'the exact name ranks above a nearer prefix')
    t.same(names(await svc.domain.places.search({ ...HERE, q: 'de fl' })), ['Café de Flore'], 'a query of several words')
    t.same(await svc.domain.places.search({ ...HERE, q: 'nowhere' }), [])
  },
)

t.test('two places of the same name within 25 m are one: the first is answered, for either id', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const sameObject = { ...placeAt('flore', 'Flore, imported again', 12) }
  writePlaceSources(svc.dir, [
    { id: 'cafes', places: [flore, twin, placeAt('farTwin', 'Café de Flore', 100)] },
    { id: 'again', places: [sameObject] },
  ])
  const hits = await svc.domain.places.search({ ...HERE, radius: 200 })
  t.same(names(hits), ['Café de Flore', 'Café de Flore'], 'the twin 5 m away is gone; the namesake 90 m away stays')
  t.equal(hits[1].place.latitude, placeAt('farTwin', '', 100).latitude)
  t.equal((await svc.domain.places.get(twin.id)).id, flore.id, 'the dropped id answers the kept place')
  t.equal((await svc.domain.places.get(flore.id)).name, 'Café de Flore', 'the same source object imported twice keeps the first')
})

t.test('an unknown id is not found', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  await t.rejects(svc.domain.places.get('00000000-0000-5000-8000-000000000000'), { code: 'not_found' })
})

t.test('the search parameters are checked, with the original API words for a missing coordinate', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  await t.rejects(svc.domain.places.search({ longitude: 2 }), { code: 'invalid', message: 'You must supply a latitude parameter.' })
  await t.rejects(svc.domain.places.search({ latitude: 2 }), { code: 'invalid', message: 'You must supply a longitude parameter.' })
  await t.rejects(svc.domain.places.search({ ...HERE, latitude: 91 }), { code: 'invalid', message: /latitude/ })
  await t.rejects(svc.domain.places.search({ ...HERE, radius: 0 }), { code: 'invalid', message: /radius/ })
  await t.rejects(svc.domain.places.search({ ...HERE, radius: 50_001 }), { code: 'invalid', message: /radius/ })
  await t.rejects(svc.domain.places.search({ ...HERE, count: 101 }), { code: 'invalid', message: /count/ })
  await t.rejects(svc.domain.places.search({ ...HERE, q: 'x'.repeat(101) }), { code: 'invalid', message: /q must/ })
})

// One instance for the bundled cities: building their index (135,000 places) is most of what this file costs.
t.test(
  'the bundled GeoNames cities answer out of the box beside an import, reload reads the places again, and stats list the bundled source first',
  async (t) => {
    const svc = await makeDomainInstance(t, {}, { bundledPlaces: true, start: false })
    writePlaceSources(svc.dir, [{ id: 'cafes', places: [flore] }])
    t.same(names(await svc.domain.places.search({ ...HERE })), ['Café de Flore'])
    const [paris] = await svc.domain.places.search({ latitude: 48.8566, longitude: 2.3522, radius: 10_000 })
    t.match(paris.place, {
      name: 'Paris',
      locality: 'Paris',
      country_code: 'fr',
      is_open: true,
      categories: [{ id: 'geonames:P.PPLC', labels: ['populated place', 'capital of a political entity'] }],
      source_ref: 'geonames:2988507',
    })
    t.ok(paris.distance < 1000, 'Paris first near Paris')
    t.same(await svc.domain.places.get(paris.place.id), paris.place)
    writePlaceSources(svc.dir, [{ id: 'cafes', places: [flore, petit] }])
    t.same(names(await svc.domain.places.search({ ...HERE })), ['Café de Flore'], 'the index stands until reloaded')
    const stats = await svc.domain.places.reload()
    t.same(names(await svc.domain.places.search({ ...HERE })), ['Café de Flore', 'Le Petit Flore'])
    t.match(stats.sources, [
      { id: 'geonames', format: 'bundled', imported_at: null },
      { id: 'cafes', name: 'cafes.geojson', format: 'geojson', count: 2, imported_at: '2024-05-01T12:00:00Z' },
    ])
    t.ok(stats.sources[0].count > 100_000, 'the bundled GeoNames cities')
    t.equal(stats.total, stats.sources[0].count + 2)
  },
)

t.test('with nothing imported the bundled cities answer alone, built or read back from their file, the same either way', async (t) => {
  const paris = { latitude: 48.8566, longitude: 2.3522, radius: 10_000 }
  const answers = []
  // The first instance of a checkout builds the bundled index and keeps it; every one after reads it back.
  for (const round of [1, 2]) {
    const svc = await makeDomainInstance(t, {}, { bundledPlaces: true, start: false })
    const hits = await svc.domain.places.search({ ...paris, count: 3 })
    t.equal(hits[0]?.place.name, 'Paris', `round ${round}: Paris first near Paris`)
    t.same(await svc.domain.places.get(hits[0].place.id), hits[0].place)
    t.ok((await svc.domain.places.stats()).sources[0].count > 100_000, 'the bundled GeoNames cities')
    answers.push(hits)
    await svc.domain.close()
  }
  t.same(answers[1], answers[0])
})

t.test('an instance configured with "places": {"bundled": false} searches only the places its operator imported', async (t) => {
  const dir = scratchDir('svc-places-')
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const { domain } = await openWithStore(dir, { config: { places: { bundled: false } } as never, start: false })
  t.teardown(() => domain.close())
  writePlaceSources(dir, [{ id: 'cafes', places: [flore] }])
  const stats = await domain.places.reload()
  t.same(
    stats.sources.map((s) => s.id),
    ['cafes'],
    'no GeoNames source',
  )
  t.equal(stats.total, 1)
})
