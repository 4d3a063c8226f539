/**
 * The files folder of the data dir: the bytes of every File and derived
 * file, one byte file each under a random name that is never reused. Uploads
 * arrive as temporary files in `uploads` (same filesystem, so adopting one is
 * a rename, never a copy); a byte file is fsynced with its directory entry
 * before any row points at it, and what no row points at is swept when the domain starts.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { nanoid } from 'nanoid'
import { PRIVATE_DIR, PRIVATE_FILE } from '../disk/file-modes.js'
import { fsyncPath } from '../disk/fsync.js'
import { UploadWriter, type Digest, type Received } from './upload-writer.js'

/** Names svc gives byte files; anything else (`..`, slashes) is never a file of ours. */
const STORED_NAME = /^[A-Za-z0-9_-]{21}$/

export const isStoredFileName = (name: string): boolean => STORED_NAME.test(name)

/** SHA-1 and size of the file at `path`, read as a stream (never whole in memory). */
export async function digestOf(path: string): Promise<Digest> {
  const hash = createHash('sha1')
  let size = 0
  await pipeline(createReadStream(path), async function* (chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      size += chunk.length
      hash.update(chunk)
    }
  })
  return { sha1: hash.digest('hex'), size }
}

export class FileBytes {
  /** Where the server's body parser writes uploads; inside the files folder so a rename adopts them. */
  readonly uploads: string
  /** Uploads this process wrote with `receiver`, synced and hashed already, by path. */
  private readonly received = new Map<string, Digest>()

  constructor(readonly dir: string) {
    this.uploads = join(dir, '.uploads')
  }

  /** Creates the folders (private to the owner). */
  async prepare(): Promise<void> {
    await mkdir(this.uploads, { recursive: true, mode: PRIVATE_DIR })
  }

  /** The size of a temporary upload, without reading it. */
  async sizeOf(path: string): Promise<number> {
    return this.received.get(path)?.size ?? (await stat(path)).size
  }

  /**
   * A writer of one arriving upload into the uploads folder. Once finished,
   * its file is adopted without a second fsync or read.
   */
  async receiver(maxBytes: number, tooLarge: () => Error): Promise<{ writer: UploadWriter; finish: () => Promise<Received> }> {
    await this.prepare()
    const writer = await UploadWriter.open(this.uploads, maxBytes, tooLarge)
    return {
      writer,
      finish: async () => {
        const done = await writer.finish()
        this.received.set(done.path, { sha1: done.sha1, size: done.size })
        return done
      },
    }
  }

  /**
   * Moves the temporary file at `path` into the folder under a new name and
   * answers it with its digest, once the bytes and the directory entry are on
   * disk: a row committed afterwards never points at bytes a crash can lose.
   */
  async adopt(path: string): Promise<Digest & { stored: string }> {
    await this.prepare()
    let digest = this.received.get(path)
    if (!digest) {
      const handle = await open(path, 'r+')
      try {
        await handle.sync()
      } finally {
        await handle.close()
      }
      digest = await digestOf(path)
    }
    const stored = nanoid()
    await rename(path, join(this.dir, stored))
    this.received.delete(path)
    await fsyncPath(this.dir)
    return { ...digest, stored }
  }

  /** Writes bytes made in memory (a thumbnail) as a new byte file, durably; answers its name and digest. */
  async write(data: Buffer): Promise<Digest & { stored: string }> {
    await this.prepare()
    const tmp = join(this.uploads, `${nanoid()}.tmp`)
    const handle = await open(tmp, 'wx', PRIVATE_FILE)
    try {
      await handle.writeFile(data)
    } finally {
      await handle.close()
    }
    return this.adopt(tmp)
  }

  /** The path of a stored byte file; `null` for a malformed name. */
  pathOf(stored: string): string | null {
    return isStoredFileName(stored) ? join(this.dir, stored) : null
  }

  /** Removes stored byte files; ones already gone are fine. */
  async remove(names: readonly string[]): Promise<void> {
    for (const name of names) {
      const path = this.pathOf(name)
      if (path) await unlink(path).catch(() => undefined)
    }
  }

  /** Removes temporary uploads by path (only inside the uploads folder); ones adopted or gone already are fine. */
  async removeUploads(paths: readonly string[]): Promise<void> {
    for (const path of paths) {
      if (dirname(path) !== this.uploads) continue
      this.received.delete(path)
      await unlink(path).catch(() => undefined)
    }
  }

  /**
   * Removes temporary uploads untouched for `maxAgeMs`: what a request cut
   * short left (the body parser does not always remove the parts it wrote
   * when it gives up on a body). An upload still arriving is written to, so
   * it stays fresh. Answers how many went.
   */
  async sweepStaleUploads(maxAgeMs: number, now = Date.now()): Promise<number> {
    let names: string[]
    try {
      names = await readdir(this.uploads)
    } catch {
      return 0
    }
    let removed = 0
    for (const name of names) {
      const path = join(this.uploads, name)
      const info = await stat(path).catch(() => null)
      if (info && now - info.mtimeMs >= maxAgeMs) {
        this.received.delete(path)
        await unlink(path).catch(() => undefined)
        removed++
      }
    }
    return removed
  }

  /**
   * Removes what a crash can leave: every temporary upload, and byte files
   * no row points at. Only while nothing writes files: when a store opens.
   * Answers how many byte files went (temporary uploads not counted).
   */
  async sweep(referenced: ReadonlySet<string>): Promise<number> {
    this.received.clear()
    await rm(this.uploads, { recursive: true, force: true })
    await this.prepare()
    const litter = (await readdir(this.dir)).filter((name) => isStoredFileName(name) && !referenced.has(name))
    for (const name of litter) await unlink(join(this.dir, name)).catch(() => undefined)
    return litter.length
  }
}
