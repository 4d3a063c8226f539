/**
 * How the console reaches an instance: admin operations by name, answered in
 * the shapes of the admin protocol (data/admin/protocol.ts), and watches of
 * topics whose pictures the server pushes as they change. The console never
 * opens a store itself (the server that holds the data dir owns it), so the
 * real client talks to that server's admin socket; tests give the console a fake.
 */
import { adminSocketPath, callAdminSocket, lockHolder, watchAdminSocket, type AdminWatchListener } from '../data/index.js'

export interface AdminClient {
  /** Runs admin operation `op`; rejects with the server's error (its message is meant for the operator). */
  call(op: string, args?: Record<string, unknown>): Promise<unknown>
  /**
   * Watches `topic`: each picture the server pushes goes to `listener`, and
   * so does each failure; a lost server is watched again once it answers.
   * Answers the function that stops watching.
   */
  watch(topic: string, listener: AdminWatchListener): () => void
}

/** A client of the server listening on admin socket `path`: one connection per operation, one per watch. */
export const socketAdminClient = (path: string): AdminClient => ({
  call: (op, args = {}) => callAdminSocket(path, op, args),
  watch: (topic, listener) => watchAdminSocket(path, topic, listener),
})

/** The client of the server running on `dataDir`. Throws when no live process holds the dir. */
export function attachAdminClient(dataDir: string): AdminClient {
  if (lockHolder(dataDir) === null) throw new Error(`no server is running on ${dataDir}; start one with svc serve`)
  return socketAdminClient(adminSocketPath(dataDir))
}
