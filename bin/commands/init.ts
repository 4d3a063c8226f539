/** `svc init`: create the data dir with an empty store and a config; idempotent. */
import type { Command } from 'commander'
import { CURRENT_FORMAT, dataDirFormat, initDataDir, migrateStore, openDomain } from '../../data/index.js'
import type { Io } from '../io.js'
import { busOf, dataDirOf, reportDataDir, storeOf } from './data-dir.js'

export function initCommand(program: Command, io: Io): void {
  program
    .command('init')
    .description('create the data dir with an empty store and a config (does nothing if it exists)')
    .option('--data-dir <dir>', 'data directory')
    .option('--store <url>', "a postgres:// URL: keep the data in PostgreSQL, creating svc's tables there (recorded in the new config)")
    .option('--bus <url>', 'a redis:// URL linking the nodes of the instance (recorded in the new config)')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { dataDir?: string; store?: string; bus?: string; json?: boolean }) => {
      const dir = dataDirOf(io, opts)
      const store = storeOf(io, opts)
      const bus = busOf(io, opts)
      // A new data dir remembers its store and bus, so later commands without the flags reach the same data and nodes.
      const { created } = await initDataDir(dir, { ...(store ? { store } : {}), ...(bus ? { bus } : {}) })
      if (store) await migrateStore(store)
      // Starting the new domain once fills its store as a first `svc serve` would: the default explore streams and svc's own web client.
      if (created) {
        const domain = await openDomain(dir, { store, bus })
        try {
          await domain.start()
        } finally {
          await domain.close()
        }
      }
      const format = (await dataDirFormat(dir)) ?? CURRENT_FORMAT
      reportDataDir(io, created ? `created data dir ${dir} (format ${format})` : `data dir ${dir} already exists (format ${format})`)
      if (format < CURRENT_FORMAT) reportDataDir(io, `data dir ${dir} has format ${format}: run \`svc migrate\``)
      if (opts.json) io.stdout.write(JSON.stringify({ data_dir: dir, created, format }) + '\n')
    })
}
