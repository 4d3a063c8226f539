/**
 * `svc console`: the Ink admin console, attached to the running server of
 * the data dir through its admin socket. It never opens the store itself:
 * the server owns it, so without one there is nothing to attach to.
 */
import type { Command } from 'commander'
import { attachAdminClient } from '../../admin/admin-client.js'
import { existingDataDirOf } from './data-dir.js'

export function consoleCommand(program: Command): void {
  program
    .command('console')
    .description('the admin console (tokens, explore streams, users, apps), attached to the running server of the data dir')
    .option('--data-dir <dir>', 'data directory (default $SVC_DATA_DIR, else ./svc-data)')
    .action(async (opts: { dataDir?: string }) => {
      const client = attachAdminClient(await existingDataDirOf(opts))
      // Ink reads keys in raw mode, which only a terminal offers.
      if (!process.stdin.isTTY) throw new Error('svc console needs an interactive terminal: its stdin is not a TTY')
      // Loaded here so that the other commands start without Ink and React.
      const [{ render }, { createElement }, { Console }] = await Promise.all([import('ink'), import('react'), import('../../admin/console.js')])
      await render(createElement(Console, { client })).waitUntilExit()
    })
}
