/**
 * Snapshots: the whole store as JSON lines, written beside the journal and
 * made visible by rename. `snapshot-N.jsonl` holds everything committed
 * before `journal-N.jsonl` started, and possibly some of what that journal
 * holds, since commits go on while the snapshot is written; replaying the
 * journal over it repeats those harmlessly, because every journal op is a
 * whole-row put, a delete or a delete of every id below one, applied in order.
 *
 * Writing walks the tables in slices and yields to the event loop between
 * them, so a snapshot of a million rows never blocks requests for long.
 */
import { open, rename, unlink } from 'node:fs/promises'
import { PRIVATE_FILE } from '../../disk/file-modes.js'
import { fsyncPath } from '../../disk/fsync.js'
import { parseLine, readLines } from '../../disk/json-lines.js'
import type { Entry, MemoryTable } from './memory-table.js'
import type { Row } from '../port.js'
import { snapshotFile, type RowFiles } from './row-files.js'

/** Version of the snapshot line format (the data dir's format lives in meta.json). */
export const FORMAT = 1

export interface SnapshotHeader {
  format: number
  journal: number
  seq: Record<string, number>
}

/** Time budget of one slice of snapshot work before yielding. */
const SLICE_MS = 8
/** Rows between two looks at the clock. */
const ROWS_PER_CHECK = 256
/** Bytes gathered before one write. */
const WRITE_BYTES = 1 << 20

/**
 * Bytes written between two fdatasyncs of the snapshot. Syncing as we go
 * keeps the dirty page cache small: on ext4 (data=ordered) a journal fsync
 * can otherwise wait for hundreds of MB of snapshot data to reach the disk,
 * and commits made during a snapshot would stall.
 */
const SYNC_BYTES = 8 << 20

/** A row copied into the snapshot, relocated there once its bytes are written. */
interface Copied {
  table: MemoryTable<Row>
  from: Entry<Row>
  offset: number
  length: number
}

/**
 * Writes `snapshot-<journal>.jsonl` in `dir` atomically (tmp, fsync, rename,
 * fsync dir). Each row's bytes are copied from where they are (or written
 * out of memory); with `files`, every row copied is read from the new
 * snapshot from then on, unless it changed meanwhile, so the files it
 * replaces can go.
 */
export async function writeSnapshot(dir: string, journal: number, tables: ReadonlyMap<string, MemoryTable<Row>>, files?: RowFiles): Promise<string> {
  const final = `${dir}/snapshot-${journal}.jsonl`
  const tmp = `${final}.tmp`
  const out = await open(tmp, 'w', PRIVATE_FILE)
  const file = snapshotFile(journal)
  let written = 0
  let unsynced = 0
  let chunks: Buffer[] = []
  let buffered = 0
  let copied: Copied[] = []
  const flush = async (): Promise<void> => {
    const bytes = Buffer.concat(chunks, buffered)
    chunks = []
    buffered = 0
    await out.write(bytes, 0, bytes.length, null)
    written += bytes.length
    unsynced += bytes.length
    if (files) for (const c of copied) c.table.relocate(c.from, { file, offset: c.offset, length: c.length })
    copied = []
    if (unsynced >= SYNC_BYTES) {
      await out.datasync()
      unsynced = 0
    }
  }
  const push = (chunk: Buffer): void => {
    chunks.push(chunk)
    buffered += chunk.length
  }
  try {
    if (files) files.openAs(file, tmp)
    let sliceStart = performance.now()
    for (const [name, table] of tables) {
      const prefix = Buffer.from(`[${JSON.stringify(name)},`)
      // Ids are walked in windows after the last one done, so rows added or removed while we are away are no trouble.
      let since: number | undefined
      for (;;) {
        const ids = table.scan({ since, limit: ROWS_PER_CHECK, order: 'asc' })
        for (const id of ids) {
          const copy = table.copyOut(id)
          if (!copy) continue
          push(prefix)
          copied.push({ table, from: copy.from, offset: written + buffered, length: copy.bytes.length })
          push(copy.bytes)
          push(LINE_END)
        }
        if (buffered > WRITE_BYTES) await flush()
        if (ids.length < ROWS_PER_CHECK) break
        since = ids[ids.length - 1]
        if (performance.now() - sliceStart > SLICE_MS) {
          await new Promise((r) => setImmediate(r))
          sliceStart = performance.now()
        }
      }
    }
    // Sequences last, so they cover every row written above.
    const seq: Record<string, number> = {}
    for (const [name, table] of tables) seq[name] = table.seq
    const header: SnapshotHeader = { format: FORMAT, journal, seq }
    push(Buffer.from(JSON.stringify({ header }) + '\n'))
    await flush()
    await out.sync()
  } catch (err) {
    await out.close().catch(() => undefined)
    await removeQuietly(tmp)
    throw err
  }
  await out.close()
  await rename(tmp, final)
  await fsyncPath(dir)
  return final
}

const LINE_END = Buffer.from(']\n')

/**
 * Reads a snapshot (file number `file`) into the tables; answers its header.
 * Each row is read from the snapshot from then on. Throws on a damaged or
 * unknown snapshot.
 */
export async function loadSnapshot(path: string, file: number, tables: ReadonlyMap<string, MemoryTable<Row>>): Promise<SnapshotHeader> {
  let header: SnapshotHeader | null = null
  for await (const lines of readLines(path)) {
    for (const line of lines) {
      const parsed = parseLine(line) as [string, Row] | { header: SnapshotHeader } | undefined
      if (parsed === undefined || parsed === null) throw new Error(`snapshot ${path} is corrupt at byte ${line.offset}`)
      if (Array.isArray(parsed)) {
        const table = tables.get(parsed[0])
        if (!table) throw new Error(`snapshot ${path} names unknown table ${parsed[0]}`)
        // `["name",{...}]`: the row is what lies between the prefix and the closing bracket.
        const prefix = parsed[0].length + 4
        const plain = line.text.charCodeAt(prefix - 1) === 44 && line.text.charCodeAt(line.text.length - 1) === 93
        table.apply(parsed[1], plain ? { file, offset: line.offset + prefix, length: line.bytes - prefix - 1 } : undefined)
      } else header = parsed.header
    }
  }
  if (!header) throw new Error(`snapshot ${path} has no header: it is incomplete`)
  if (header.format !== FORMAT) throw new Error(`snapshot ${path} has format ${header.format}; this svc reads format ${FORMAT}`)
  for (const [name, seq] of Object.entries(header.seq)) {
    const table = tables.get(name)
    if (table && seq > table.seq) table.seq = seq
  }
  return header
}

/** Bytes freed per step by `removeGradually`. */
const TRUNCATE_STEP = 16 << 20

/**
 * Deletes a big file a slice at a time. Unlinking a 300 MB snapshot in one
 * go makes ext4 free all its blocks in one journal transaction, and every
 * commit's fdatasync waits for it (measured: 250 ms); freeing 16 MB per step
 * keeps each wait short.
 */
export async function removeGradually(path: string): Promise<void> {
  try {
    const handle = await open(path, 'r+')
    try {
      for (let size = (await handle.stat()).size - TRUNCATE_STEP; size > 0; size -= TRUNCATE_STEP) {
        await handle.truncate(size)
        await new Promise((r) => setImmediate(r))
      }
    } finally {
      await handle.close()
    }
  } catch {
    // gone already, or not ours to shrink: unlink decides
  }
  await removeQuietly(path)
}

export async function removeQuietly(path: string): Promise<void> {
  try {
    await unlink(path)
  } catch {
    // already gone
  }
}
