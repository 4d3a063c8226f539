/** Every `svc` command, registered explicitly. */
import type { Command } from 'commander'
import { initCommand } from './init.js'
import { migrateCommand } from './migrate.js'
import { serveCommand } from './serve.js'

export function registerCommands(program: Command): void {
  initCommand(program)
  migrateCommand(program)
  serveCommand(program)
}
