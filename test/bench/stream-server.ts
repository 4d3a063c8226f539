/**
 * `svc serve` for the user-streams benchmark, in its own process started
 * with `--expose-gc`: on SIGUSR2 it runs a full garbage collection and prints
 * `gc rss=BYTES heap=BYTES` on stdout, so the benchmark reads the server's
 * memory settled, not with whatever garbage the last burst left.
 * Arguments are those of `svc` (`serve --data-dir ... --port 0`).
 */
import { main } from '../../bin/main.js'

process.on('SIGUSR2', () => {
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  gc?.()
  const m = process.memoryUsage()
  process.stdout.write(`gc rss=${m.rss} heap=${m.heapUsed}\n`)
})

process.exitCode = await main([process.argv[0], 'svc', ...process.argv.slice(2)])
