/** `svc invite create` and `list`: links that admit people to sign up while registration is closed. */
import type { Command } from 'commander'
import type { InviteFacts } from '../../data/index.js'
import type { Io } from '../io.js'
import { adminSubcommand, printResult, type AdminFlags } from './admin-command.js'
import type { RunOperation } from './run-operation.js'

const line = (i: InviteFacts): string => `#${i.id}  ${i.uses_left} of ${i.uses} left  made ${i.created_at}`

export function inviteCommand(program: Command, io: Io, run: RunOperation): void {
  const invite = program.command('invite').description('invitations to sign up while registration is closed')

  adminSubcommand(invite, 'create', 'make a link that admits --uses people (default 1) to /signup; it is shown this once')
    .option('--uses <n>', 'how many accounts the link may make', '1')
    .action(async (flags: AdminFlags & { uses: string }) => {
      const uses = /^\d{1,6}$/.test(flags.uses) ? Number(flags.uses) : NaN
      if (!Number.isInteger(uses)) throw new Error(`--uses must be a whole number, not ${flags.uses}`)
      const made = await run(flags, 'invite.create', { uses })
      printResult(io, flags, made, () => `${made.link}\nadmits ${made.uses} ${made.uses === 1 ? 'person' : 'people'}; the link is shown this once`)
    })

  adminSubcommand(invite, 'list', 'the invitations, newest first, with the uses each has left').action(async (flags: AdminFlags) => {
    const invites = await run(flags, 'invite.list', {})
    printResult(io, flags, invites, () => (invites.length === 0 ? 'no invitations' : invites.map(line).join('\n')))
  })
}
