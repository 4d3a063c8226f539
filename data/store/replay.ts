/**
 * Replays journal files into the tables. A crash can leave the last line of
 * the newest journal half-written (it was never acknowledged): that tail is
 * cut off. A bad line anywhere else is corruption and stops the open.
 */
import { readFile, truncate } from 'node:fs/promises'
import type { MemoryTable } from './memory-table.js'
import type { Row } from './port.js'

/** One journal op: put a whole row, or delete a row by id. */
export type Op = ['p', string, Row] | ['d', string, number]

export function applyOp(tables: ReadonlyMap<string, MemoryTable<Row>>, op: Op): void {
  const table = tables.get(op[1])
  if (!table) throw new Error(`journal names unknown table ${op[1]}`)
  if (op[0] === 'p') table.apply(op[2])
  else {
    table.remove(op[2])
    if (op[2] > table.seq) table.seq = op[2]
  }
}

/** Applies every transaction of `path`; answers how many were applied. */
export async function replayJournal(
  path: string,
  tables: ReadonlyMap<string, MemoryTable<Row>>,
  isLast: boolean,
): Promise<number> {
  const buf = await readFile(path)
  let offset = 0
  let applied = 0
  while (offset < buf.length) {
    const nl = buf.indexOf(10, offset)
    const end = nl === -1 ? buf.length : nl
    let ops: Op[] | null = null
    if (nl !== -1) {
      try {
        ops = JSON.parse(buf.subarray(offset, end).toString('utf8')) as Op[]
      } catch {
        ops = null
      }
    }
    if (ops === null) {
      const isTail = nl === -1 || nl === buf.length - 1
      if (!(isLast && isTail)) throw new Error(`journal ${path} is corrupt at byte ${offset}`)
      await truncate(path, offset)
      break
    }
    for (const op of ops) applyOp(tables, op)
    applied++
    offset = end + 1
  }
  return applied
}
