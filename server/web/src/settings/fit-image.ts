/**
 * An avatar or cover brought within what the API takes before it is sent
 * (spec: an avatar under 1 MB, a cover at least 960 px wide and under
 * 4 MB; data/limits.ts has the same numbers and the server's pixel cap).
 * A file that already fits goes as it is, so an animated GIF stays
 * animated; any other (a phone photo of 3 MB and 12 megapixels) is drawn
 * smaller on a canvas, keeping its aspect and orientation, and encoded as
 * WebP (JPEG where the browser cannot), smaller still until it fits.
 */
import type { ImageKind } from './image-upload'

interface Limits {
  /** Bytes, strictly under. */
  maxBytes: number
  /** Pixels, at least. */
  minWidth: number
  /** The longest side a scaled image gets: as much as the client ever shows, at twice its CSS size. */
  maxSide: number
}

const MB = 1024 * 1024
export const IMAGE_LIMITS: Record<ImageKind, Limits> = {
  avatar: { maxBytes: 1 * MB, minWidth: 1, maxSide: 1024 },
  cover: { maxBytes: 4 * MB, minWidth: 960, maxSide: 2400 },
}
/** The most pixels the server decodes (data/limits.ts MAX_INPUT_PIXELS). */
const MAX_PIXELS = 40_000_000
/** Tried in turn; then the image gets smaller and the turn starts again. */
const QUALITIES = [0.86, 0.75, 0.62]
const SHRINK = 0.75
const MAX_ROUNDS = 6

/** A refusal worth saying in words before anything is sent. */
export class UnfitImage extends Error {}

type Canvas = OffscreenCanvas | HTMLCanvasElement

function canvasOf(width: number, height: number): Canvas {
  if (typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(width, height)
  const canvas = document.createElement('canvas')
  canvas.width = width
  canvas.height = height
  return canvas
}

async function encode(canvas: Canvas, type: string, quality: number): Promise<Blob | null> {
  if (canvas instanceof HTMLCanvasElement) return new Promise((resolve) => canvas.toBlob(resolve, type, quality))
  return canvas.convertToBlob({ type, quality }).catch(() => null)
}

/** `bitmap` drawn at `width` × `height`, encoded as WebP, or JPEG (on white, which has no transparency) where WebP is not written. */
async function draw(bitmap: ImageBitmap, width: number, height: number, quality: number): Promise<Blob | null> {
  const canvas = canvasOf(width, height)
  const context = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null
  if (!context) return null
  context.imageSmoothingQuality = 'high'
  context.drawImage(bitmap, 0, 0, width, height)
  const webp = await encode(canvas, 'image/webp', quality)
  // A browser that cannot write WebP answers PNG instead, which is seldom small.
  if (webp?.type === 'image/webp') return webp
  context.globalCompositeOperation = 'destination-over'
  context.fillStyle = '#fff'
  context.fillRect(0, 0, width, height)
  return encode(canvas, 'image/jpeg', quality)
}

const renamed = (name: string, type: string) => `${name.replace(/\.[^.]*$/, '') || 'image'}.${type === 'image/webp' ? 'webp' : 'jpg'}`

/**
 * `file` as it can be uploaded as a `kind`: itself when it fits, else a
 * smaller rendering. A file the browser cannot read goes as it is (the
 * server says what is wrong with it). Errors: `UnfitImage` (a cover too
 * narrow, or nothing small enough could be made).
 */
export async function fitImage(file: File, kind: ImageKind): Promise<File> {
  const limits = IMAGE_LIMITS[kind]
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' }).catch(() => null)
  if (!bitmap) return file
  try {
    const { width, height } = bitmap
    if (width < limits.minWidth) throw new UnfitImage(`A cover must be at least ${limits.minWidth} pixels wide; this image is ${width}.`)
    if (file.size < limits.maxBytes && width * height <= MAX_PIXELS) return file
    const floor = limits.minWidth / width
    let scale = Math.max(floor, Math.min(1, limits.maxSide / Math.max(width, height), Math.sqrt(MAX_PIXELS / (width * height))))
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const w = Math.max(1, Math.round(width * scale))
      const h = Math.max(1, Math.round(height * scale))
      for (const quality of QUALITIES) {
        const blob = await draw(bitmap, w, h, quality)
        if (blob && blob.size < limits.maxBytes) return new File([blob], renamed(file.name, blob.type), { type: blob.type })
      }
      if (scale === floor) break
      scale = Math.max(floor, scale * SHRINK)
    }
    throw new UnfitImage(`This image could not be made small enough (under ${limits.maxBytes / MB} MB); try another.`)
  } finally {
    bitmap.close()
  }
}
