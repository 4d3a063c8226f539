/** The `svc` command line: commands are listed explicitly in `commands/index.ts`. */
import { Command, CommanderError } from 'commander'
import { isDomainError } from '../data/index.js'
import { registerCommands } from './commands/index.js'
import { failureLine } from './failure-line.js'
import { packageVersion } from './package-version.js'

export async function main(argv: readonly string[]): Promise<number> {
  const program = new Command('svc')
    .description('svc: a self-hosted social network (App.net Stream API compatible)')
    .version(packageVersion(), '-V, --version', 'print the version of svc')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
  registerCommands(program)
  try {
    await program.parseAsync([...argv])
    return typeof process.exitCode === 'number' ? process.exitCode : 0
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode
    process.stderr.write(`svc: ${failureLine(err)}\n`)
    return isDomainError(err) && err.code === 'conflict' ? 3 : 1
  }
}
