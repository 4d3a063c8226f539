/**
 * `svc backup create`, `verify` and `restore`: a consistent backup of an
 * instance taken while it serves (by the process that holds its store),
 * checked whole, and restored into an empty data dir (or, with `--store`,
 * into an empty PostgreSQL store as well).
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Command } from 'commander'
import { copyStore, redactUrl, restoreBackup, verifyBackup, type BackupCheck } from '../../data/index.js'
import type { Io } from '../io.js'
import { adminSubcommand, printResult, type AdminFlags } from './admin-command.js'
import { dataDirOf, reportDataDir, storeOf } from './data-dir.js'
import { progressReporter } from './progress.js'
import type { RunOperation } from './run-operation.js'

const megabytes = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`

/** `svc-backup-20261128T064500Z.tar.gz`: sorts by time, names no one. */
const defaultName = (): string =>
  `svc-backup-${new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.tar.gz`

const checked = (check: BackupCheck): string =>
  `${check.file}: a complete backup taken ${check.created_at}, up to event ${check.events_position}, ${check.files} files (${megabytes(check.data_bytes)})`

export function backupCommand(program: Command, io: Io, run: RunOperation): void {
  const backup = program.command('backup').description('back an instance up while it serves, check a backup, restore one')

  adminSubcommand(backup, 'create', 'write a backup of DIR, taken at one commit while the server goes on (default file: svc-backup-TIME.tar.gz here)')
    .option('--to <file>', 'the file to write (it must not exist)')
    .action(async (flags: AdminFlags & { to?: string }) => {
      // The server that holds the store writes the file: it is told the path as this command means it.
      const to = resolve(process.cwd(), flags.to ?? defaultName())
      const progress = await progressReporter(
        io,
        'backing up {bar} {percentage}% | {written} of {total_mb}',
        (done, total) => `backing up: ${megabytes(done)} of ${megabytes(total)} read`,
      )
      let result
      try {
        result = await run(flags, 'backup.create', { to }, (done, total) =>
          progress.update(done, total, { written: megabytes(done), total_mb: megabytes(total) }),
        )
      } finally {
        progress.stop()
      }
      printResult(io, flags, result, () => `backed up to ${result.file} (${megabytes(result.bytes)}): everything up to event ${result.events_position}`)
    })

  backup
    .command('verify <file>')
    .description('check that FILE is a complete backup whose store opens; exit 0 when it is')
    .option('--json', 'print the result as one JSON value')
    .action(async (file: string, flags: { json?: boolean }) => {
      const check = await verifyBackup(resolve(process.cwd(), file))
      printResult(io, flags, check, () => checked(check))
    })

  backup
    .command('restore <file>')
    .description('restore FILE into DIR, which must be empty or missing; with --store, into an empty PostgreSQL store too')
    .option('--data-dir <dir>', 'data directory to restore into (default $SVC_DATA_DIR, else ./svc-data)')
    .option('--store <url>', 'a postgres:// URL of an empty store to restore the data into (default $SVC_STORE_URL)')
    .option('--json', 'print the result as one JSON value')
    .action(async (file: string, flags: { dataDir?: string; store?: string; json?: boolean }) => {
      const dir = dataDirOf(io, flags)
      const check = await restoreBackup(resolve(process.cwd(), file), dir)
      const url = storeOf(io, flags)
      if (url !== undefined) {
        await copyStore(dir, url)
        // From now on the instance's data is the database's: the data dir keeps its config, uploads and images.
        const config = join(dir, 'config.json')
        await writeFile(config, JSON.stringify({ ...JSON.parse(await readFile(config, 'utf8')), store: url }, null, 2) + '\n')
      }
      reportDataDir(io, `restored ${check.file} into data dir ${dir}${url === undefined ? '' : ` and ${redactUrl(url)}`}`)
      printResult(io, flags, { ...check, data_dir: dir, ...(url === undefined ? {} : { store: redactUrl(url) }) }, () => checked(check))
    })
}
