/** `svc report list` and `resolve`: the operator's queue of what users reported. */
import type { Command } from 'commander'
import type { ReportFacts } from '../../../data/index.js'
import type { Io } from '../../io.js'
import { adminSubcommand, printResult, type AdminFlags } from '../admin-command.js'
import type { RunOperation } from '../run-operation.js'

const oneLine = (text: string, max = 80): string => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

const subject = (r: ReportFacts): string =>
  r.kind === 'user'
    ? `account @${r.author}`
    : r.kind === 'post'
      ? `post ${r.post_id} by @${r.author}`
      : `message ${r.message_id} (channel ${r.channel_id}) by @${r.author}`

const describe = (r: ReportFacts): string =>
  [
    `#${r.id}  ${subject(r)}, reported by @${r.reporter} ${r.created_at}${r.resolved_at ? `; resolved ${r.resolved_at}${r.resolution ? `: ${r.resolution}` : ''}` : ''}`,
    `    "${oneLine(r.content.text)}"${r.reason ? `  reason: ${oneLine(r.reason)}` : ''}`,
  ].join('\n')

export function reportCommand(program: Command, io: Io, run: RunOperation): void {
  const report = program.command('report').description("users' reports of posts, accounts and messages")

  adminSubcommand(report, 'list', 'the open reports, oldest first, each with what was said when reported')
    .option('--all', 'resolved reports too')
    .action(async (flags: AdminFlags & { all?: boolean }) => {
      const reports = await run(flags, 'report.list', { all: flags.all === true })
      printResult(io, flags, reports, () => (reports.length === 0 ? (flags.all ? 'no reports' : 'no open reports') : reports.map(describe).join('\n')))
    })

  adminSubcommand(report, 'resolve <id>', 'close report ID, with a note on what was done')
    .option('--note <text>', 'what was done (kept with the report)')
    .action(async (id: string, flags: AdminFlags & { note?: string }) => {
      const resolved = await run(flags, 'report.resolve', { id, ...(flags.note === undefined ? {} : { note: flags.note }) })
      printResult(io, flags, resolved, () => describe(resolved))
    })
}
