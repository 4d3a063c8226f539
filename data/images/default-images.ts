/**
 * The default avatar and cover, drawn from SVG once per process: a neutral
 * head-and-shoulders on grey, and a quiet gradient. Generating them keeps
 * binary files out of the repository and the data dir.
 */
import { loadSharp } from './sharp.js'
import { DEFAULT_IMAGES, type ImageKind } from './image-rules.js'

const svg: Record<ImageKind, string> = {
  avatar: `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200">
  <rect width="200" height="200" fill="#d5d9de"/>
  <circle cx="100" cy="78" r="38" fill="#f4f5f7"/>
  <path d="M30 200 C30 140 66 122 100 122 C134 122 170 140 170 200 Z" fill="#f4f5f7"/>
</svg>`,
  cover: `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="260">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#5b7083"/><stop offset="1" stop-color="#9aa9b7"/></linearGradient></defs>
  <rect width="960" height="260" fill="url(#g)"/>
</svg>`,
}

const rendered = new Map<string, Promise<Buffer>>()

/** The PNG bytes of a default image by its file name, or `null` when `file` is not one. */
export function defaultImage(file: string): Promise<Buffer> | null {
  const kind = (Object.keys(DEFAULT_IMAGES) as ImageKind[]).find((k) => DEFAULT_IMAGES[k].file === file)
  if (!kind) return null
  let png = rendered.get(file)
  if (!png) {
    png = loadSharp().then((sharp) => sharp(Buffer.from(svg[kind])).png().toBuffer())
    rendered.set(file, png)
  }
  return png
}
