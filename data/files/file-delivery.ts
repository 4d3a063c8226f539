/**
 * How a file's bytes are handed out, so that user content never runs as a
 * page or a script of svc's origin: only an image svc decoded itself (JPEG,
 * PNG, GIF or WebP: sharp read it at upload, which is when `image_info` was
 * set) is shown inline, and as the type its bytes are, whatever the client
 * called it. Everything else is a download (`attachment`), of the client's
 * type when that type is inert (no browser renders it as a document or runs
 * it as a script), else of `application/octet-stream`: a stylesheet or a
 * script svc served could otherwise be loaded by a page that trusts svc's
 * origin, whatever the disposition. The API keeps reporting the client's
 * `mime_type`; this is only about the answer that carries the bytes.
 */
import type { StoredContent } from '../model/file.js'
import { rasterTypeOf } from './file-images.js'

export interface Delivery {
  /** The `Content-Type` to send. */
  type: string
  /** Shown in place (a decoded image) or downloaded (anything else). */
  disposition: 'inline' | 'attachment'
}

/** Types a browser shows as text, plays, or only downloads: never a document, a script or a stylesheet. */
const INERT = /^(text\/plain|text\/csv|application\/json|application\/octet-stream|application\/zip|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+)$/

const BINARY = 'application/octet-stream'

/** `type` when a browser would never take it for a document, a script or a stylesheet; else `application/octet-stream`. */
export const inertType = (type: string): string => (INERT.test(type) ? type : BINARY)

/** How the byte file at `path`, stored as `content`, is handed out. */
export async function deliveryOf(content: StoredContent, path: string): Promise<Delivery> {
  const image = content.image_info ? await rasterTypeOf(path) : null
  if (image) return { type: image, disposition: 'inline' }
  return { type: inertType(content.mime_type), disposition: 'attachment' }
}
