import t from 'tap'
import { readdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ALONE, GROUPS, groupOf } from './groups.js'
import { groupOfSuite, testFiles } from './run-group.js'

const here = dirname(fileURLToPath(import.meta.url))

t.test('every test file runs in exactly the one group its folder names (the benches are no tests)', async (t) => {
  const files = testFiles()
  t.ok(files.length > 100, `${files.length} test files found`)
  const orphans = files.filter((path) => !ALONE.some((folder) => path.startsWith(`${folder}/`)) && groupOf(path) === undefined)
  t.same(orphans, [])
  t.equal(groupOf('server/posts/posts.test.ts'), 'server-posts-channels')
  t.equal(groupOf('server/bad-input-fuzz.test.ts'), 'server')
  t.equal(groupOf('server/admin-socket.test.ts'), 'server-streams')
  t.equal(groupOf('data/places/places.test.ts'), 'data-places')
  t.equal(groupOf('e2e/crash.test.ts'), 'e2e')
  t.equal(groupOf('e2e/federation.test.ts'), 'e2e-federation')
  t.equal(groupOf('bin/serve.test.ts'), 'bin')
  t.equal(groupOf('bench/scenarios.test.ts'), undefined)
})

t.test('each group has its suite file, which tap runs', async (t) => {
  const suites = readdirSync(here).filter((name) => /\.suite\.[jt]s$/.test(name) && !name.endsWith('.d.ts'))
  for (const group of Object.keys(GROUPS))
    t.ok(
      suites.some((name) => groupOfSuite(name) === group),
      group,
    )
  t.equal(groupOfSuite('08-server-posts-channels.suite.js'), 'server-posts-channels')
})
