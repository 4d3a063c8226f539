/** Photos attached to a post: its `svc.core.oembed` annotations of type photo (files attached through replacement values, or any photo URL). */
import type { Annotation } from '../../../api'

export interface Photo {
  url: string
  thumbnail?: string
  width?: number
  height?: number
  alt: string
  /** Whether the author described it (otherwise `alt` is a generic "Attached photo"). */
  described: boolean
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && v > 0 ? v : undefined)

export function photosOf(post: { annotations?: Annotation[] }): Photo[] {
  return (post.annotations ?? [])
    .filter((a) => a.type === 'svc.core.oembed' && a.value.type === 'photo' && str(a.value.url))
    .map((a) => ({
      url: str(a.value.url) as string,
      thumbnail: str(a.value.thumbnail_large_url) ?? str(a.value.thumbnail_url),
      width: num(a.value.thumbnail_large_width) ?? num(a.value.width),
      height: num(a.value.thumbnail_large_height) ?? num(a.value.height),
      alt: str(a.value.title) ?? 'Attached photo',
      described: str(a.value.title) !== undefined,
    }))
}
