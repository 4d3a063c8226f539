/** The admin operations of federation: what the operator reads of outgoing deliveries. */
import type { AdminOperation } from './admin-operation.js'

export const federationOperations = {
  /** `{}` → outgoing deliveries per remote host (pending, failing, the last error) and how far the outbox read the event log. */
  'federation.queue': async (domain) => domain.federation.deliveryReport(),
} satisfies Record<string, AdminOperation>
