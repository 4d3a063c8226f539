/** `svc migrate`: bring the data dir to the current format, backing it up first; refuses while a server holds it. */
import type { Command } from 'commander'
import { migrateDataDir } from '../../data/index.js'
import type { Io } from '../io.js'
import { dataDirOf, reportDataDir } from './data-dir.js'

export function migrateCommand(program: Command, io: Io): void {
  program
    .command('migrate')
    .description('upgrade the data dir to the current format (a backup is made first; stop the server before)')
    .option('--data-dir <dir>', 'data directory')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { dataDir?: string; json?: boolean }) => {
      const dir = dataDirOf(io, opts)
      const { from, to, backup } = await migrateDataDir(dir)
      reportDataDir(
        io,
        from === to ? `data dir ${dir} is already at format ${to}` : `migrated data dir ${dir} from format ${from} to ${to} (backup in ${backup})`,
      )
      if (opts.json) io.stdout.write(JSON.stringify({ data_dir: dir, from, to, backup: backup ?? null }) + '\n')
    })
}
