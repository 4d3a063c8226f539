/**
 * `svc serve`: run the server and its admin socket until SIGINT/SIGTERM,
 * then stop taking requests, let running ones finish, and close the store
 * with every acknowledged write on disk.
 */
import type { Command } from 'commander'
import { openDomain, type Domain } from '../../data/index.js'
import type { AdminSocket, MetricsServer } from '../../server/index.js'
import { environmentOf } from '../environment.js'
import type { Io } from '../io.js'
import { dataDirOf, domainOptionsOf } from './data-dir.js'
import { boundHeapGrowth } from './heap-growth.js'

interface ServeFlags {
  dataDir?: string
  port?: string
  host: string
  publicUrl?: string
  store?: string
  bus?: string
  metricsPort?: string
}

const portOf = (value: string): number => {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN
  if (!(port >= 0 && port <= 65535)) throw new Error(`invalid port ${value}`)
  return port
}

/**
 * Resolves on the first SIGINT or SIGTERM; a second one stops at once. The
 * handlers stay until `release`, through the graceful stop: an exit hook
 * such as signal-exit's (under write-file-atomic) re-raises a signal when it
 * finds itself the only listener left, which would cut the stop short.
 */
const stopSignals = (log: (line: string) => void): { stopped: Promise<string>; release: () => void } => {
  let first: ((signal: string) => void) | null = null
  const stopped = new Promise<string>((resolve) => (first = resolve))
  const onSignal = (signal: string) => {
    if (first === null) {
      log(`${signal} again: stopping now`)
      process.exit(1)
    }
    first(signal)
    first = null
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return {
    stopped,
    release: () => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    },
  }
}

export function serveCommand(program: Command, io: Io): void {
  let log = (line: string): void => void io.stderr.write(`svc: ${line}\n`)
  program
    .command('serve')
    .description('run the server (initialises the data dir on first run)')
    .option('--data-dir <dir>', 'data directory (default $SVC_DATA_DIR, else ./svc-data)')
    .option('--port <n>', 'port (default $PORT, else 8080; 0 picks a free one)')
    .option('--host <h>', 'address to listen on', '0.0.0.0')
    .option('--public-url <url>', 'public base URL of the instance (default: from each request)')
    .option(
      '--bus <url>',
      "a redis:// URL linking the nodes of an instance on PostgreSQL: events and rate limits (default $SVC_BUS_URL, else the config's bus)",
    )
    .option('--store <url>', "a postgres:// URL: keep the data in PostgreSQL (default $SVC_STORE_URL, else the config's store, else the data dir)")
    .option('--metrics-port <n>', "serve Prometheus metrics at http://127.0.0.1:N/metrics (default: the config's metrics_port, else none)")
    .action(async (flags: ServeFlags) => {
      const env = environmentOf(io.env)
      const port = portOf(flags.port ?? env.port ?? '8080')
      const metricsFlag = flags.metricsPort === undefined ? undefined : portOf(flags.metricsPort)
      if (flags.publicUrl !== undefined && !/^https?:\/\/[^/]/.test(flags.publicUrl)) throw new Error(`invalid public URL ${flags.publicUrl}`)
      const { stopped, release } = stopSignals(log)
      boundHeapGrowth(process.execArgv, env.nodeOptions)
      let admin: AdminSocket | undefined
      let metrics: MetricsServer | undefined
      let domain: Domain | undefined
      let stopLogging = () => {}
      // The server's modules load while the store opens (reading its files leaves the thread idle), not before.
      const serverModules = import('../../server/index.js')
      // Awaited below; should the store fail to open first, a failed load is not reported twice.
      serverModules.catch(() => undefined)
      try {
        domain = await openDomain(dataDirOf(io, flags), {
          config: flags.publicUrl ? { public_url: flags.publicUrl.replace(/\/$/, '') } : {},
          ...domainOptionsOf(io, flags),
        })
        if (env.federationAllowPrivate) domain.config.federation.allow_private_addresses = true
        await domain.start()
        const { createServer, serveAdminSocket, makeLogger, instanceMetrics, serveMetrics } = await serverModules
        if (env.rateLimitOff) domain.config.rate_limits.enabled = false
        const logger = makeLogger(io.stdout, domain.config.log_level)
        // Each line said on stderr (which tools read) is in the log too, but on a terminal, where both would show it twice;
        // every warning the process emits is in the log.
        const mirrored = !(io.stdout as { isTTY?: boolean }).isTTY
        log = (line) => {
          io.stderr.write(`svc: ${line}\n`)
          if (mirrored) logger.info(line)
        }
        const onWarning = (warning: Error) => logger.warn({ warning: warning.name, cause: warning.message }, warning.message)
        process.on('warning', onWarning)
        stopLogging = () => process.off('warning', onWarning)
        const metricsPort = metricsFlag ?? domain.config.metrics_port ?? undefined
        const counted = metricsPort === undefined ? undefined : instanceMetrics(domain)
        const server = await createServer(domain, { port, host: flags.host, logger, metrics: counted })
        await server.start()
        const wildcard = ['0.0.0.0', '::'].includes(flags.host)
        const localUrl = `${server.info.protocol}://${wildcard ? 'localhost' : server.info.host}:${server.info.port}`
        admin = await serveAdminSocket(domain, { baseUrl: domain.config.public_url || localUrl, log: (line) => log(line) })
        // Before the line that says it listens: whoever waits for that line finds the metrics up too.
        if (counted && metricsPort !== undefined) metrics = await serveMetrics(counted.registry, metricsPort)
        log(`listening on ${server.info.uri} (data dir ${domain.dataDir}, admin socket ${admin.path})`)
        if (metrics) log(`metrics at ${metrics.url}`)
        // After the line that says it listens, which tools wait for as the first.
        if (env.testPasswordCost !== undefined)
          log(`warning: SVC_TEST_PASSWORD_COST=${env.testPasswordCost} hashes new passwords cheaply, for test suites only`)
        const { site, off } = domain.federation
        log(site ? `federating as @username@${site.authority}${domain.config.federation.allow_private_addresses ? ' (private addresses allowed)' : ''}` : off!)
        // Built in a worker once the server listens, so the first search seldom waits and the start never does.
        domain.places.warm()
        log(`stopping on ${await stopped}`)
        await server.stop({ timeout: 10_000 })
      } finally {
        await metrics?.close()
        await admin?.close()
        await domain?.close()
        release()
        stopLogging()
      }
      log('stopped')
    })
}
