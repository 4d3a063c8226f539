/**
 * `svc token create|list|revoke`: issue user tokens, see them, withdraw them.
 * Only hashes of tokens are stored, so a listed token shows its id, never its secret.
 */
import type { Command } from 'commander'
import type { TokenFacts } from '../../data/index.js'
import type { Io } from '../io.js'
import { adminSubcommand, printResult, type AdminFlags } from './admin-command.js'
import type { RunOperation } from './run-operation.js'

const row = (t: TokenFacts): string => [t.id, t.kind, t.app.client_id, t.app.name, t.user ? `@${t.user.username}` : '-', t.scopes.join(',') || '-'].join('\t')

export function tokenCommand(program: Command, io: Io, run: RunOperation): void {
  const token = program.command('token').description('access tokens')

  adminSubcommand(token, 'create', 'issue a user token in an app (all scopes unless --scopes); prints the token once')
    .requiredOption('--username <u>', 'the user the token acts for')
    .requiredOption('--client-id <c>', 'the app the token belongs to')
    .option('--scopes <a,b,...>', 'scopes to grant, comma separated')
    .action(async (flags: AdminFlags & { username: string; clientId: string; scopes?: string }) => {
      const issued = await run(flags, 'token.create', { username: flags.username, client_id: flags.clientId, scopes: flags.scopes })
      // The bare token on stdout, so `TOKEN=$(svc token create ...)` works.
      printResult(io, flags, issued, () => issued.access_token)
      if (!flags.json) io.stderr.write(`svc: token ${issued.token_id} for @${flags.username}, scopes ${issued.token.scopes.join(',')}\n`)
    })

  adminSubcommand(token, 'list', 'list the live tokens: id, kind, app, user, scopes').action(async (flags: AdminFlags) => {
    const tokens = await run(flags, 'token.list', {})
    printResult(io, flags, tokens, () => tokens.map(row).join('\n'))
  })

  adminSubcommand(token, 'revoke <token>', 'revoke a token given as the access token or its id').action(async (ref: string, flags: AdminFlags) => {
    const revoked = await run(flags, 'token.revoke', { token: ref })
    printResult(io, flags, revoked, () => `revoked token ${revoked.id} (${revoked.user ? `@${revoked.user.username} in ` : ''}${revoked.app.name})`)
  })
}
