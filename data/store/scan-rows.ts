/**
 * Reading a whole table without stalling the server: in chunks, with a turn
 * of the event loop between them, so other requests wait one chunk at most.
 */
import type { Range, Row, TableReader } from './port.js'

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

/**
 * An id source over the rows of `table` that `match` accepts, taken from
 * `candidates` (default: every row). It reads in chunks and yields between
 * them, so a rare match in a big table delays other requests by one chunk
 * at most.
 */
export const scanMatching =
  <R extends Row>(table: TableReader<R>, match: (row: R) => boolean, candidates: (range: Range) => Promise<number[]> = (range) => table.scan(range)) =>
  async (range: Range): Promise<number[]> => {
    const out: number[] = []
    const asc = range.order === 'asc'
    let { since, before } = range
    for (;;) {
      const ids = await candidates({ since, before, limit: SCAN_CHUNK, order: range.order })
      if (ids.length === 0) return out
      for (const row of await table.getMany(ids)) {
        if (match(row)) out.push(row.id)
        if (out.length >= range.limit) return out
      }
      if (ids.length < SCAN_CHUNK) return out
      if (asc) since = ids[ids.length - 1]
      else before = ids[ids.length - 1]
      await yieldToEventLoop()
    }
  }
