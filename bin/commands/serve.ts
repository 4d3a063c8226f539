/** `svc serve`: run the server until SIGINT/SIGTERM, then close the store with every write on disk. */
import type { Command } from 'commander'
import { openDomain } from '../../data/index.js'
import { createServer } from '../../server/server.js'
import { dataDirOf } from './data-dir.js'

export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description('run the server (initialises the data dir on first run)')
    .option('--data-dir <dir>', 'data directory')
    .option('--port <n>', 'port (default $PORT, else 8080)')
    .option('--host <h>', 'address to listen on', '0.0.0.0')
    .option('--public-url <url>', 'public base URL of the instance')
    .action(async (opts: { dataDir?: string; port?: string; host: string; publicUrl?: string }) => {
      const port = Number(opts.port ?? process.env.PORT ?? 8080)
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port ${opts.port}`)
      const rateLimitsOff = process.env.SVC_RATE_LIMIT === 'off'
      const domain = await openDomain(dataDirOf(opts), {
        config: {
          ...(opts.publicUrl ? { public_url: opts.publicUrl } : {}),
        },
      })
      if (rateLimitsOff) domain.config.rate_limits.enabled = false
      const server = await createServer(domain, { port, host: opts.host })
      await server.start()
      process.stderr.write(`svc: listening on ${server.info.uri} (data dir ${domain.dataDir})\n`)
      await new Promise<void>((resolve) => {
        const stop = () => resolve()
        process.once('SIGINT', stop)
        process.once('SIGTERM', stop)
      })
      await server.stop({ timeout: 5000 })
      await domain.close()
      process.stderr.write('svc: stopped\n')
    })
}
