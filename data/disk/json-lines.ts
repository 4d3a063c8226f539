/**
 * Reads a JSON Lines file in big chunks, answering its lines in batches with
 * their byte offsets (so a torn tail can be cut exactly). Reading a chunk at
 * a time, rather than a line at a time through readline, is what keeps
 * opening a store of a million rows quick.
 */
import { open } from 'node:fs/promises'

export interface Line {
  text: string
  /** Byte offset of the line's first byte in the file. */
  offset: number
  /** Length in bytes, without the newline. */
  bytes: number
  /** False for a last line with no newline after it: it was cut short. */
  terminated: boolean
}

const CHUNK = 8 << 20

/** The lines of `path` from byte `from` on (a line's start). */
export async function* readLines(path: string, from = 0): AsyncGenerator<Line[]> {
  const handle = await open(path, 'r')
  try {
    let carry: Buffer = Buffer.alloc(0)
    let carryOffset = from
    let position = from
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK)
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, position)
      if (bytesRead === 0) break
      position += bytesRead
      const buf = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead)
      const lines: Line[] = []
      let start = 0
      for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
        lines.push({ text: buf.toString('utf8', start, nl), offset: carryOffset + start, bytes: nl - start, terminated: true })
        start = nl + 1
      }
      carry = buf.subarray(start)
      carryOffset += start
      if (lines.length > 0) yield lines
    }
    if (carry.length > 0) yield [{ text: carry.toString('utf8'), offset: carryOffset, bytes: carry.length, terminated: false }]
  } finally {
    await handle.close()
  }
}

/** Parses a line, answering `undefined` for one that is not JSON (torn or corrupt). */
export const parseLine = (line: Line): unknown => {
  if (!line.terminated) return undefined
  try {
    return JSON.parse(line.text) as unknown
  } catch {
    return undefined
  }
}
