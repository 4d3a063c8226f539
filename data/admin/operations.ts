/**
 * Every admin operation by name: what the CLI and the console may ask of an
 * instance. The same table runs inside `svc serve` (through its admin socket)
 * and on a domain the CLI opens itself when no server holds the data dir.
 * Arguments are plain JSON; each operation checks them.
 */
import { accountOperations } from './account-operations.js'
import { backupOperations } from './backup-operations.js'
import { reportOperations } from './report-operations.js'
import { exploreOperations } from './explore-operations.js'
import { federationOperations } from './federation-operations.js'
import { moderationOperations } from './moderation-operations.js'
import { placeOperations } from './place-operations.js'

export const adminOperations = {
  ...accountOperations,
  ...moderationOperations,
  ...exploreOperations,
  ...placeOperations,
  ...federationOperations,
  ...backupOperations,
  ...reportOperations,
}

export type AdminOperationName = keyof typeof adminOperations

/** What operation `N` answers before the edge presents it: domain values (rows, token facts). */
export type AdminValue<N extends AdminOperationName> = Awaited<ReturnType<(typeof adminOperations)[N]>>

/** Is `name` an admin operation? (Names arrive as text from the socket and the CLI.) */
export const isAdminOperation = (name: string): name is AdminOperationName => Object.hasOwn(adminOperations, name)
