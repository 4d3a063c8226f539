/** Every `svc` command, registered explicitly. */
import type { Command } from 'commander'
import { serveCommand } from './serve.js'

export function registerCommands(program: Command): void {
  serveCommand(program)
}
