/**
 * How the console reaches an instance: admin operations by name, answered in
 * the shapes of the admin protocol (data/admin/protocol.ts). The console never opens a store
 * itself (the server that holds the data dir owns it), so the real client
 * talks to that server's admin socket; tests give the console a fake.
 */
import { adminSocketPath, callAdminSocket, lockHolder } from '../data/index.js'

export interface AdminClient {
  /** Runs admin operation `op`; rejects with the server's error (its message is meant for the operator). */
  call(op: string, args?: Record<string, unknown>): Promise<unknown>
}

/** A client of the server listening on admin socket `path`: one connection per operation. */
export const socketAdminClient = (path: string): AdminClient => ({
  call: (op, args = {}) => callAdminSocket(path, op, args),
})

/** The client of the server running on `dataDir`. Throws when no live process holds the dir. */
export function attachAdminClient(dataDir: string): AdminClient {
  if (lockHolder(dataDir) === null) throw new Error(`no server is running on ${dataDir}; start one with svc serve`)
  return socketAdminClient(adminSocketPath(dataDir))
}
