/**
 * Places search, in process on the places service (no HTTP: what is measured
 * is the index). Over the bundled GeoNames cities (about 135k) and over 1M
 * synthetic places written as one imported source (NDJSON, as `svc places
 * import` leaves it), clustered around 200 town centres with a 3 km spread,
 * so a 1 km search around a centre sees a few hundred places: index build
 * time (the first search after start or a reload waits for it), the RSS it
 * adds (per million places), and search p50/p99 at radius 1 km, count 20,
 * without and with `q`.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { createWriteStream } from 'node:fs'
import { join } from 'node:path'
import { once } from 'node:events'
import { PlaceService } from '../../../data/places/places.js'
import { bundledPlaces } from '../../../data/places/bundled-places.js'
import { placeIdOf } from '../../../data/places/place-ids.js'
import type { Place, PlaceSource } from '../../../data/index.js'
import { Latencies } from '../latencies.js'
import { scaled, type BenchContext, type Measure, type Scenario } from '../scenario.js'

const CENTRES = 200
const SEARCHES = 5000
const WORDS = ['café', 'boulangerie', 'pharmacy', 'bar', 'market', 'école', 'garage', 'library', 'bistro', 'hotel', 'bank', 'cinema', 'park', 'museum']

const random = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}

/** A normal deviate (Box–Muller). */
const gaussian = (next: () => number): number => Math.sqrt(-2 * Math.log(next() || 1e-12)) * Math.cos(2 * Math.PI * next())

const centresOf = (next: () => number) => Array.from({ length: CENTRES }, () => ({ latitude: 40 + next() * 15, longitude: -5 + next() * 25 }))

const KM_PER_DEGREE = 111.195

const placesDir = (ctx: BenchContext): string => join(ctx.workDir, 'data', 'places')
const emptyDir = (ctx: BenchContext): string => join(ctx.workDir, 'empty', 'places')

const megabytes = (bytes: number): number => bytes / (1 << 20)
const collect = (): void => (globalThis as { gc?: () => void }).gc?.()
const rss = (): number => {
  collect()
  return process.memoryUsage().rss
}

async function writeSynthetic(ctx: BenchContext, count: number): Promise<void> {
  const next = random(7)
  const centres = centresOf(next)
  await mkdir(placesDir(ctx), { recursive: true })
  const out = createWriteStream(join(placesDir(ctx), 'synthetic.ndjson'))
  for (let i = 0; i < count; i++) {
    const c = centres[i % CENTRES]
    const latitude = c.latitude + (gaussian(next) * 3) / KM_PER_DEGREE
    const longitude = c.longitude + (gaussian(next) * 3) / (KM_PER_DEGREE * Math.cos((c.latitude * Math.PI) / 180))
    const kind = WORDS[Math.floor(next() * WORDS.length)]
    const place: Place = {
      id: placeIdOf(`bench:${i}`),
      name: `${kind} ${WORDS[i % WORDS.length]} ${i}`,
      address: `${1 + (i % 200)} rue de la ${WORDS[(i >> 3) % WORDS.length]}`,
      locality: `Town ${i % CENTRES}`,
      postcode: String(10000 + (i % 90000)),
      country_code: 'fr',
      latitude,
      longitude,
      is_open: next() > 0.05,
      categories: [{ id: `osm:amenity=${kind}`, labels: ['amenity', kind] }],
      source_ref: `bench:${i}`,
    }
    if (!out.write(JSON.stringify(place) + '\n')) await once(out, 'drain')
    if ((i + 1) % 200_000 === 0) ctx.log(`wrote ${i + 1} places`)
  }
  out.end()
  await once(out, 'finish')
  const source: PlaceSource = {
    id: 'synthetic',
    name: 'synthetic.geojson',
    format: 'geojson',
    file: 'synthetic.ndjson',
    count,
    imported_at: new Date().toISOString(),
  }
  await writeFile(join(placesDir(ctx), 'sources.json'), JSON.stringify([source]))
}

/** Build time and added RSS of the first search (at `first`), then search latencies around `pointsOf()` (each jittered by up to a kilometre). */
async function measure(
  label: string,
  service: PlaceService,
  first: { latitude: number; longitude: number },
  pointsOf: () => readonly { latitude: number; longitude: number }[],
  ctx: BenchContext,
): Promise<Measure[]> {
  const before = rss()
  const began = performance.now()
  await service.search({ ...first, radius: 1000, count: 20 })
  const buildMs = performance.now() - began
  const added = megabytes(rss() - before)
  const points = pointsOf()
  const count = (await service.stats()).total
  ctx.log(`${label}: index built in ${buildMs.toFixed(0)} ms, +${added.toFixed(0)} MB`)
  const next = random(11)
  const plain = new Latencies()
  const named = new Latencies()
  let found = 0
  const searches = scaled(ctx, SEARCHES, 100)
  for (let i = 0; i < searches; i++) {
    const p = points[Math.floor(next() * points.length)]
    const at = { latitude: p.latitude + (next() - 0.5) / 55, longitude: p.longitude + (next() - 0.5) / 55 }
    let t = performance.now()
    found += (await service.search({ ...at, radius: 1000, count: 20 })).length
    plain.add(performance.now() - t)
    t = performance.now()
    await service.search({ ...at, radius: 1000, count: 20, q: WORDS[i % WORDS.length].slice(0, 4) })
    named.add(performance.now() - t)
  }
  return [
    { name: `${label}: places`, value: count, unit: 'places' },
    { name: `${label}: index build (first search)`, value: Math.round(buildMs), unit: 'ms' },
    { name: `${label}: RSS added by the index`, value: Math.round(added), unit: 'MB' },
    { name: `${label}: RSS per million places`, value: Math.round((added * 1e6) / count), unit: 'MB' },
    { name: `${label}: search p50 (radius 1 km, count 20)`, value: +plain.percentile(50).toFixed(3), unit: 'ms' },
    { name: `${label}: search p99 (radius 1 km, count 20)`, value: +plain.percentile(99).toFixed(3), unit: 'ms' },
    { name: `${label}: search with q p50`, value: +named.percentile(50).toFixed(3), unit: 'ms' },
    { name: `${label}: search with q p99`, value: +named.percentile(99).toFixed(3), unit: 'ms' },
    { name: `${label}: places per search (mean)`, value: +(found / searches).toFixed(1), unit: 'places' },
  ]
}

export const places: Scenario = {
  name: 'places',
  description: 'places search p50/p99 at radius 1 km over the bundled cities and 1M imported places; index build time; RSS per million places',
  async prepare(ctx) {
    await writeSynthetic(ctx, scaled(ctx, 1_000_000, 1000))
  },
  async run(ctx) {
    // The imported million first, alone, so the RSS it adds is its own; the bundled cities' includes reading their package.
    const centres = centresOf(random(7))
    // Both services stay alive to the end: one let go would hand its memory back during the other's measure.
    const services = [new PlaceService(placesDir(ctx), { bundled: false }), new PlaceService(emptyDir(ctx))]
    const imported = await measure('1M imported', services[0], centres[0], () => centres, ctx)
    const paris = { latitude: 48.8566, longitude: 2.3522 }
    const bundled = await measure('bundled cities', services[1], paris, () => bundledPlaces().filter((_, i) => i % 10 === 0), ctx)
    ctx.log(`${services.length} indexes held`)
    return [...imported, ...bundled]
  },
}
