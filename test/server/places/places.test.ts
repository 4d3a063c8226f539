import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'
import { HERE, placeAt, writePlaceSources } from '../../fixtures/places.js'

const flore = placeAt('flore', 'Café de Flore', 10, {
  address: '172 Boulevard Saint-Germain',
  locality: 'Paris',
  postcode: '75006',
  country_code: 'fr',
  telephone: '01 45 48 55 26',
  website: 'https://cafedeflore.fr',
})
const twin = placeAt('twin', 'Cafe de Flore', 14)
const petit = placeAt('petit', 'Le Petit Flore', 30)
const closed = placeAt('closed', 'Flore Closed', 20, { is_open: false })
const search = (query: string) => `/stream/0/places/search?latitude=${HERE.latitude}&longitude=${HERE.longitude}${query}`

async function world(t: Parameters<typeof makeInstance>[0], bundledPlaces = false) {
  const svc = await makeInstance(t, {}, { bundledPlaces })
  writePlaceSources(svc.dir, [{ id: 'cafes', places: [flore, twin, petit, closed] }])
  return { svc, alice: await svc.person('alice') }
}

t.test('a search answers places as the spec shows them, with factual_id, vendor_id and distance, nearest first', async (t) => {
  const { svc, alice } = await world(t)
  const res = await svc.call('GET', search(''), { token: alice.token })
  t.equal(res.status, 200)
  t.same(
    res.body.data.map((p: any) => p.name),
    ['Café de Flore', 'Le Petit Flore'],
  )
  const [first] = res.body.data
  t.same(Object.keys(first), [
    'factual_id',
    'vendor_id',
    'name',
    'address',
    'locality',
    'postcode',
    'country_code',
    'latitude',
    'longitude',
    'is_open',
    'telephone',
    'website',
    'categories',
    'distance',
  ])
  t.equal(first.factual_id, flore.id)
  t.equal(first.vendor_id, flore.id)
  t.notOk('source_ref' in first, 'where it came from is svc’s own business')
  t.ok(Math.abs(first.distance - 10) < 0.5)
})

t.test('remove_closed=0 includes closed places; q narrows by name', async (t) => {
  const { svc, alice } = await world(t)
  const all = await svc.call('GET', search('&remove_closed=0'), { token: alice.token })
  t.same(
    all.body.data.map((p: any) => p.name),
    ['Café de Flore', 'Flore Closed', 'Le Petit Flore'],
  )
  const q = await svc.call('GET', search('&q=PETIT'), { token: alice.token })
  t.same(
    q.body.data.map((p: any) => p.name),
    ['Le Petit Flore'],
  )
  const accents = await svc.call('GET', search('&q=caf%C3%A9%20de'), { token: alice.token })
  t.same(
    accents.body.data.map((p: any) => p.name),
    ['Café de Flore'],
  )
})

t.test('bad search parameters are 400s that say what is wrong', async (t) => {
  const { svc, alice } = await world(t)
  const cases: [string, RegExp | string][] = [
    [`/stream/0/places/search?longitude=2`, 'Bad Request: You must supply a latitude parameter.'],
    [`/stream/0/places/search?latitude=2`, 'Bad Request: You must supply a longitude parameter.'],
    [`/stream/0/places/search?latitude=95&longitude=2`, /latitude must be a number from -90 to 90/],
    [`/stream/0/places/search?latitude=2&longitude=-181`, /longitude must be a number from -180 to 180/],
    [`/stream/0/places/search?latitude=abc&longitude=2`, /latitude must be a number/],
    [search('&radius=0'), /radius must be from 0.001 to 50000/],
    [search('&radius=50001'), /radius must be from 0.001 to 50000/],
    [search('&count=0'), /count must be an integer from 1 to 100/],
    [search('&count=101'), /count must be an integer from 1 to 100/],
    [search('&count=2.5'), /count must be an integer/],
    [search(`&q=${'x'.repeat(101)}`), /q must be at most 100 characters/],
    [search('&remove_closed=maybe'), /remove_closed must be 0 or 1/],
  ]
  for (const [url, message] of cases) {
    const res = await svc.call('GET', url, { token: alice.token })
    t.equal(res.status, 400, url)
    t.equal(res.body.meta.code, 400)
    t.match(res.body.meta.error_message, message, url)
  }
  const edges = await svc.call('GET', search('&radius=0.001&count=100&altitude=35&horizontal_accuracy=5&vertical_accuracy=3'), { token: alice.token })
  t.equal(edges.status, 200, 'the bounds themselves and the unused parameters are accepted')
})

t.test('GET /places/{id} answers the place, the kept one for a duplicate, and 404 for an unknown id', async (t) => {
  const { svc, alice } = await world(t)
  const res = await svc.call('GET', `/stream/0/places/${flore.id}`, { token: alice.token })
  t.equal(res.status, 200)
  t.equal(res.body.data.name, 'Café de Flore')
  t.notOk('distance' in res.body.data, 'distance belongs to search results')
  const dup = await svc.call('GET', `/stream/0/places/${twin.id}`, { token: alice.token })
  t.equal(dup.body.data.factual_id, flore.id, 'the duplicate answers as the place kept')
  const unknown = await svc.call('GET', '/stream/0/places/00000000-0000-5000-8000-000000000000', { token: alice.token })
  t.equal(unknown.status, 404)
  t.equal(unknown.body.meta.code, 404)
})

t.test('a search needs a user token; a place by id takes any token; neither is anonymous', async (t) => {
  const { svc, alice } = await world(t)
  t.equal((await svc.call('GET', search(''), { token: svc.appToken })).status, 403)
  t.equal((await svc.call('GET', search(''))).status, 401)
  t.equal((await svc.call('GET', `/stream/0/places/${flore.id}`, { token: svc.appToken })).status, 200)
  t.equal((await svc.call('GET', `/places/${flore.id}`, { token: alice.token })).status, 200, 'at the root too')
  t.equal((await svc.call('GET', `/stream/0/places/${flore.id}`)).status, 401)
})

t.test('+svc.core.place in a post annotation becomes the whole place, by factual_id or vendor_id; an unknown one leaves nothing', async (t) => {
  const { svc, alice } = await world(t)
  const annotations = [
    { type: 'com.example.venue', value: { note: 'coffee', '+svc.core.place': { factual_id: twin.id } } },
    { type: 'com.example.venue', value: { '+svc.core.place': { vendor_id: petit.id } } },
    { type: 'com.example.venue', value: { note: 'lost', '+svc.core.place': { factual_id: '00000000-0000-5000-8000-000000000000' } } },
  ]
  const made = await svc.call('POST', '/stream/0/posts?include_annotations=1', { token: alice.token, payload: { text: 'here', annotations } })
  t.equal(made.status, 200)
  const read = await svc.call('GET', `/stream/0/posts/${made.body.data.id}?include_annotations=1`, { token: alice.token })
  const [venue, other, lost] = read.body.data.annotations.map((a: any) => a.value)
  const { distance: _distance, ...place } = (await svc.call('GET', search(''), { token: alice.token })).body.data[0]
  t.same(venue, { note: 'coffee', ...place }, 'the kept place, as GET /places shows it, beside the other keys')
  t.equal(other.factual_id, petit.id)
  t.same(lost, { note: 'lost' })
})

t.test('a checkin gets the full place; one at an unknown place is refused', async (t) => {
  const { svc, alice } = await world(t)
  const checkin = (id: string) => [{ type: 'svc.core.checkin', value: { '+svc.core.place': { factual_id: id } } }]
  const made = await svc.call('POST', '/stream/0/posts?include_annotations=1', {
    token: alice.token,
    payload: { text: 'at Flore', annotations: checkin(flore.id) },
  })
  t.equal(made.status, 200)
  t.match(made.body.data.annotations, [
    { type: 'svc.core.checkin', value: { factual_id: flore.id, vendor_id: flore.id, name: 'Café de Flore', postcode: '75006', categories: flore.categories } },
  ])
  const refused = await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: 'nowhere', annotations: checkin('nope') } })
  t.equal(refused.status, 400)
  t.match(refused.body.meta.error_message, /svc\.core\.checkin: factual_id must be a place/)
})

t.test('the bundled cities answer a real search: Paris first within 10 km of its centre', async (t) => {
  const { svc, alice } = await world(t, true)
  const res = await svc.call('GET', '/stream/0/places/search?latitude=48.8566&longitude=2.3522&radius=10000', { token: alice.token })
  t.equal(res.status, 200)
  t.match(res.body.data[0], { name: 'Paris', country_code: 'fr', categories: [{ id: 'geonames:P.PPLC' }] })
  t.ok(res.body.data.length > 5)
  t.ok(
    res.body.data.every((p: any, i: number, all: any[]) => i === 0 || all[i - 1].distance <= p.distance),
    'nearest first',
  )
})
