/**
 * `npm run bench:restart [cycles]` (default 20): kill -9 under write load,
 * then `svc serve` again at once on the same data dir, with each killed
 * server left a zombie; prints each cycle and fails at the first refused
 * restart or lost write. Too long for `npm test`, which runs three cycles
 * (test/e2e/restart.test.ts).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { restartCycles, SVC } from '../fixtures/restart-cycles.js'

const cycles = Number(process.argv[2] ?? 20)
const root = mkdtempSync(join(tmpdir(), 'svc-restart-'))
const dir = join(root, 'svc-data')
try {
  execFileSync('node', [SVC, 'init', '--data-dir', dir], { stdio: 'ignore' })
  const started = Date.now()
  const results = await restartCycles(dir, cycles, (r) =>
    process.stdout.write(`cycle ${r.cycle}: ${r.acknowledged} acknowledged, ${r.lost} lost, listening again ${r.restartMs} ms after the kill\n`),
  )
  const lost = results.reduce((n, r) => n + r.lost, 0)
  process.stdout.write(`${results.length}/${cycles} restarts, ${lost} acknowledged writes lost, ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
  if (results.length !== cycles || lost > 0) process.exitCode = 1
} finally {
  rmSync(root, { recursive: true, force: true })
}
