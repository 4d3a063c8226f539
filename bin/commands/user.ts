/** `svc user create|list`: make accounts and see them. */
import type { Command } from 'commander'
import type { AdminUser } from '../../data/index.js'
import type { Io } from '../io.js'
import { adminSubcommand, printResult, type AdminFlags } from './admin-command.js'
import { passwordFrom, type PasswordFlags } from './password-input.js'
import type { RunOperation } from './run-operation.js'

const row = (user: AdminUser): string => [user.id, `@${user.username}`, user.name, user.type].join('\t')

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
}
