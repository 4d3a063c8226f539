/** `svc migrate`: bring the data dir to the current format, backing it up first; refuses while a server holds it. Also the PostgreSQL store's schema, for an instance on one. */
import type { Command } from 'commander'
import { loadConfig, migrateDataDir, migrateStore } from '../../data/index.js'
import type { Io } from '../io.js'
import { dataDirOf, reportDataDir, storeOf } from './data-dir.js'

export function migrateCommand(program: Command, io: Io): void {
  program
    .command('migrate')
    .description('upgrade the data dir to the current format (a backup is made first; stop the server before), and the PostgreSQL store of an instance on one')
    .option('--data-dir <dir>', 'data directory')
    .option('--store <url>', "a postgres:// URL (default $SVC_STORE_URL, else the config's store)")
    .option('--json', 'print the result as JSON')
    .action(async (opts: { dataDir?: string; store?: string; json?: boolean }) => {
      const dir = dataDirOf(io, opts)
      const { from, to, backup } = await migrateDataDir(dir)
      reportDataDir(
        io,
        from === to ? `data dir ${dir} is already at format ${to}` : `migrated data dir ${dir} from format ${from} to ${to} (backup in ${backup})`,
      )
      const url = storeOf(io, opts) ?? ((await loadConfig(dir)).store || undefined)
      const store = url ? await migrateStore(url, (line) => reportDataDir(io, line)) : null
      if (store) {
        reportDataDir(
          io,
          store.applied.length > 0
            ? `migrated the PostgreSQL store to format ${store.to}`
            : store.reindexed
              ? `derived the PostgreSQL store's index entries again (format ${store.to})`
              : `the PostgreSQL store is already at format ${store.to}`,
        )
      }
      if (opts.json) {
        const pg = store ? { store: { from: store.from, to: store.to } } : {}
        io.stdout.write(JSON.stringify({ data_dir: dir, from, to, backup: backup ?? null, ...pg }) + '\n')
      }
    })
}
