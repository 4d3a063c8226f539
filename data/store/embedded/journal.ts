/**
 * The append-only journal: one JSON line per committed transaction.
 *
 * Group commit: `append` queues a line and answers a promise. One flush at a
 * time writes every queued line with a single write and a single fdatasync,
 * then resolves all of their promises. Lines queued while a flush runs wait
 * for the next one, so under load many transactions share one fsync and the
 * cost of a write does not depend on how big the store is.
 *
 * Switching files (for a snapshot) is queued like a line: the new file is
 * created only once every earlier line is durable in the old one, so a crash
 * can never leave a torn line in a journal that is not the newest.
 */
import { open, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import { PRIVATE_FILE } from '../../disk/file-modes.js'
import { fsyncPath } from '../../disk/fsync.js'

interface Pending {
  /** A line to write, or a new file to continue in once every earlier line is durable. */
  line?: string
  next?: string
  resolve: () => void
  reject: (err: unknown) => void
}

const openForAppend = async (path: string): Promise<{ handle: FileHandle; size: number }> => {
  const handle = await open(path, 'a', PRIVATE_FILE)
  const size = (await handle.stat()).size
  // A new (empty) file's directory entry must be durable before its lines are.
  if (size === 0) await fsyncPath(dirname(path))
  return { handle, size }
}

export class Journal {
  private queue: Pending[] = []
  private flushing: Promise<void> | null = null
  private failed: unknown = null
  bytes = 0
  /** Where the next line appended will start, in the file lines appended now go to. */
  end = 0

  private constructor(
    private handle: FileHandle,
    public path: string,
  ) {}

  static async open(path: string): Promise<Journal> {
    const { handle, size } = await openForAppend(path)
    const journal = new Journal(handle, path)
    journal.bytes = size
    journal.end = size
    return journal
  }

  /** The error that stopped the journal, if a write or fsync failed. */
  get failure(): unknown {
    return this.failed
  }

  /** Queues one line of `bytes` bytes; resolves when it is on disk. */
  append(line: string, bytes = Buffer.byteLength(line)): Promise<void> {
    const queued = this.enqueue({ line })
    this.end += bytes + 1
    return queued
  }

  /**
   * Continues in a new file: lines appended before this call go to the old
   * file, lines appended after it to the new one. Resolves once the old file
   * is durable and closed and the new one exists.
   */
  switchTo(path: string): Promise<void> {
    const queued = this.enqueue({ next: path })
    this.end = 0
    return queued
  }

  private enqueue(item: Omit<Pending, 'resolve' | 'reject'>): Promise<void> {
    if (this.failed) return Promise.reject(this.failed)
    return new Promise((resolve, reject) => {
      this.queue.push({ ...item, resolve, reject })
      if (!this.flushing) this.flushing = this.flushLoop()
    })
  }

  private async flushLoop(): Promise<void> {
    // Yield once so that every transaction committed in this tick joins the batch.
    await new Promise((r) => setImmediate(r))
    while (this.queue.length > 0) {
      const cut = this.queue.findIndex((p) => p.next !== undefined)
      const batch = cut === -1 ? this.queue.splice(0) : this.queue.splice(0, cut)
      const swap = cut === -1 ? undefined : this.queue.shift()
      try {
        if (batch.length > 0) {
          const buf = Buffer.from(batch.map((p) => p.line + '\n').join(''))
          await this.handle.write(buf, 0, buf.length, null)
          await this.handle.datasync()
          this.bytes += buf.length
          for (const p of batch) p.resolve()
          batch.length = 0
        }
        if (swap) {
          const { handle, size } = await openForAppend(swap.next!)
          // Rows are read back at the offsets `end` promised, counted from an empty file.
          if (size !== 0) {
            await handle.close()
            throw new Error(`journal ${swap.next!} already holds ${size} bytes`)
          }
          const old = this.handle
          this.handle = handle
          this.path = swap.next!
          this.bytes = 0
          await old.close()
          swap.resolve()
        }
      } catch (err) {
        // A failed write or fsync leaves the file in an unknown state: refuse every later write.
        this.failed = err
        for (const p of [...batch, ...(swap ? [swap] : []), ...this.queue.splice(0)]) p.reject(err)
      }
    }
    this.flushing = null
  }

  /** Waits until every queued line is durable. */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing
  }

  async close(): Promise<void> {
    await this.drain()
    await this.handle.close()
  }
}
