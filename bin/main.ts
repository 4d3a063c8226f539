/** The `svc` command line: commands are listed explicitly in `commands/index.ts`. */
import { Command, CommanderError } from 'commander'
import { isDomainError, packageVersion } from '../data/index.js'
import { registerCommands } from './commands/index.js'
import { failureLine } from './failure-line.js'
import { processIo, type Io } from './io.js'

/** Runs the command `argv` names (as `process.argv`: node, script, arguments...) with `io`; answers its exit code. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const program = new Command('svc')
    .description('svc: a self-hosted social network (App.net Stream API compatible)')
    .version(packageVersion(), '-V, --version', 'print the version of svc')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
  registerCommands(program, io)
  try {
    await program.parseAsync([...argv])
    return typeof process.exitCode === 'number' ? process.exitCode : 0
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode
    io.stderr.write(`svc: ${failureLine(err)}\n`)
    return isDomainError(err) && err.code === 'conflict' ? 3 : 1
  }
}
