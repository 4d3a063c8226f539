/** `svc user create|list|suspend|unsuspend|delete|approve|reject|reset-password|reset-2fa`: make accounts, see them, moderate them. */
import type { Command } from 'commander'
import type { AdminUser } from '../../data/index.js'
import type { Io } from '../io.js'
import { adminSubcommand, printResult, type AdminFlags } from './admin-command.js'
import { passwordFrom, type PasswordFlags } from './password-input.js'
import type { RunOperation } from './run-operation.js'

const waits = (user: AdminUser): string[] =>
  user.waiting_approval ? [`waiting for approval${user.waiting_approval.note ? `: ${JSON.stringify(user.waiting_approval.note)}` : ''}`] : []

const row = (user: AdminUser): string =>
  [user.id, `@${user.username}`, user.name, user.type, ...(user.suspended_at ? ['suspended'] : []), ...waits(user)].join('\t')

/** The moderation subcommands taking one USERNAME: the operation each runs and the line it prints. */
const MODERATION = [
  {
    verb: 'suspend',
    op: 'user.suspend',
    about: 'suspend an account: it cannot sign in, its tokens are revoked, its posts leave every stream',
    done: 'suspended',
  },
  { verb: 'unsuspend', op: 'user.unsuspend', about: 'lift a suspension: the posts come back, the user signs in again', done: 'unsuspended' },
  { verb: 'delete', op: 'user.delete', about: 'delete an account for good: its posts, tokens and relations go, its username is free', done: 'deleted' },
  { verb: 'approve', op: 'user.approve', about: 'let in an account that waits for approval: it signs in and shows from now on', done: 'approved' },
  { verb: 'reject', op: 'user.reject', about: 'turn away an account that waits for approval: it is removed, its username free', done: 'rejected' },
] as const

export function userCommand(program: Command, io: Io, run: RunOperation): void {
  const user = program.command('user').description('accounts')

  adminSubcommand(user, 'create', 'create an account; prints the User object')
    .requiredOption('--username <u>', 'username: 1 to 20 of a-z, 0-9 and _')
    .option('--password <p>', 'password, at least 8 characters (without it: asked at the terminal, without echo)')
    .option('--password-stdin', 'read the password from the first line of standard input')
    .option('--name <n>', 'display name (default: the username)')
    .option('--type <type>', 'human, bot or feed', 'human')
    .action(async (flags: AdminFlags & PasswordFlags & { username: string; name?: string; type: string }) => {
      const created = await run(flags, 'user.create', {
        username: flags.username,
        password: await passwordFrom(io, flags),
        name: flags.name,
        type: flags.type,
      })
      printResult(io, flags, created, () => `created user @${created.username} (id ${created.id}, ${created.type})`)
    })

  adminSubcommand(user, 'list', 'list the accounts, oldest first').action(async (flags: AdminFlags) => {
    const users = await run(flags, 'user.list', {})
    printResult(io, flags, users, () => users.map(row).join('\n'))
  })

  for (const { verb, op, about, done } of MODERATION) {
    adminSubcommand(user, `${verb} <username>`, about).action(async (username: string, flags: AdminFlags) => {
      const changed = await run(flags, op, { username })
      printResult(io, flags, changed, () => `${done} user @${changed.username} (id ${changed.id})`)
    })
  }

  adminSubcommand(user, 'reset-password <username>', "set a new password and revoke the account's tokens")
    .option('--password-stdin', 'read the password from the first line of standard input (without it: asked at the terminal, without echo)')
    .action(async (username: string, flags: AdminFlags & Pick<PasswordFlags, 'passwordStdin'>) => {
      const changed = await run(flags, 'user.reset-password', { username, password: await passwordFrom(io, { passwordStdin: flags.passwordStdin }) })
      printResult(io, flags, changed, () => `new password for @${changed.username} (id ${changed.id}); their tokens are revoked`)
    })

  adminSubcommand(
    user,
    'reset-2fa <username>',
    "turn two-factor sign-in off for a user who lost their app and recovery codes; ends the account's sessions and tokens",
  ).action(async (username: string, flags: AdminFlags) => {
    const changed = await run(flags, 'user.reset-2fa', { username })
    printResult(io, flags, changed, () => `two-factor sign-in is off for @${changed.username} (id ${changed.id}); they are signed out everywhere`)
  })
}
