/**
 * Replays journal files into the tables. A crash can leave the last line of
 * the newest journal half-written (it was never acknowledged): that tail is
 * cut off. A bad line anywhere else is corruption and stops the open.
 */
import { truncate } from 'node:fs/promises'
import { readLines, parseLine } from '../../disk/json-lines.js'
import type { MemoryTable } from './memory-table.js'
import { layoutOps } from './op-layout.js'
import type { Op } from '../ops.js'
import type { Row } from '../port.js'
import type { Location } from './row-directory.js'

/** Applies one op; a put row with `at` is read from there from now on, without it it stays in memory. */
export function applyOp(tables: ReadonlyMap<string, MemoryTable<Row>>, op: Op, at?: Location): void {
  const table = tables.get(op[1])
  if (!table) throw new Error(`journal names unknown table ${op[1]}`)
  if (op[0] === 'p') table.apply(op[2], at)
  else if (op[0] === 'd') {
    table.remove(op[2])
    // A deleted id is still spent: the sequence must never hand it out again.
    if (op[2] > table.seq) table.seq = op[2]
  } else {
    table.removeBelow(op[2])
    if (op[2] - 1 > table.seq) table.seq = op[2] - 1
  }
}

const isOps = (value: unknown): value is Op[] =>
  Array.isArray(value) &&
  value.every(
    (op) =>
      Array.isArray(op) &&
      typeof op[1] === 'string' &&
      (op[0] === 'p' ? typeof op[2] === 'object' && op[2] !== null : (op[0] === 'd' || op[0] === 'r') && typeof op[2] === 'number'),
  )

/**
 * Applies every transaction of `path` (file number `file`) from byte `from`
 * on; answers how many were applied. With `isLast`, a bad final line is a
 * torn write and is cut from the file. Throws on a bad line that is
 * followed by others, or ends an older journal.
 */
export async function replayJournal(path: string, file: number, tables: ReadonlyMap<string, MemoryTable<Row>>, isLast: boolean, from = 0): Promise<number> {
  let applied = 0
  let torn: number | null = null
  for await (const lines of readLines(path, from)) {
    for (const line of lines) {
      if (torn !== null) throw corrupt(path, torn, applied + 1)
      const ops = parseLine(line)
      if (!isOps(ops)) {
        torn = line.offset
        continue
      }
      // A line svc wrote lays out again to its own length; one edited by hand may not, and its rows stay in memory.
      const layout = layoutOps(ops)
      const found = layout.bytes === line.bytes
      for (const [i, op] of ops.entries()) {
        const row = layout.rows[i]
        applyOp(tables, op, found && row ? { file, offset: line.offset + row[0], length: row[1] } : undefined)
      }
      applied++
    }
  }
  if (torn !== null) {
    if (!isLast) throw corrupt(path, torn, applied + 1)
    await truncate(path, torn)
  }
  return applied
}

const corrupt = (path: string, offset: number, line: number): Error =>
  new Error(
    `journal ${path} is corrupt at byte ${offset} (line ${line}), before data that was acknowledged; ` +
      'the store will not open: restore the data dir from a backup',
  )
