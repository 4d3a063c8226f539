/**
 * Turns an uploaded file into the image svc stores: it must decode as JPEG,
 * PNG, GIF or WebP; avatars are cropped to a centred square, covers must be
 * wide enough. Everything is re-encoded, which drops EXIF data such as a
 * photo's GPS position and applies its orientation.
 */
import type { Metadata } from 'sharp'
import { IMAGE_UPLOAD_LIMITS, MAX_INPUT_PIXELS } from '../limits.js'
import { badImage, imageTooLarge, type ImageKind } from './image-rules.js'
import { loadSharp } from './sharp.js'

export const IMAGE_FORMATS = {
  jpeg: { mime: 'image/jpeg', ext: 'jpg' },
  png: { mime: 'image/png', ext: 'png' },
  gif: { mime: 'image/gif', ext: 'gif' },
  webp: { mime: 'image/webp', ext: 'webp' },
} as const

export type ImageFormat = keyof typeof IMAGE_FORMATS

export interface PreparedImage {
  data: Buffer
  width: number
  height: number
  format: ImageFormat
}

export const isImageFormat = (format: string | undefined): format is ImageFormat => format !== undefined && format in IMAGE_FORMATS

/** Options every decode of a stored or uploaded image uses; `animated` keeps every frame of a GIF or WebP. */
export const decodeOptions = { animated: true, limitInputPixels: MAX_INPUT_PIXELS, autoOrient: true } as const

/** Width and height of one frame, after orientation. */
async function measure(bytes: Buffer, kind: ImageKind): Promise<{ width: number; height: number; format: ImageFormat }> {
  const sharp = await loadSharp()
  let meta: Metadata
  try {
    // Headers only, so the pixel limit is checked below with a clearer message.
    meta = await sharp(bytes, { ...decodeOptions, limitInputPixels: false }).metadata()
  } catch {
    throw badImage(kind, 'is not a readable image')
  }
  if (!isImageFormat(meta.format)) throw badImage(kind, 'must be a JPEG, PNG, GIF or WebP image')
  // Every frame is decoded, so the whole canvas counts.
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw badImage(kind, 'has too many pixels')
  return { width: meta.autoOrient.width, height: meta.pageHeight ?? meta.autoOrient.height, format: meta.format }
}

/**
 * Checks and re-encodes an upload of `kind`; answers the bytes to store and
 * their size. Errors: `invalid` (too large, not an image, cover too narrow).
 */
export async function prepareImage(kind: ImageKind, bytes: Buffer): Promise<PreparedImage> {
  const limits = IMAGE_UPLOAD_LIMITS[kind]
  if (bytes.length >= limits.maxBytes) throw imageTooLarge(kind)
  const { width, height, format } = await measure(bytes, kind)
  if (width < limits.minWidth) throw badImage(kind, `must be at least ${limits.minWidth} px wide`)
  const sharp = await loadSharp()
  let pipeline = sharp(bytes, decodeOptions)
  if (kind === 'avatar' && width !== height) {
    const side = Math.min(width, height)
    pipeline = pipeline.resize(side, side, { fit: 'cover', position: 'centre' })
  }
  try {
    const { data, info } = await pipeline.toFormat(format).toBuffer({ resolveWithObject: true })
    return { data, width: info.width, height: info.pageHeight ?? info.height, format }
  } catch {
    throw badImage(kind, 'is not a readable image')
  }
}
