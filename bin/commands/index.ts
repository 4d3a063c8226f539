/** Every `svc` command, registered explicitly. */
import type { Command } from 'commander'
import type { Io } from '../io.js'
import { initCommand } from './init.js'
import { migrateCommand } from './migrate.js'
import { serveCommand } from './serve.js'
import { appCommand } from './app.js'
import { userCommand } from './user.js'
import { tokenCommand } from './token.js'
import { exploreCommand } from './explore.js'
import { placesCommand } from './places.js'
import { consoleCommand } from './console.js'
import { storeCommand } from './store.js'
import { federationCommand } from './federation.js'
import { backupCommand } from './backup.js'
import { reportCommand } from './moderation/report.js'
import { postCommand } from './moderation/post.js'
import { messageCommand } from './moderation/message.js'
import { inviteCommand } from './invite.js'
import { operationRunner } from './run-operation.js'

/** Registers the commands, each reading and writing through `io`. */
export function registerCommands(program: Command, io: Io): void {
  const run = operationRunner(io)
  initCommand(program, io)
  migrateCommand(program, io)
  serveCommand(program, io)
  consoleCommand(program, io)
  appCommand(program, io, run)
  userCommand(program, io, run)
  tokenCommand(program, io, run)
  exploreCommand(program, io, run)
  placesCommand(program, io, run)
  storeCommand(program, io)
  federationCommand(program, io, run)
  backupCommand(program, io, run)
  reportCommand(program, io, run)
  postCommand(program, io, run)
  messageCommand(program, io, run)
  inviteCommand(program, io, run)
}
