/** `svc store copy`: move an instance from the embedded store of its data dir to PostgreSQL. */
import type { Command } from 'commander'
import { copyStore, redactUrl } from '../../data/index.js'
import type { Io } from '../io.js'
import { printResult } from './admin-command.js'
import { dataDirOf, reportDataDir, storeOf } from './data-dir.js'
import { progressReporter } from './progress.js'

export function storeCommand(program: Command, io: Io): void {
  const store = program.command('store').description('move an instance between stores')
  store
    .command('copy')
    .description("copy the data of the embedded store in DIR to an empty PostgreSQL store, in one transaction; checks every table's row count")
    .option('--from <dir>', 'data directory to copy from (default $SVC_DATA_DIR, else ./svc-data); stop its server first')
    .option('--to <url>', 'postgres:// URL of the store to copy into (default $SVC_STORE_URL)')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { from?: string; to?: string; json?: boolean }) => {
      const dir = dataDirOf(io, { dataDir: opts.from })
      const url = storeOf(io, { store: opts.to })
      if (url === undefined) throw new Error('svc store copy needs --to postgres://... (or SVC_STORE_URL)')
      const progress = await progressReporter(
        io,
        'copying {table} [{bar}] {percentage}% | {value}/{total} rows | {eta_formatted} left',
        (done, total, { table }) => `copying ${table}: ${done} of ${total} rows`,
      )
      let report
      try {
        report = await copyStore(dir, url, (p) => progress.update(p.copied, p.total, { table: p.table }))
      } finally {
        progress.stop()
      }
      reportDataDir(io, `copied data dir ${dir} to ${redactUrl(url)}; start the instance on it with svc serve --store URL (or "store" in config.json)`)
      const result = { from: dir, to: redactUrl(url), total: report.total, tables: report.tables }
      printResult(io, opts, result, () =>
        [
          `copied ${report.total} rows; every table's count matches:`,
          ...Object.entries(report.tables)
            .filter(([, n]) => n > 0)
            .map(([name, n]) => `${name}\t${n}`),
        ].join('\n'),
      )
    })
}
