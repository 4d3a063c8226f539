/**
 * The index file (`index.bin`): what the tables know besides their rows (ids,
 * where each row's bytes are, every secondary index), written when the store
 * closes, so the next open reads it instead of parsing every row. Bitcask
 * calls this a hint file.
 *
 * It is derived data, never the only copy of anything: it says which
 * snapshot and how far into which journal it covers, and an open uses it
 * only when those files are still there, the journal has not been cut
 * below that point and the schema's indexes are the same; then only the
 * journal after it is replayed. Otherwise
 * (none, stale after a compaction, damaged) the open reads the JSON files as
 * it always could. Compaction deletes it, since it points into the files a
 * compaction removes.
 *
 * Layout: one JSON header line (what follows, and what it covers), then the
 * arrays' bytes, each section starting on an 8-byte boundary.
 */
import { createHash } from 'node:crypto'
import { open, rename, stat, type FileHandle } from 'node:fs/promises'
import { PRIVATE_FILE } from '../../disk/file-modes.js'
import { fsyncPath } from '../../disk/fsync.js'
import type { IndexState, TableState } from './memory-table.js'
import type { Key } from '../port.js'
import { schemaFingerprint } from '../schema.js'
import { removeQuietly } from './snapshot.js'

export const INDEX_FILE = 'index.bin'
const FORMAT = 2

/**
 * What an index file covers: snapshot `snapshot` (0: none), then journal
 * `journal` up to byte `journalBytes`. The snapshot never changes once
 * written, so its size and time say it is the same file; the journal grows,
 * so the part covered is checked by its hash.
 */
export interface Coverage {
  snapshot: number
  snapshotSize: number
  snapshotMtimeMs: number
  journal: number
  journalBytes: number
  journalSha256: string
}

/** The SHA-256 of the first `bytes` bytes of `path` (a journal: at most a compaction's worth). */
export async function prefixHash(path: string, bytes: number): Promise<string> {
  const hash = createHash('sha256')
  const handle = await open(path, 'r')
  try {
    const chunk = Buffer.allocUnsafe(8 << 20)
    for (let at = 0; at < bytes;) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, bytes - at), at)
      if (bytesRead === 0) break
      hash.update(chunk.subarray(0, bytesRead))
      at += bytesRead
    }
  } finally {
    await handle.close()
  }
  return hash.digest('hex')
}

/** Typed arrays as their bytes; keys as lines when no key is empty or holds a newline (a tenth of JSON's parse time), else JSON. */
type Kind = 'f64' | 'u32' | 'lines' | 'json'

interface Section {
  table: string
  part: string
  kind: Kind
  bytes: number
}

interface Header extends Coverage {
  format: number
  /** The schema the indexes were derived under. */
  schema: string
  sections: Section[]
  tables: Record<string, { seq: number }>
}

const PARTS = ['ids', 'files', 'offsets', 'lengths'] as const

const pad = (n: number): number => (8 - (n % 8)) % 8

function encode(value: Float64Array | Uint32Array | Key[]): { kind: Kind; bytes: Buffer } {
  if (value instanceof Float64Array) return { kind: 'f64', bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength) }
  if (value instanceof Uint32Array) return { kind: 'u32', bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength) }
  // An empty key would vanish from a single line: such keys go as JSON.
  if (value.every((key) => typeof key === 'string' && key !== '' && !key.includes('\n'))) return { kind: 'lines', bytes: Buffer.from(value.join('\n')) }
  return { kind: 'json', bytes: Buffer.from(JSON.stringify(value)) }
}

function decode(kind: Kind, bytes: Buffer): Float64Array | Uint32Array | Key[] {
  if (kind === 'json') return JSON.parse(bytes.toString('utf8')) as Key[]
  if (kind === 'lines') return bytes.length === 0 ? [] : bytes.toString('utf8').split('\n')
  const width = kind === 'f64' ? 8 : 4
  // A view where the bytes are aligned for one (a section is read into an allocation of its own), else a copy.
  const aligned = bytes.byteOffset % width === 0 ? bytes : Buffer.from(bytes)
  return kind === 'f64'
    ? new Float64Array(aligned.buffer, aligned.byteOffset, aligned.length / 8)
    : new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length / 4)
}

/** The header line of an open index file, and where the sections after it start. */
async function readHeader(handle: FileHandle): Promise<{ header: Header; start: number } | null> {
  for (let size = 64 << 10; size <= 64 << 20; size *= 4) {
    const buf = Buffer.allocUnsafe(size)
    const { bytesRead } = await handle.read(buf, 0, size, 0)
    const nl = buf.subarray(0, bytesRead).indexOf(10)
    if (nl !== -1) return { header: JSON.parse(buf.toString('utf8', 0, nl)) as Header, start: nl + 1 + pad(nl + 1) }
    if (bytesRead < size) return null
  }
  return null
}

/**
 * One section's bytes in a buffer of its own: aligned for a typed view, and
 * freed on its own once nothing uses it (the row places are copied into
 * the table's directory; the indexes are used where they are).
 */
async function readSection(handle: FileHandle, at: number, bytes: number): Promise<Buffer | null> {
  const buf = Buffer.allocUnsafeSlow(bytes)
  for (let done = 0; done < bytes;) {
    const { bytesRead } = await handle.read(buf, done, Math.min(bytes - done, 64 << 20), at + done)
    if (bytesRead === 0) return null
    done += bytesRead
  }
  return buf
}

/** Writes the index file of `dir` atomically (tmp, fsync, rename, fsync dir). */
export async function writeIndexFile(dir: string, coverage: Coverage, tables: ReadonlyMap<string, TableState>): Promise<void> {
  const sections: Section[] = []
  const blobs: Buffer[] = []
  const add = (table: string, part: string, value: Float64Array | Uint32Array | Key[]): void => {
    const { kind, bytes } = encode(value)
    sections.push({ table, part, kind, bytes: bytes.length })
    blobs.push(bytes, Buffer.alloc(pad(bytes.length)))
  }
  const seqs: Record<string, { seq: number }> = {}
  for (const [name, state] of tables) {
    seqs[name] = { seq: state.seq }
    for (const part of PARTS) add(name, part, state[part])
    for (const [index, { keys, starts, ids }] of Object.entries(state.indexes)) {
      add(name, `index:${index}:keys`, keys)
      add(name, `index:${index}:starts`, starts)
      add(name, `index:${index}:ids`, ids)
    }
  }
  const header: Header = { format: FORMAT, schema: schemaFingerprint, ...coverage, sections, tables: seqs }
  const line = Buffer.from(JSON.stringify(header) + '\n')
  const final = `${dir}/${INDEX_FILE}`
  const tmp = `${final}.tmp`
  const out = await open(tmp, 'w', PRIVATE_FILE)
  try {
    await out.writev([line, Buffer.alloc(pad(line.length)), ...blobs])
    await out.sync()
  } finally {
    await out.close()
  }
  await rename(tmp, final)
  await fsyncPath(dir)
}

/** The index file of `dir` if there is one that `usable` accepts and that reads whole; null otherwise. */
export async function readIndexFile(
  dir: string,
  usable: (coverage: Coverage) => Promise<boolean>,
): Promise<{ coverage: Coverage; tables: Map<string, TableState> } | null> {
  const path = `${dir}/${INDEX_FILE}`
  try {
    await stat(path)
  } catch {
    return null
  }
  let handle: FileHandle | null = null
  try {
    handle = await open(path, 'r')
    const size = (await handle.stat()).size
    const head = await readHeader(handle)
    if (!head) return null
    const { header } = head
    if (header.format !== FORMAT || header.schema !== schemaFingerprint || !(await usable(header))) return null
    let at = head.start
    if (header.sections.reduce((end, { bytes }) => end + bytes + pad(bytes), at) !== size) return null
    const tables = new Map<string, TableState>()
    for (const { table, part, kind, bytes } of header.sections) {
      const section = await readSection(handle, at, bytes)
      if (!section) return null
      const value = decode(kind, section)
      at += bytes + pad(bytes)
      let state = tables.get(table)
      if (!state) {
        state = { seq: header.tables[table]?.seq ?? 0, indexes: {} } as TableState
        tables.set(table, state)
      }
      if (part.startsWith('index:')) {
        const [, index, piece] = part.split(':')
        const partial = (state.indexes[index] ??= {} as IndexState) as unknown as Record<string, unknown>
        partial[piece] = value
      } else (state as unknown as Record<string, unknown>)[part] = value
    }
    const { snapshot, snapshotSize, snapshotMtimeMs, journal, journalBytes, journalSha256 } = header
    return { coverage: { snapshot, snapshotSize, snapshotMtimeMs, journal, journalBytes, journalSha256 }, tables }
  } catch {
    // Damaged: the JSON files say the same, only slower.
    return null
  } finally {
    await handle?.close()
  }
}

export const removeIndexFile = (dir: string): Promise<void> => removeQuietly(`${dir}/${INDEX_FILE}`)
