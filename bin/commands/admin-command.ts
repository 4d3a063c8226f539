/** What every admin subcommand shares: `--data-dir`, `--json`, and printing one result. */
import type { Command } from 'commander'
import type { Io } from '../io.js'

export interface AdminFlags {
  dataDir?: string
  json?: boolean
}

/** Adds subcommand `spec` (e.g. `create`, `revoke <token>`) of `parent` with the shared flags. */
export const adminSubcommand = (parent: Command, spec: string, description: string): Command =>
  parent
    .command(spec)
    .description(description)
    .option('--data-dir <dir>', 'data directory (default $SVC_DATA_DIR, else ./svc-data)')
    .option('--json', 'print the result as one JSON value')

/** Prints the result on `io`'s stdout: one JSON value with `--json`, else the lines of `text` (nothing when there are none). */
export function printResult(io: Io, flags: AdminFlags, value: unknown, text: () => string): void {
  if (flags.json) {
    io.stdout.write(JSON.stringify(value) + '\n')
    return
  }
  const lines = text()
  if (lines !== '') io.stdout.write(lines + '\n')
}

/** Collects a repeatable option's values. */
export const collect = (value: string, previous: string[]): string[] => [...previous, value]
