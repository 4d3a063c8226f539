/** `svc post delete`: the operator removes one post, keeping the reason with it. */
import type { Command } from 'commander'
import type { Io } from '../../io.js'
import { adminSubcommand, printResult, type AdminFlags } from '../admin-command.js'
import type { RunOperation } from '../run-operation.js'

export function postCommand(program: Command, io: Io, run: RunOperation): void {
  const post = program.command('post').description('posts, as the operator moderates them')

  adminSubcommand(
    post,
    'delete <id>',
    'remove post ID (and its reposts) as its author deleting it would; the reason is kept, and open reports of it are resolved',
  )
    .requiredOption('--reason <text>', 'why (kept with the removed post)')
    .action(async (id: string, flags: AdminFlags & { reason: string }) => {
      const removal = await run(flags, 'post.delete', { id, reason: flags.reason })
      printResult(io, flags, removal, () =>
        removal.already_deleted
          ? `post ${removal.id} by @${removal.author} was deleted already${removal.removed ? ` (removed: ${removal.removed.reason})` : ''}: nothing done`
          : `removed post ${removal.id} by @${removal.author}${removal.reports_resolved > 0 ? `; ${removal.reports_resolved} report${removal.reports_resolved === 1 ? '' : 's'} resolved` : ''}`,
      )
    })
}
