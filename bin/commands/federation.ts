/**
 * `svc federation queue`: what is being delivered to other servers, per
 * remote instance, and what failed; `svc federation block`, `unblock` and
 * `list`: the operator's blocks of other servers.
 */
import type { Command } from 'commander'
import type { DeliveryReport, DomainBlock, DomainBlockChange, HostDeliveries } from '../../data/index.js'
import type { Io } from '../io.js'
import { adminSubcommand, printResult, type AdminFlags } from './admin-command.js'
import type { RunOperation } from './run-operation.js'

const COLUMNS = ['HOST', 'PENDING', 'FAILING', 'GIVEN UP', 'DELIVERED', 'LAST ERROR'] as const

const cells = (h: HostDeliveries): string[] => [
  h.host,
  String(h.pending),
  String(h.failing),
  String(h.given_up),
  String(h.delivered),
  h.last_error === null ? '-' : `${h.last_error_at} (try ${h.last_error_attempt}) ${h.last_error}`,
]

/** Rows of cells as a table: each column as wide as its widest cell, the last one left as it is. */
function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')).join('\n')
}

function describe(report: DeliveryReport): string {
  const { cursor, head, node } = report.outbox
  const lines = [
    report.federating ? '' : 'federation is off (no public_url, or federation.enabled false): nothing new is delivered',
    cursor === null
      ? 'outbox: not started yet'
      : `outbox: event ${cursor} of ${head} read${cursor < head ? ` (${head - cursor} to go)` : ''}${node ? `, by node ${node}` : ''}`,
    report.hosts.length === 0 ? 'no deliveries to other servers yet' : table([[...COLUMNS], ...report.hosts.map(cells)]),
  ]
  return lines.filter((l) => l !== '').join('\n')
}

const blockLine = (b: DomainBlock): string => `${b.domain}  ${b.severity}${b.reject_media ? ', media rejected' : ''}  since ${b.created_at}`

const accounts = (n: number) => `${n} known account${n === 1 ? '' : 's'}`

function describeBlock({ block, accounts: n }: DomainBlockChange): string {
  const what = block.severity === 'suspend' ? `suspended (${accounts(n)} hidden)` : `silenced (${accounts(n)} limited)`
  return `${block.domain} ${what}${block.reject_media ? '; its media rejected' : ''}`
}

export function federationCommand(program: Command, io: Io, run: RunOperation): void {
  const federation = program.command('federation').description('ActivityPub federation')

  adminSubcommand(federation, 'queue', 'outgoing deliveries per remote instance: pending, failing, given up, the last error').action(
    async (flags: AdminFlags) => {
      const report = await run(flags, 'federation.queue', {})
      printResult(io, flags, report, () => describe(report))
    },
  )

  for (const [verb, about, done] of [
    ['retry', 'try the deliveries to a remote host waiting in the queue now, without waiting out their backoff', 'to be tried now'],
    ['drop', 'remove the deliveries to a remote host waiting in the queue: they are never sent', 'dropped'],
  ] as const) {
    adminSubcommand(federation, `${verb} <host>`, about).action(async (host: string, flags: AdminFlags) => {
      const change = await run(flags, `federation.${verb}`, { host })
      printResult(io, flags, change, () => `${change.deliveries} deliver${change.deliveries === 1 ? 'y' : 'ies'} to ${change.host} ${done}`)
    })
  }

  adminSubcommand(
    federation,
    'block <domain>',
    'block a server (a domain and its subdomains, or host:port): refuse what it sends, send it nothing, hide its accounts',
  )
    .option('--silence', 'only keep its accounts out of public streams for those who do not follow them')
    .option('--reject-media', 'show none of its accounts’ images')
    .action(async (domain: string, flags: AdminFlags & { silence?: boolean; rejectMedia?: boolean }) => {
      const change = await run(flags, 'federation.block', { domain, silence: flags.silence === true, reject_media: flags.rejectMedia === true })
      printResult(io, flags, change, () => describeBlock(change))
    })

  adminSubcommand(federation, 'unblock <domain>', 'lift the block of a server; the accounts it suspended come back').action(
    async (domain: string, flags: AdminFlags) => {
      const change = await run(flags, 'federation.unblock', { domain })
      printResult(io, flags, change, () => `${change.block.domain} unblocked (${accounts(change.accounts)} restored)`)
    },
  )

  adminSubcommand(federation, 'list', 'the blocked servers').action(async (flags: AdminFlags) => {
    const blocks = await run(flags, 'federation.blocks', {})
    printResult(io, flags, blocks, () => (blocks.length === 0 ? 'no server is blocked' : blocks.map(blockLine).join('\n')))
  })
}
