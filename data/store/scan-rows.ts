/**
 * Reading a whole table without stalling the server: in chunks, with a turn
 * of the event loop between them, so other requests wait one chunk at most.
 */
import type { Row, TableReader } from './port.js'

/** Rows a long scan reads between two yields to the event loop. */
export const SCAN_CHUNK = 5000

/** Lets other requests run before a long scan goes on. */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** Calls `visit` on every row of `table`, oldest first, a chunk at a time. */
export async function visitRows<R extends Row>(table: TableReader<R>, visit: (row: R) => void): Promise<void> {
  let since: number | undefined
  for (;;) {
    const ids = await table.scan({ since, limit: SCAN_CHUNK, order: 'asc' })
    for (const row of await table.getMany(ids)) visit(row)
    if (ids.length < SCAN_CHUNK) return
    since = ids[ids.length - 1]
    await yieldToEventLoop()
  }
}
