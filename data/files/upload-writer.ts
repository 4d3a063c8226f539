/**
 * Writes an arriving upload to a temporary file in one pass: SHA-1 as the
 * bytes go by, writes of about 1 MB (few thread-pool round trips per MB),
 * fsync at the end. What it answers is what adopting the file needs, so the
 * bytes are never read back.
 *
 * The socket is not held while the disk works: one write is in flight while
 * the next megabyte gathers (at most about 2 MB held per upload), and every
 * 8 MB a data sync starts in the background (unless another upload's is
 * under way), so the disk writes back while the rest arrives and the final
 * fsync has less left to do.
 */
import { createHash, type Hash } from 'node:crypto'
import { open, unlink, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { nanoid } from 'nanoid'
import { PRIVATE_FILE } from '../disk/file-modes.js'

/** Bytes gathered before one write. */
const WRITE_BYTES = 1 << 20
/** Bytes written between two background data syncs. */
const SYNC_BYTES = 8 << 20
/**
 * Background data syncs under way, across every upload. One at a time: on
 * ext4 each one commits the filesystem journal, and several uploads syncing
 * together cost CPU and each other's time, while one already keeps the dirty
 * page cache short for the final fsyncs.
 */
let backgroundSyncs = 0

/** What hashing a file found: its SHA-1 (hex) and byte count. */
export interface Digest {
  sha1: string
  size: number
}

/** A finished upload: a synced temporary file with its digest. */
export interface Received extends Digest {
  path: string
}

export class UploadWriter {
  private readonly hash: Hash = createHash('sha1')
  private pending: Buffer[] = []
  private pendingBytes = 0
  private size = 0
  private writing: Promise<void> = Promise.resolve()
  private syncing: Promise<void> | null = null
  private unsynced = 0
  /** A failed background sync: Linux reports a writeback error once, so it is kept for `finish` to throw. */
  private syncError: unknown = null

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private readonly maxBytes: number,
    private readonly tooLarge: () => Error,
  ) {}

  /** A new temporary file in `dir`; `tooLarge` is thrown once more than `maxBytes` arrive. */
  static async open(dir: string, maxBytes: number, tooLarge: () => Error): Promise<UploadWriter> {
    const path = join(dir, `${nanoid()}.part`)
    return new UploadWriter(path, await open(path, 'wx', PRIVATE_FILE), maxBytes, tooLarge)
  }

  /** Takes `chunk`; resolves at once unless a write was due, so awaiting it is the upload's backpressure. */
  async write(chunk: Buffer): Promise<void> {
    if (chunk.length === 0) return
    this.size += chunk.length
    if (this.size > this.maxBytes) throw this.tooLarge()
    this.hash.update(chunk)
    this.pending.push(chunk)
    this.pendingBytes += chunk.length
    if (this.pendingBytes < WRITE_BYTES) return
    // The previous write must be done (order, and a bound on what is held); this one goes on while more arrives.
    await this.writing
    this.writing = this.flush()
    // An error surfaces at the next write or at finish; until then it must not be unhandled.
    this.writing.catch(() => undefined)
  }

  private async flush(): Promise<void> {
    const chunks = this.pending
    const bytes = this.pendingBytes
    this.pending = []
    this.pendingBytes = 0
    await this.writeAll(chunks)
    this.unsynced += bytes
    if (this.unsynced >= SYNC_BYTES && !this.syncing && backgroundSyncs === 0) {
      this.unsynced = 0
      backgroundSyncs++
      this.syncing = this.handle
        .datasync()
        .catch((err: unknown) => void (this.syncError ??= err))
        .finally(() => {
          backgroundSyncs--
          this.syncing = null
        })
    }
  }

  private async writeAll(chunks: Buffer[]): Promise<void> {
    while (chunks.length > 0) {
      const { bytesWritten } = await this.handle.writev(chunks)
      // A short write leaves the rest for another call.
      let skip = bytesWritten
      while (chunks.length > 0 && skip >= chunks[0].length) skip -= (chunks.shift() as Buffer).length
      if (skip > 0) chunks[0] = chunks[0].subarray(skip)
    }
  }

  /** Writes what is left, fsyncs and closes the file; answers it with its digest. */
  async finish(): Promise<Received> {
    try {
      await this.writing
      await this.flush()
      await this.syncing
      if (this.syncError) throw this.syncError
      await this.handle.sync()
    } finally {
      await this.handle.close()
    }
    return { path: this.path, sha1: this.hash.digest('hex'), size: this.size }
  }

  /** Closes and removes the file (an upload cut short or refused). */
  async abort(): Promise<void> {
    await Promise.allSettled([this.writing, this.syncing])
    await this.handle.close().catch(() => undefined)
    await unlink(this.path).catch(() => undefined)
  }
}
