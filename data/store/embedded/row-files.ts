/**
 * The files rows are read back from: snapshots and journals of one store
 * directory, each named by a number. Snapshot N is file 2N and journal N is
 * file 2N + 1, so the number orders them as a compaction does: everything
 * below a new snapshot's number is what that snapshot replaced.
 *
 * Reads are synchronous `pread`s of a few hundred bytes, answered by the OS
 * page cache almost always: cheaper than a promise per row, and they keep a
 * table's `get` what it was, a plain call.
 */
import { closeSync, openSync, readSync } from 'node:fs'
import { join } from 'node:path'
import type { Location } from './row-directory.js'

export const snapshotFile = (n: number): number => 2 * n
export const journalFile = (n: number): number => 2 * n + 1

const nameOf = (file: number): string => (file % 2 === 0 ? `snapshot-${file / 2}.jsonl` : `journal-${(file - 1) / 2}.jsonl`)

/** Scratch space for rows up to this size; a bigger row gets a buffer of its own. */
const SCRATCH = 64 * 1024

export class RowFiles {
  private readonly fds = new Map<number, number>()
  private readonly scratch = Buffer.allocUnsafe(SCRATCH)

  constructor(private readonly dir: string) {}

  /** Reads file `file` from `path` instead of its own name (a snapshot still being written under a tmp name). */
  openAs(file: number, path: string): void {
    this.close(file)
    this.fds.set(file, openSync(path, 'r'))
  }

  private fd(file: number): number {
    let fd = this.fds.get(file)
    if (fd === undefined) {
      fd = openSync(join(this.dir, nameOf(file)), 'r')
      this.fds.set(file, fd)
    }
    return fd
  }

  /** The row's JSON text. */
  text(at: Location): string {
    const buf = at.length <= SCRATCH ? this.scratch : Buffer.allocUnsafe(at.length)
    this.readInto(buf, at)
    return buf.toString('utf8', 0, at.length)
  }

  /** The row's JSON bytes, in a buffer of their own. */
  bytes(at: Location): Buffer {
    const buf = Buffer.allocUnsafe(at.length)
    this.readInto(buf, at)
    return buf
  }

  private readInto(buf: Buffer, at: Location): void {
    const fd = this.fd(at.file)
    let done = 0
    while (done < at.length) {
      const n = readSync(fd, buf, done, at.length - done, at.offset + done)
      if (n === 0) throw new Error(`store file ${nameOf(at.file)} ends before byte ${at.offset + at.length}: it was changed outside svc`)
      done += n
    }
  }

  /** Stops reading every file numbered below `file` (a compaction replaced them). */
  closeBelow(file: number): void {
    for (const n of [...this.fds.keys()]) if (n < file) this.close(n)
  }

  private close(file: number): void {
    const fd = this.fds.get(file)
    if (fd === undefined) return
    this.fds.delete(file)
    closeSync(fd)
  }

  closeAll(): void {
    this.closeBelow(Number.POSITIVE_INFINITY)
  }
}
