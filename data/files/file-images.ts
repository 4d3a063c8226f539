/**
 * What svc learns from and makes of an image root: its `image_info`, and the
 * two thumbnails every image gets (`image_thumb_200s`, a 200×200 centre
 * crop; `image_thumb_960r`, fitted inside 640×960 and never enlarged). Read
 * from the byte file's path, so a large upload is never held in memory here.
 */
import { open } from 'node:fs/promises'
import { MAX_INPUT_PIXELS } from '../limits.js'
import type { ImageInfo } from '../model/file.js'
import { IMAGE_FORMATS, isImageFormat } from '../images/prepare-image.js'
import { loadSharp } from '../images/sharp.js'

export const THUMB_SQUARE = 'image_thumb_200s'
export const THUMB_FIT = 'image_thumb_960r'
export const THUMBNAIL_KEYS: readonly string[] = [THUMB_SQUARE, THUMB_FIT]

export const SQUARE_SIDE = 200
export const FIT_BOX = { width: 640, height: 960 } as const

export interface Thumbnail {
  data: Buffer
  mime_type: string
  image_info: ImageInfo
}

/**
 * The image type the file's first bytes announce, among the formats svc
 * reads (JPEG, PNG, GIF, WebP); `null` for anything else. Only a first look:
 * whether the bytes decode is sharp's to say.
 */
export async function rasterTypeOf(path: string): Promise<string | null> {
  const handle = await open(path, 'r')
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(12), 0, 12, 0)
    const head = buffer.subarray(0, bytesRead)
    const ascii = head.toString('latin1')
    if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return IMAGE_FORMATS.jpeg.mime
    if (ascii.startsWith('\x89PNG\r\n\x1a\n')) return IMAGE_FORMATS.png.mime
    if (ascii.startsWith('GIF8')) return IMAGE_FORMATS.gif.mime
    if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return IMAGE_FORMATS.webp.mime
    return null
  } finally {
    await handle.close()
  }
}

/**
 * Width, height and mime type of an image sharp can decode within the pixel
 * cap; `null` for anything else. The first bytes decide whether sharp is
 * asked at all, so a large non-image costs one small read.
 */
export async function imageInfoOf(path: string): Promise<(ImageInfo & { mime_type: string }) | null> {
  try {
    if ((await rasterTypeOf(path)) === null) return null
    const sharp = await loadSharp()
    const meta = await sharp(path, { limitInputPixels: false }).metadata()
    if (!isImageFormat(meta.format) || meta.width * meta.height > MAX_INPUT_PIXELS) return null
    return { width: meta.autoOrient.width, height: meta.pageHeight ?? meta.autoOrient.height, mime_type: IMAGE_FORMATS[meta.format].mime }
  } catch {
    return null
  }
}

/** Does a supplied thumbnail match its reserved key's schema? Answers the problem, or `null`. */
export function thumbnailProblem(key: string, info: ImageInfo | null): string | null {
  if (key === THUMB_SQUARE && (!info || info.width !== SQUARE_SIDE || info.height !== SQUARE_SIDE))
    return `${key} must be a ${SQUARE_SIDE}x${SQUARE_SIDE} image`
  if (key === THUMB_FIT && (!info || info.width > FIT_BOX.width || info.height > FIT_BOX.height))
    return `${key} must be an image that fits ${FIT_BOX.width}x${FIT_BOX.height}`
  return null
}

/** The thumbnail of `key` for the image at `path` (JPEG stays JPEG, anything else becomes PNG). */
export async function makeThumbnail(path: string, key: string, mime: string): Promise<Thumbnail> {
  const sharp = await loadSharp()
  const image = sharp(path, { limitInputPixels: MAX_INPUT_PIXELS, autoOrient: true })
  const resized =
    key === THUMB_SQUARE
      ? image.resize(SQUARE_SIDE, SQUARE_SIDE, { fit: 'cover', position: 'centre' })
      : image.resize(FIT_BOX.width, FIT_BOX.height, { fit: 'inside', withoutEnlargement: true })
  const jpeg = mime === 'image/jpeg'
  const { data, info } = await (jpeg ? resized.jpeg() : resized.png()).toBuffer({ resolveWithObject: true })
  return { data, mime_type: jpeg ? 'image/jpeg' : 'image/png', image_info: { width: info.width, height: info.height } }
}
