/**
 * A journal line and where each row sits in it. A line is exactly
 * `JSON.stringify(ops)`; built piece by piece, it also tells the byte offset
 * and length of every put row's JSON inside it, so the row can later be read
 * straight from the journal without parsing the line again.
 */
import type { Op } from '../ops.js'

export interface OpLayout {
  line: string
  /** The line's length in bytes (without its newline). */
  bytes: number
  /** For each op: `[offset in the line, length]` of a put row's JSON, or null. */
  rows: ([number, number] | null)[]
}

export function layoutOps(ops: readonly Op[]): OpLayout {
  const parts: string[] = []
  const rows: ([number, number] | null)[] = []
  let at = 1
  for (const op of ops) {
    if (op[0] === 'p') {
      const head = `["p",${JSON.stringify(op[1])},`
      const json = JSON.stringify(op[2])
      const headBytes = Buffer.byteLength(head)
      const jsonBytes = Buffer.byteLength(json)
      rows.push([at + headBytes, jsonBytes])
      parts.push(head + json + ']')
      at += headBytes + jsonBytes + 1
    } else {
      const part = JSON.stringify(op)
      rows.push(null)
      parts.push(part)
      at += Buffer.byteLength(part)
    }
    at += 1
  }
  // `at` counted a comma after the last op: that byte is the closing bracket.
  return { line: '[' + parts.join(',') + ']', bytes: Math.max(at, 2), rows }
}
