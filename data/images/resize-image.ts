/** A stored image at another size, for `?w=` and `?h=` on image URLs. */
import { loadSharp } from './sharp.js'
import { decodeOptions } from './prepare-image.js'

export interface ImageSize {
  w?: number
  h?: number
}

/**
 * `data` resized to `size`: one side given keeps the aspect ratio, both
 * given fill that box and crop the overflow from the centre. Answers the
 * same format as the input.
 */
export async function resizeImage(data: Buffer, size: ImageSize): Promise<Buffer> {
  const sharp = await loadSharp()
  return sharp(data, decodeOptions)
    .resize(size.w ?? null, size.h ?? null, { fit: 'cover', position: 'centre' })
    .toBuffer()
}
