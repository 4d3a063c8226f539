/**
 * Avatars and covers: uploads are checked and re-encoded, written to the
 * images folder, then recorded on the user row; stored and default images
 * are served at the standard size nearest above the one a client asks for
 * (GIFs as they are; see image-sizes.ts).
 */
import { invalid, notFound } from '../errors.js'
import type { UserRow } from '../model/user.js'
import type { Store } from '../store/port.js'
import { visitRows } from '../store/scan-rows.js'
import { defaultImage } from '../images/default-images.js'
import { ImageFiles } from '../images/image-files.js'
import { REMOTE_IMAGE_SOURCE, type ImageKind } from '../images/image-rules.js'
import { MAX_IMAGE_SIDE } from '../limits.js'
import { IMAGE_FORMATS, prepareImage } from '../images/prepare-image.js'
import { resizeImage, type ImageSize } from '../images/resize-image.js'
import { VariantCache } from '../images/variant-cache.js'
import { snapImageSize, VariantBudget } from '../images/image-sizes.js'

export interface ServedImage {
  data: Buffer
  mime: string
  /** Stored uploads never change under their name; default images may change with a new svc version. */
  immutable: boolean
}

const MIME_BY_EXT: Record<string, string> = Object.fromEntries(Object.values(IMAGE_FORMATS).map((f) => [f.ext, f.mime]))

export class UserImageService {
  private readonly files: ImageFiles
  private readonly variants = new VariantCache(32 * 1024 * 1024)
  private readonly budget = new VariantBudget()

  constructor(
    private readonly store: Store,
    imagesDir: string,
  ) {
    this.files = new ImageFiles(imagesDir)
  }

  /**
   * Sets `user`'s avatar or cover from the uploaded `bytes`; answers the
   * updated user. The previous image's file is removed once the row no
   * longer points at it. Errors: `invalid` (see `prepareImage`), `not_found`
   * (the user is gone). Emits `user.updated`.
   */
  async upload(user: UserRow, kind: ImageKind, bytes: Buffer): Promise<UserRow> {
    const image = await prepareImage(kind, bytes)
    const { mime, ext } = IMAGE_FORMATS[image.format]
    const file = await this.files.write(image.data, ext)
    let committed: { updated: UserRow; previous?: string }
    try {
      committed = await this.store.transact(async (tx) => {
        const row = await tx.users.get(user.id)
        if (!row) throw notFound(`user ${user.id} not found`)
        const updated = tx.users.put({ ...row, [kind]: { file, width: image.width, height: image.height, mime } })
        tx.emit('user.updated', { user: updated })
        return { updated, previous: row[kind]?.file }
      })
    } catch (err) {
      await this.files.remove(file)
      throw err
    }
    const { updated, previous } = committed
    // The row is durable without the old file; failing to delete it only leaves litter.
    if (previous) await this.files.remove(previous).catch(() => undefined)
    return updated
  }

  /**
   * Keeps a copy of remote account `userId`'s image of `kind` from `bytes`,
   * fetched from `source` (prepared as an upload is), or drops the copy when
   * `bytes` is null; only while `source` is still the image its actor gives
   * (a newer profile may have come meanwhile). Answers whether it changed
   * the row. Errors: `invalid` (see `prepareImage`). Emits `user.updated`.
   */
  async keepRemote(userId: number, kind: ImageKind, bytes: Buffer | null, source: string | undefined): Promise<boolean> {
    const image = bytes ? await prepareImage(kind, bytes) : null
    const file = image ? await this.files.write(image.data, IMAGE_FORMATS[image.format].ext) : null
    let previous: string | undefined
    const changed = await this.store
      .transact(async (tx) => {
        const row = await tx.users.get(userId)
        if (!row?.remote || row.remote[REMOTE_IMAGE_SOURCE[kind]] !== source || (image === null && row[kind] === undefined)) return false
        const { [kind]: before, ...rest } = row
        previous = before?.file
        const stored = image && file ? { file, width: image.width, height: image.height, mime: IMAGE_FORMATS[image.format].mime, source } : null
        tx.emit('user.updated', { user: tx.users.put(stored ? { ...rest, [kind]: stored } : rest) })
        return true
      })
      .catch(async (err: unknown) => {
        if (file) await this.files.remove(file)
        throw err
      })
    if (!changed) {
      if (file) await this.files.remove(file)
      return false
    }
    if (previous) await this.files.remove(previous).catch(() => undefined)
    return true
  }

  /** Deletes image files no user points at (see `ImageFiles.sweep`); answers how many. */
  async sweepOrphans(): Promise<number> {
    const referenced = new Set<string>()
    await visitRows(this.store.read.users, (user) => {
      if (user.avatar) referenced.add(user.avatar.file)
      if (user.cover) referenced.add(user.cover.file)
    })
    return this.files.sweep(referenced)
  }

  /**
   * A stored or default image by file name, resized when `size` asks (never
   * a GIF) to the asked sides snapped up to the standard ones; a variant not
   * made yet counts against `client`'s (the address asking) minute.
   * Errors: `not_found` (unknown file), `invalid` (a side over
   * `MAX_IMAGE_SIDE` or under 1), `rate_limited` (too many new variants).
   */
  async serve(file: string, size: ImageSize = {}, client = 'unknown'): Promise<ServedImage> {
    for (const side of [size.w, size.h]) {
      if (side !== undefined && !(Number.isInteger(side) && side >= 1 && side <= MAX_IMAGE_SIDE))
        throw invalid(`w and h must be whole numbers from 1 to ${MAX_IMAGE_SIDE}`)
    }
    const builtIn = defaultImage(file)
    const data = builtIn ? await builtIn : await this.files.read(file)
    if (!data) throw notFound(`image ${file} not found`)
    const mime = builtIn ? 'image/png' : MIME_BY_EXT[file.slice(file.lastIndexOf('.') + 1)]
    const served = { mime, immutable: !builtIn }
    if ((size.w === undefined && size.h === undefined) || mime === 'image/gif') return { data, ...served }
    const snapped = snapImageSize(size)
    const key = `${file}?${snapped.w ?? ''}x${snapped.h ?? ''}`
    let resized = this.variants.get(key)
    if (!resized) {
      await this.budget.spend(client)
      resized = await resizeImage(data, snapped)
      this.variants.set(key, resized)
    }
    return { data: resized, ...served }
  }
}
