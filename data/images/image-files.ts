/**
 * The images folder of the data dir. Uploads get fresh random names, so a
 * file never changes once written (clients may cache it forever) and
 * removing a user's previous image can never hit someone else's.
 */
import { open, mkdir, readdir, readFile, rename, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { nanoid } from 'nanoid'
import { PRIVATE_DIR, PRIVATE_FILE } from '../disk/file-modes.js'
import { fsyncPath } from '../disk/fsync.js'

/** Names svc gives stored images; anything else (`..`, slashes) is never a file of ours. */
const STORED_NAME = /^[A-Za-z0-9_-]{21}\.(jpg|png|gif|webp)$/

export const isStoredImageName = (file: string): boolean => STORED_NAME.test(file)

export class ImageFiles {
  constructor(private readonly dir: string) {}

  /**
   * Writes `data` under a new name and answers the name once the file and
   * its directory entry are on disk, so a row committed afterwards never
   * points at a file a crash could lose.
   */
  async write(data: Buffer, ext: string): Promise<string> {
    await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR })
    const file = `${nanoid()}.${ext}`
    const tmp = join(this.dir, `.${file}.tmp`)
    const handle = await open(tmp, 'wx', PRIVATE_FILE)
    try {
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(tmp, join(this.dir, file))
    await fsyncPath(this.dir)
    return file
  }

  /** The bytes of a stored image; `null` for an unknown or malformed name. */
  async read(file: string): Promise<Buffer | null> {
    if (!isStoredImageName(file)) return null
    try {
      return await readFile(join(this.dir, file))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
  }

  /**
   * Removes what a crash can leave behind: temporary files of unfinished
   * writes, and uploads no row points at (written before a commit that never
   * happened, or replaced before the old file could be removed). Answers how
   * many files went. Only while nothing writes images: when a store opens.
   */
  async sweep(referenced: ReadonlySet<string>): Promise<number> {
    let names: string[]
    try {
      names = await readdir(this.dir)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0
      throw err
    }
    const litter = names.filter((name) => (name.startsWith('.') && name.endsWith('.tmp')) || (isStoredImageName(name) && !referenced.has(name)))
    for (const name of litter) await unlink(join(this.dir, name)).catch(() => undefined)
    return litter.length
  }

  /** Removes a stored image; one already gone is fine. */
  async remove(file: string): Promise<void> {
    if (!isStoredImageName(file)) return
    await unlink(join(this.dir, file)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err
    })
  }
}
