/**
 * `svc console`: the Ink admin console, attached to the running server of
 * the data dir through its admin socket. It never opens the store itself:
 * the server owns it, so without one there is nothing to attach to.
 */
import type { Command } from 'commander'
import { attachAdminClient } from '../../admin/admin-client.js'
import type { Io } from '../io.js'
import { existingDataDirOf } from './data-dir.js'

export function consoleCommand(program: Command, io: Io): void {
  program
    .command('console')
    .description(
      'the admin console (tokens, explore streams, users and apps with moderation, live user streams, events, app streams and filters), attached to the running server of the data dir',
    )
    .option('--data-dir <dir>', 'data directory (default $SVC_DATA_DIR, else ./svc-data)')
    .action(async (opts: { dataDir?: string }) => {
      const client = attachAdminClient(await existingDataDirOf(io, opts))
      // Ink reads keys in raw mode, which only a terminal offers; it draws on the process's own (io's stdin is that terminal).
      if (!io.stdin.isTTY) throw new Error('svc console needs an interactive terminal: its stdin is not a TTY')
      // Ink draws only the last frame, at exit, when it sees CI or CONTINUOUS_INTEGRATION set (read once, at its import);
      // a console in a terminal is interactive wherever it runs, so those go before Ink is loaded.
      delete process.env.CI
      delete process.env.CONTINUOUS_INTEGRATION
      // Loaded here so that the other commands start without Ink and React.
      const [{ render }, { createElement }, { Console }] = await Promise.all([import('ink'), import('react'), import('../../admin/console.js')])
      await render(createElement(Console, { client })).waitUntilExit()
    })
}
