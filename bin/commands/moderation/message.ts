/** `svc message delete`: the operator removes one message, keeping the reason with it. */
import type { Command } from 'commander'
import type { Io } from '../../io.js'
import { adminSubcommand, printResult, type AdminFlags } from '../admin-command.js'
import type { RunOperation } from '../run-operation.js'

export function messageCommand(program: Command, io: Io, run: RunOperation): void {
  const message = program.command('message').description('messages, as the operator moderates them')

  adminSubcommand(message, 'delete <id>', 'remove message ID as its author deleting it would (its text goes); the reason is kept with it')
    .requiredOption('--reason <text>', 'why (kept with the removed message)')
    .action(async (id: string, flags: AdminFlags & { reason: string }) => {
      const removal = await run(flags, 'message.delete', { id, reason: flags.reason })
      printResult(io, flags, removal, () =>
        removal.already_deleted
          ? `message ${removal.id} by @${removal.author} was deleted already${removal.removed ? ` (removed: ${removal.removed.reason})` : ''}: nothing done`
          : `removed message ${removal.id} by @${removal.author} in channel ${removal.channel_id}`,
      )
    })
}
