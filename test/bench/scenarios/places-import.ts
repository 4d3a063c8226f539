/**
 * `svc places import` of a synthetic OpenStreetMap extract of about a
 * million points of interest (each a named node with an amenity, an
 * address and a phone, in dense-node blocks of 8,000 as osmium writes
 * them), beside osm-pbf-parser-node alone reading the same file: the
 * parser is the limit the import (mapping, ids, NDJSON, fsync) cannot beat.
 */
import { once } from 'node:events'
import { createReadStream, createWriteStream, statSync } from 'node:fs'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { OSMTransform } from 'osm-pbf-parser-node'
import { importPlaces } from '../../../data/index.js'
import { osmPbfBlocks, type OsmNodeInput } from '../../fixtures/osm-pbf.js'
import { scaled, type BenchContext, type Measure, type Scenario } from '../scenario.js'

const AMENITIES = ['cafe', 'restaurant', 'pharmacy', 'bank', 'school', 'fuel', 'bar', 'library']

const extractOf = (ctx: BenchContext): string => join(ctx.workDir, 'region.osm.pbf')

function* places(n: number): Generator<OsmNodeInput> {
  for (let i = 1; i <= n; i++) {
    yield {
      id: i,
      lat: 47 + ((i * 7919) % 100_000) / 20_000,
      lon: 5 + ((i * 104_729) % 100_000) / 10_000,
      tags: {
        name: `Place ${i}`,
        amenity: AMENITIES[i % AMENITIES.length],
        'addr:street': `Street ${i % 5000}`,
        'addr:housenumber': String(i % 200),
        'addr:city': `Town ${i % 900}`,
        phone: `+49 30 ${i}`,
      },
    }
  }
}

/** Entities osm-pbf-parser-node reads out of `path`, and how long it takes. */
async function parseOnly(path: string): Promise<{ entities: number; ms: number }> {
  const started = performance.now()
  const parser = new OSMTransform({ withTags: true, withInfo: false })
  const done = pipeline(createReadStream(path, { highWaterMark: 1 << 20 }), parser)
  let entities = 0
  for await (const batch of parser as AsyncIterable<unknown[]>) entities += batch.length
  await done
  return { entities: entities - 1, ms: performance.now() - started }
}

export const placesImport: Scenario = {
  name: 'places-import',
  description: 'svc places import of a synthetic OSM extract of ~1M points of interest, beside the PBF parser alone on the same file',
  async prepare(ctx) {
    const n = scaled(ctx, 1_000_000, 1000)
    const out = createWriteStream(extractOf(ctx))
    for (const block of osmPbfBlocks(places(n))) if (!out.write(block)) await once(out, 'drain')
    out.end()
    await once(out, 'finish')
    ctx.log(`places-import: wrote ${n} places, ${(statSync(extractOf(ctx)).size / 1e6).toFixed(1)} MB`)
  },
  async run(ctx): Promise<Measure[]> {
    const file = extractOf(ctx)
    const parsed = await parseOnly(file)
    const started = performance.now()
    const result = await importPlaces(join(ctx.workDir, 'data'), file)
    const ms = performance.now() - started
    const rate = result.count / (ms / 1000)
    const limit = parsed.entities / (parsed.ms / 1000)
    return [
      { name: 'places in the extract', value: result.count, unit: 'places' },
      { name: 'extract size', value: Math.round(statSync(file).size / 1e5) / 10, unit: 'MB' },
      { name: 'parser alone (osm-pbf-parser-node)', value: Math.round(limit), unit: 'nodes/s' },
      { name: 'import (svc places import)', value: Math.round(rate), unit: 'places/s' },
      { name: 'import / parser', value: Math.round((100 * rate) / limit), unit: '%' },
      { name: 'import time', value: Math.round(ms), unit: 'ms' },
    ]
  },
}
