/** Every `svc` command, registered explicitly. */
import type { Command } from 'commander'
import { initCommand } from './init.js'
import { migrateCommand } from './migrate.js'
import { serveCommand } from './serve.js'
import { appCommand } from './app.js'
import { userCommand } from './user.js'
import { tokenCommand } from './token.js'
import { exploreCommand } from './explore.js'
import { consoleCommand } from './console.js'
import { runOperation } from './run-operation.js'

export function registerCommands(program: Command): void {
  initCommand(program)
  migrateCommand(program)
  serveCommand(program)
  consoleCommand(program)
  appCommand(program, runOperation)
  userCommand(program, runOperation)
  tokenCommand(program, runOperation)
  exploreCommand(program, runOperation)
}
