/**
 * Snapshots: the whole store as JSON lines, written beside the journal and
 * made visible by rename. `snapshot-N.jsonl` holds everything committed
 * before `journal-N.jsonl` started (and possibly some of it, which replaying
 * that journal repeats harmlessly: every journal op is a whole-row put or a
 * delete).
 *
 * Writing walks the tables in slices and yields to the event loop between
 * them, so a snapshot of a million rows never blocks requests for long.
 */
import { createReadStream, createWriteStream } from 'node:fs'
import { open, rename, unlink } from 'node:fs/promises'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import type { MemoryTable } from './memory-table.js'
import type { Row } from './port.js'

export const FORMAT = 1

export interface SnapshotHeader {
  format: number
  journal: number
  seq: Record<string, number>
}

/** Time budget of one slice of snapshot work before yielding. */
const SLICE_MS = 8

const fsyncPath = async (path: string): Promise<void> => {
  const handle = await open(path, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Writes `snapshot-<journal>.jsonl` in `dir` atomically (tmp, fsync, rename, fsync dir). */
export async function writeSnapshot(
  dir: string,
  journal: number,
  tables: ReadonlyMap<string, MemoryTable<Row>>,
): Promise<string> {
  const final = `${dir}/snapshot-${journal}.jsonl`
  const tmp = `${final}.tmp`
  const out = createWriteStream(tmp)
  const write = async (chunk: string): Promise<void> => {
    if (!out.write(chunk)) await once(out, 'drain')
  }
  let buf = ''
  let sliceStart = Date.now()
  for (const [name, table] of tables) {
    const prefix = `[${JSON.stringify(name)},`
    for (const row of table.rows.values()) {
      buf += prefix + JSON.stringify(row) + ']\n'
      if (buf.length > 1 << 20) {
        await write(buf)
        buf = ''
      }
      if (Date.now() - sliceStart > SLICE_MS) {
        await new Promise((r) => setImmediate(r))
        sliceStart = Date.now()
      }
    }
  }
  // Sequences last, so they cover every row written above.
  const seq: Record<string, number> = {}
  for (const [name, table] of tables) seq[name] = table.seq
  const header: SnapshotHeader = { format: FORMAT, journal, seq }
  buf += JSON.stringify({ header }) + '\n'
  await write(buf)
  out.end()
  await once(out, 'finish')
  await fsyncPath(tmp)
  await rename(tmp, final)
  await fsyncPath(dir)
  return final
}

/** Reads a snapshot into the tables; answers its header. */
export async function loadSnapshot(
  path: string,
  tables: ReadonlyMap<string, MemoryTable<Row>>,
): Promise<SnapshotHeader> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity })
  let header: SnapshotHeader | null = null
  for await (const line of lines) {
    if (line.length === 0) continue
    const parsed = JSON.parse(line) as [string, Row] | { header: SnapshotHeader }
    if (Array.isArray(parsed)) {
      const table = tables.get(parsed[0])
      if (!table) throw new Error(`snapshot ${path} names unknown table ${parsed[0]}`)
      table.apply(parsed[1])
    } else header = parsed.header
  }
  if (!header) throw new Error(`snapshot ${path} has no header: it is incomplete`)
  for (const [name, seq] of Object.entries(header.seq)) {
    const table = tables.get(name)
    if (table && seq > table.seq) table.seq = seq
  }
  return header
}

export async function removeQuietly(path: string): Promise<void> {
  try {
    await unlink(path)
  } catch {
    // already gone
  }
}
