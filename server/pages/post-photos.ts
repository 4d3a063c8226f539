/**
 * The photos of a post as its public pages, feed and previews show them:
 * its `svc.core.oembed` photo annotations rendered as the API renders them
 * for anyone (read tokens bound to the post, none once it is deleted), and
 * only those on svc's own origin: a page never loads a third party's image,
 * and shows nobody a file the post does not already show them through the API.
 */
import type { AnnotationRenderer, PostRow } from '../../data/index.js'
import { esc } from './layout.js'

export interface PagePhoto {
  url: string
  /** A smaller copy when the annotation names one. */
  thumbnail?: string
  width?: number
  height?: number
  alt: string
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined)
const size = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined)

const onOrigin = (url: string | undefined, baseUrl: string): url is string => {
  try {
    return url !== undefined && new URL(url).origin === new URL(baseUrl).origin
  } catch {
    return false
  }
}

/** The post's photos on svc's origin, in the order attached. */
export function photosOf(renderer: AnnotationRenderer, post: PostRow, baseUrl: string): PagePhoto[] {
  if (post.is_deleted) return []
  const rendered = renderer.render(post.annotations, { baseUrl, grant: { kind: 'p', id: post.id }, withheld: false })
  return rendered
    .filter((a) => a.type === 'svc.core.oembed' && a.value.type === 'photo' && onOrigin(text(a.value.url), baseUrl))
    .map((a) => {
      const v = a.value
      const thumbnail = text(v.thumbnail_large_url) ?? text(v.thumbnail_url)
      return {
        url: v.url as string,
        ...(onOrigin(thumbnail, baseUrl) ? { thumbnail } : {}),
        width: size(v.width),
        height: size(v.height),
        // The link around it needs a name: the description, else what it is.
        alt: text(v.title) ?? 'Attached photo',
      }
    })
}

/** The photos as linked images (each opens its full size); empty for none. */
export function photosHtml(photos: readonly PagePhoto[]): string {
  if (photos.length === 0) return ''
  const items = photos.map((p) => {
    const dims = p.width && p.height ? ` width="${p.width}" height="${p.height}"` : ''
    return `<a href="${esc(p.url)}"><img src="${esc(p.thumbnail ?? p.url)}" alt="${esc(p.alt)}"${dims} loading="lazy"></a>`
  })
  return `<div class="photos">${items.join('')}</div>`
}
