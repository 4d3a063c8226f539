/**
 * Every admin operation by name: what the CLI and the console may ask of an
 * instance. The same table runs inside `svc serve` (through its admin socket)
 * and on a domain the CLI opens itself when no server holds the data dir.
 * Arguments are plain JSON; each operation checks them.
 */
import type { Domain } from '../domain.js'
import { accountOperations } from './account-operations.js'
import { exploreOperations } from './explore-operations.js'

export type AdminOperation = (domain: Domain, args: any) => Promise<unknown>

export const adminOperations: Record<string, AdminOperation> = {
  ...accountOperations,
  ...exploreOperations,
}
