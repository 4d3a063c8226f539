import t from 'tap'
import { readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { importPlaces, isDomainError, type Place, type PlaceSource } from '../../../data/index.js'
import { placeIdOf } from '../../../data/places/place-ids.js'
import { osmPbf } from '../../fixtures/osm-pbf.js'
import { scratchDir } from '../../fixtures/scratch.js'

const workDir = (t: { teardown(fn: () => unknown): void }): string => {
  const dir = scratchDir('svc-places-')
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

const placesOf = (dataDir: string, source: string): Place[] =>
  readFileSync(join(dataDir, 'places', `${source}.ndjson`), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Place)

const sourcesOf = (dataDir: string): PlaceSource[] => JSON.parse(readFileSync(join(dataDir, 'places', 'sources.json'), 'utf8'))

const byRef = (places: Place[], ref: string): Place | undefined => places.find((p) => p.source_ref === ref)

/** A small Bremen: a café, a closed shop, a nameless bench, a town, and a bakery drawn as a building. */
const bremen = () =>
  osmPbf(
    [
      {
        id: 10,
        lat: 53.0758,
        lon: 8.8072,
        tags: {
          name: 'Café Knigge',
          amenity: 'cafe',
          'addr:street': 'Sögestraße',
          'addr:housenumber': '42',
          'addr:city': 'Bremen',
          'addr:postcode': '28195',
          'addr:country': 'DE',
          phone: '+49 421 13060',
          website: 'https://example.org/knigge',
        },
      },
      { id: 11, lat: 53.076, lon: 8.808, tags: { name: 'Altes Lädchen', 'disused:shop': 'convenience' } },
      { id: 12, lat: 53.077, lon: 8.809, tags: { amenity: 'bench' } },
      { id: 13, lat: 53.0793, lon: 8.8017, tags: { name: 'Bremen', place: 'city' } },
      { id: 20, lat: 53.07, lon: 8.8 },
      { id: 21, lat: 53.07, lon: 8.802 },
      { id: 22, lat: 53.072, lon: 8.802 },
      { id: 23, lat: 53.072, lon: 8.8 },
    ],
    [{ id: 30, refs: [20, 21, 22, 23, 20], tags: { name: 'Backstube', shop: 'bakery', building: 'yes', opening_hours: 'Mo-Sa 07:00-18:00' } }],
  )

t.test('an OpenStreetMap extract becomes places: named points of interest with address, contacts, categories and whether they are open', async (t) => {
  const dir = workDir(t)
  const file = join(dir, 'bremen-latest.osm.pbf')
  writeFileSync(file, bremen())
  const result = await importPlaces(join(dir, 'data'), file)
  t.equal(result.source.id, 'bremen-latest')
  t.equal(result.source.format, 'osm-pbf')
  t.equal(result.count, 3)
  t.equal(result.skipped, 1, 'the nameless bench is skipped; the town is no point of interest')
  const places = placesOf(join(dir, 'data'), 'bremen-latest')
  t.same(byRef(places, 'osm:node/10'), {
    id: placeIdOf('osm:node/10'),
    name: 'Café Knigge',
    address: '42 Sögestraße',
    locality: 'Bremen',
    postcode: '28195',
    country_code: 'de',
    latitude: 53.0758,
    longitude: 8.8072,
    is_open: true,
    telephone: '+49 421 13060',
    website: 'https://example.org/knigge',
    categories: [{ id: 'osm:amenity=cafe', labels: ['amenity', 'cafe'] }],
    source_ref: 'osm:node/10',
  })
  const closed = byRef(places, 'osm:node/11')!
  t.equal(closed.is_open, false)
  t.same(closed.categories, [{ id: 'osm:shop=convenience', labels: ['shop', 'convenience'] }])
  const bakery = byRef(places, 'osm:way/30')!
  t.equal(bakery.name, 'Backstube')
  t.ok(Math.abs(bakery.latitude - 53.071) < 1e-6 && Math.abs(bakery.longitude - 8.801) < 1e-6, 'a building is placed at its centre')
  t.same(sourcesOf(join(dir, 'data')), [result.source])
})

t.test('a GeoJSON FeatureCollection becomes places, whatever common names its properties use', async (t) => {
  const dir = workDir(t)
  const file = join(dir, 'My Region.geojson')
  const square = [
    [
      [2, 48],
      [2.002, 48],
      [2.002, 48.002],
      [2, 48.002],
      [2, 48],
    ],
  ]
  writeFileSync(
    file,
    JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          id: 'fsq-1',
          geometry: { type: 'Point', coordinates: [2.35, 48.85] },
          properties: {
            name: 'Le Café',
            address: '1 rue de Rivoli',
            locality: 'Paris',
            postcode: '75001',
            country: 'FR',
            tel: '+33 1 23',
            fsq_category_labels: ['Dining and Drinking > Café'],
          },
        },
        {
          type: 'Feature',
          geometry: { type: 'Polygon', coordinates: square },
          properties: {
            id: 'ov-2',
            names: { primary: 'Grand Magasin' },
            categories: { primary: 'department_store' },
            operating_status: 'permanently_closed',
            websites: ['https://example.org'],
          },
        },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.3, 48.8] }, properties: { category: 'park' } },
        { type: 'Feature', geometry: null, properties: { name: 'Nowhere' } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [2.36, 48.86] }, properties: { name: 'Third' } },
        { type: 'Feature', id: 'fsq-1', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { name: 'Le Café again' } },
      ],
    }),
  )
  const result = await importPlaces(join(dir, 'data'), file)
  t.equal(result.source.id, 'my-region')
  t.equal(result.source.format, 'geojson')
  t.equal(result.count, 3)
  t.equal(result.skipped, 3, 'no name, no position, and the same id twice')
  const places = placesOf(join(dir, 'data'), 'my-region')
  t.same(byRef(places, 'geojson:My Region:fsq-1'), {
    id: placeIdOf('geojson:My Region:fsq-1'),
    name: 'Le Café',
    address: '1 rue de Rivoli',
    locality: 'Paris',
    postcode: '75001',
    country_code: 'fr',
    latitude: 48.85,
    longitude: 2.35,
    is_open: true,
    telephone: '+33 1 23',
    categories: [{ id: 'geojson:Dining and Drinking > Café', labels: ['Dining and Drinking', 'Café'] }],
    source_ref: 'geojson:My Region:fsq-1',
  })
  const store = byRef(places, 'geojson:My Region:ov-2')!
  t.equal(store.name, 'Grand Magasin')
  t.equal(store.is_open, false)
  t.equal(store.website, 'https://example.org')
  t.ok(Math.abs(store.latitude - 48.001) < 1e-9 && Math.abs(store.longitude - 2.001) < 1e-9, 'a polygon is placed at its centroid')
  t.ok(byRef(places, 'geojson:My Region:4'), 'a feature without an id is named by its index')
})

t.test('importing the same file twice leaves one source with the same ids', async (t) => {
  const dir = workDir(t)
  const file = join(dir, 'bremen.osm.pbf')
  writeFileSync(file, bremen())
  const first = await importPlaces(join(dir, 'data'), file)
  const before = placesOf(join(dir, 'data'), 'bremen').map((p) => p.id)
  const second = await importPlaces(join(dir, 'data'), file)
  t.same(
    placesOf(join(dir, 'data'), 'bremen').map((p) => p.id),
    before,
  )
  t.equal(second.count, first.count)
  t.same(
    sourcesOf(join(dir, 'data')).map((s) => s.id),
    ['bremen'],
  )
  t.same(
    readdirSync(join(dir, 'data', 'places')).filter((f) => f !== 'svc.lock'),
    ['bremen.ndjson', 'sources.json'],
    'no temporary file is left behind',
  )
})

const failure = async (promise: Promise<unknown>): Promise<{ code: string; message: string }> => {
  try {
    await promise
  } catch (err) {
    if (isDomainError(err)) return { code: err.code, message: err.message }
    throw err
  }
  throw new Error('the import did not fail')
}

t.test('a corrupt extract fails as invalid and leaves the previous import of that source intact', async (t) => {
  const dir = workDir(t)
  const file = join(dir, 'bremen.osm.pbf')
  writeFileSync(file, bremen())
  await importPlaces(join(dir, 'data'), file)
  const before = readFileSync(join(dir, 'data', 'places', 'bremen.ndjson'), 'utf8')
  const good = bremen()
  // A block's zlib data with its bytes flipped, then the file cut short.
  writeFileSync(file, Buffer.concat([good.subarray(0, 60), Buffer.alloc(40, 0xff), good.subarray(100, good.length - 10)]))
  const err = await failure(importPlaces(join(dir, 'data'), file))
  t.equal(err.code, 'invalid')
  t.match(err.message, /is not an OpenStreetMap PBF extract/)
  t.equal(readFileSync(join(dir, 'data', 'places', 'bremen.ndjson'), 'utf8'), before)
  t.equal(sourcesOf(join(dir, 'data')).length, 1)
  t.same(
    readdirSync(join(dir, 'data', 'places')).filter((f) => f.endsWith('.tmp')),
    [],
  )
})

t.test('a missing file, an unknown extension and broken JSON are refused before anything is written', async (t) => {
  const dir = workDir(t)
  t.equal((await failure(importPlaces(join(dir, 'data'), join(dir, 'nope.geojson')))).code, 'not_found')
  writeFileSync(join(dir, 'places.csv'), 'name,lat,lon\n')
  t.match(await failure(importPlaces(join(dir, 'data'), join(dir, 'places.csv'))), { code: 'invalid', message: /cannot tell the format/ })
  writeFileSync(join(dir, 'broken.geojson'), '{"type": "FeatureCollection", "features": [{"type": ')
  t.match(await failure(importPlaces(join(dir, 'data'), join(dir, 'broken.geojson'))), { code: 'invalid', message: /not a GeoJSON FeatureCollection/ })
  t.notOk(existsSync(join(dir, 'data', 'places', 'broken.ndjson')))
  t.notOk(existsSync(join(dir, 'data', 'places', 'sources.json')))
})

t.test('place ids stay what they were: UUID v5 of the source reference in svc’s namespace', async (t) => {
  const { placeIdOf } = await import('../../../data/places/place-ids.js')
  // Pinned: a change here would give every imported and bundled place a new id, breaking stored checkins.
  t.equal(placeIdOf('geonames:2988507'), 'decd9104-d1eb-5ebd-b3fe-e22fa4c2bd53', 'Paris')
  t.equal(placeIdOf('osm:node/1'), 'ff9ba6fe-5f09-5bc5-970f-34b0e77928ea')
  t.equal(placeIdOf('geojson:bremen:Café Ünïcode 東京'), 'b3c5e313-13fd-5b5c-afc4-529846de94b2', 'any text, as UTF-8')
})
