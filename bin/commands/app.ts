/** `svc app create|list|delete`: register client apps, see them, remove them. */
import type { Command } from 'commander'
import type { AppFacts } from '../../data/index.js'
import type { Io } from '../io.js'
import { adminSubcommand, collect, printResult, type AdminFlags } from './admin-command.js'
import type { RunOperation } from './run-operation.js'

const row = (app: AppFacts): string => [app.id, app.client_id, app.name, app.redirect_uris.join(' ')].join('\t')

export function appCommand(program: Command, io: Io, run: RunOperation): void {
  const app = program.command('app').description('client apps')

  adminSubcommand(app, 'create', 'register a client app (its secrets are shown only now)')
    .requiredOption('--name <name>', 'the app name users see when they authorize it')
    .option('--redirect-uri <uri>', 'an OAuth redirect URI (repeatable)', collect, [])
    .action(async (flags: AdminFlags & { name: string; redirectUri: string[] }) => {
      const created = await run(flags, 'app.create', { name: flags.name, redirect_uris: flags.redirectUri })
      printResult(io, flags, created, () =>
        [
          `client_id: ${created.client_id}`,
          `client_secret: ${created.client_secret}`,
          `password_grant_secret: ${created.password_grant_secret}`,
          `name: ${created.name}`,
          `redirect_uris: ${created.redirect_uris.join(' ')}`,
        ].join('\n'),
      )
      if (!flags.json) io.stderr.write('svc: keep the secrets now, they cannot be shown again\n')
    })

  adminSubcommand(app, 'list', 'list the client apps, oldest first').action(async (flags: AdminFlags) => {
    const apps = await run(flags, 'app.list', {})
    printResult(io, flags, apps, () => apps.map(row).join('\n'))
  })

  adminSubcommand(app, 'delete <client_id>', 'remove a client app and revoke its tokens').action(async (clientId: string, flags: AdminFlags) => {
    const deleted = await run(flags, 'app.delete', { client_id: clientId })
    printResult(io, flags, deleted, () => `deleted app ${deleted.name} (client_id ${deleted.client_id}); its tokens are revoked`)
  })
}
