/** The admin operations of federation: outgoing deliveries, and the operator's blocks of other servers. */
import { invalid } from '../errors.js'
import type { AdminArgs, AdminOperation } from './admin-operation.js'

const domainOf = (args: AdminArgs): string => {
  if (typeof args.domain !== 'string' || args.domain.trim() === '') throw invalid('domain is required')
  return args.domain
}

const hostOf = (args: AdminArgs): string => {
  if (typeof args.host !== 'string' || args.host.trim() === '') throw invalid('host is required')
  return args.host
}

const flag = (args: AdminArgs, key: string): boolean => {
  const value = args[key] ?? false
  if (typeof value !== 'boolean') throw invalid(`${key} must be true or false`)
  return value
}

export const federationOperations = {
  /** `{}` → outgoing deliveries per remote host (pending, failing, the last error) and how far the outbox read the event log. */
  'federation.queue': async (domain) => domain.federation.deliveryReport(),
  /** `{domain, silence?, reject_media?}` → the block, and how many known accounts it suspended or limited. */
  'federation.block': async (domain, args) =>
    domain.federation.blocks.block(domainOf(args), { silence: flag(args, 'silence'), reject_media: flag(args, 'reject_media') }),
  /** `{domain}` → the block lifted, and how many accounts it restored. */
  'federation.unblock': async (domain, args) => domain.federation.blocks.unblock(domainOf(args)),
  /** `{host}` → the deliveries to that host waiting in the queue, made due now; how many. */
  'federation.retry': async (domain, args) => domain.federation.deliveriesTo(hostOf(args), 'retry'),
  /** `{host}` → the deliveries to that host waiting in the queue, removed unsent; how many. */
  'federation.drop': async (domain, args) => domain.federation.deliveriesTo(hostOf(args), 'drop'),
  /** `{}` → every block, by domain. */
  'federation.blocks': async (domain) => domain.federation.blocks.list(),
} satisfies Record<string, AdminOperation>
