/**
 * `svc places import` and `svc places stats` as an operator runs them: the
 * built CLI (in this process), on a data dir alone and beside a running
 * `svc serve`.
 */
import t, { type Test } from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { osmPbf } from '../fixtures/osm-pbf.js'
import { svc } from '../fixtures/svc-in-process.js'
import { initDir, serve } from '../fixtures/svc-process.js'

/**
 * These stories are about the bundled cities too, which the test fixtures turn off for every other svc process
 * (child-env.ts): on for the story `t`, in-process and in the processes it starts, and as it was after it.
 */
function withBundledPlaces(t: Test): void {
  const before = process.env.SVC_PLACES_BUNDLED
  process.env.SVC_PLACES_BUNDLED = 'on'
  t.teardown(() => {
    if (before === undefined) delete process.env.SVC_PLACES_BUNDLED
    else process.env.SVC_PLACES_BUNDLED = before
  })
}

const cafes = (n: number) =>
  osmPbf(Array.from({ length: n }, (_, i) => ({ id: i + 1, lat: 52.52 + i * 0.001, lon: 13.405, tags: { name: `Café ${i + 1}`, amenity: 'cafe' } })))

t.test('an operator imports an extract, imports it again, and sees one source in the stats', async (t) => {
  withBundledPlaces(t)
  const dir = await initDir(t)
  const file = join(dirname(dir), 'berlin.osm.pbf')
  writeFileSync(file, cafes(3))
  const first = await svc(['places', 'import', file, '--data-dir', dir])
  t.equal(first.code, 0, first.stderr)
  t.equal(first.stdout, `imported 3 places from ${file} (source berlin)\n`)
  const again = await svc(['places', 'import', file, '--json', '--data-dir', dir])
  t.equal(again.code, 0, again.stderr)
  t.match(JSON.parse(again.stdout), { source: { id: 'berlin', format: 'osm-pbf', count: 3, name: file }, count: 3, skipped: 0 })
  const stats = await svc(['places', 'stats', '--json', '--data-dir', dir])
  t.equal(stats.code, 0, stats.stderr)
  const { total, sources } = JSON.parse(stats.stdout)
  t.match(
    sources,
    [
      { id: 'geonames', format: 'bundled' },
      { id: 'berlin', count: 3, format: 'osm-pbf' },
    ],
    'the bundled cities, then the import, once',
  )
  t.equal(sources.length, 2)
  t.equal(total, sources[0].count + 3)
  const text = await svc(['places', 'stats', '--data-dir', dir])
  t.match(
    text.stdout,
    new RegExp(`^${total} places\ngeonames\t${sources[0].count} places\tbundled\t.*CC-BY 4\\.0\\)\nberlin\t3 places\tosm-pbf\t.*\timported `),
  )
})

t.test('a file that cannot be imported exits non-zero with one line and leaves the places as they were', async (t) => {
  withBundledPlaces(t)
  const dir = await initDir(t)
  const file = join(dirname(dir), 'berlin.osm.pbf')
  writeFileSync(file, cafes(2))
  t.equal((await svc(['places', 'import', file, '--data-dir', dir])).code, 0)
  const before = readFileSync(join(dir, 'places', 'berlin.ndjson'), 'utf8')
  writeFileSync(file, Buffer.from('not an extract at all, just text'))
  for (const [args, pattern] of [
    [[file], /is not an OpenStreetMap PBF extract/],
    [[join(dirname(dir), 'missing.geojson')], /no file .*missing\.geojson/],
    [[join(dirname(dir), 'places.csv')], /cannot tell the format/],
  ] as const) {
    const r = await svc(['places', 'import', ...args, '--data-dir', dir])
    t.equal(r.code, 1)
    t.equal(r.stdout, '')
    t.match(r.stderr, pattern)
    t.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
  }
  t.equal(readFileSync(join(dir, 'places', 'berlin.ndjson'), 'utf8'), before)
})

t.test('an import beside a running server tells it to read the places again', async (t) => {
  withBundledPlaces(t)
  const dir = await initDir(t)
  const server = await serve(dir)
  t.teardown(() => server.stop())
  const app = JSON.parse((await svc(['app', 'create', '--name', 'Maps', '--json', '--data-dir', dir])).stdout)
  JSON.parse((await svc(['user', 'create', '--username', 'alice', '--password', 'a long passphrase', '--json', '--data-dir', dir])).stdout)
  const { access_token } = JSON.parse((await svc(['token', 'create', '--username', 'alice', '--client-id', app.client_id, '--json', '--data-dir', dir])).stdout)
  const search = async () => {
    const res = await fetch(`${server.url}/stream/0/places/search?latitude=52.52&longitude=13.405&radius=50&q=caf`, {
      headers: { authorization: `Bearer ${access_token}` },
    })
    return ((await res.json()) as { data: { name: string }[] }).data.map((p) => p.name)
  }
  t.same(await search(), [], 'no cafés before the import')
  const file = join(dirname(dir), 'berlin.osm.pbf')
  writeFileSync(file, cafes(4))
  const r = await svc(['places', 'import', file, '--data-dir', dir])
  t.equal(r.code, 0, r.stderr)
  t.match(r.stderr, new RegExp(`the server \\(process ${server.child.pid}\\) searches the new places`))
  t.same(await search(), ['Café 1'], 'the running server finds the imported café, without a restart')
  // The stats come from the server itself, through its admin socket.
  const stats = await svc(['places', 'stats', '--json', '--data-dir', dir])
  t.match(JSON.parse(stats.stdout).sources, [{ id: 'geonames' }, { id: 'berlin', count: 4 }])
})
