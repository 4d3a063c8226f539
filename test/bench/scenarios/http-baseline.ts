/** Baseline: what hapi itself does on this machine with a hello-world route. */
import { Worker } from 'node:worker_threads'
import { once } from 'node:events'
import { runLoad } from '../load.js'
import { scaled, type Scenario } from '../scenario.js'

const CONNECTIONS = 50

export const httpBaseline: Scenario = {
  name: 'http-hello-world',
  description: `hapi hello-world route, server in a worker thread, ${CONNECTIONS} keep-alive connections`,
  async run(ctx) {
    const worker = new Worker(new URL('../hello-server.js', import.meta.url))
    try {
      const [port] = (await once(worker, 'message')) as [number]
      const result = await runLoad({
        port,
        connections: CONNECTIONS,
        warmupMs: scaled(ctx, 2000, 300),
        durationMs: scaled(ctx, 10_000, 1000),
        request: () => ({ method: 'GET', path: '/' }),
      })
      return [
        { name: 'requests/s', value: result.rps, unit: 'req/s' },
        { name: 'p50 latency', value: result.p50Ms, unit: 'ms' },
        { name: 'p99 latency', value: result.p99Ms, unit: 'ms' },
        { name: 'errors', value: result.errors, unit: 'requests' },
      ]
    } finally {
      await worker.terminate()
    }
  },
}
