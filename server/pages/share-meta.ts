/**
 * What a public page tells whoever fetches it to preview a shared link:
 * OpenGraph and Twitter card tags, oEmbed discovery, and the author's Atom
 * feed. All values are escaped here; images are svc's own.
 */
import type { AnnotationRenderer } from '../../data/index.js'
import { esc } from './layout.js'

/** What every public page needs of the instance: its name, and the renderer of annotations (photos). */
export interface PageSite {
  name: string
  renderer: AnnotationRenderer
}

export interface ShareMeta {
  title: string
  description: string
  /** The page's own canonical address. */
  url: string
  /** The instance's name. */
  siteName: string
  /** `article` for a post, `profile` for a user. */
  type: 'article' | 'profile'
  /** A photo of the post, else the author's avatar. */
  image?: { url: string; width?: number; height?: number; alt?: string }
  /** The photo is the post's own (a large card), not an avatar (a summary card). */
  largeImage?: boolean
  /** The oEmbed endpoint's address for this page. */
  oembed?: string
  /** The author's Atom feed, and its title. */
  feed?: { url: string; title: string }
}

/** Text for a description: one line, at most `max` code points. */
export const oneLine = (text: string, max = 200): string => {
  const flat = [...text.replace(/\s+/g, ' ').trim()]
  return flat.length > max ? `${flat.slice(0, max - 1).join('')}…` : flat.join('')
}

const property = (name: string, value: string | number | undefined): string =>
  value === undefined || value === '' ? '' : `<meta property="${name}" content="${esc(value)}">`
const named = (name: string, value: string | undefined): string => (value === undefined || value === '' ? '' : `<meta name="${name}" content="${esc(value)}">`)

/** The head tags of `meta`. */
export function shareHead(meta: ShareMeta): string {
  const image = meta.image
  return [
    `<link rel="canonical" href="${esc(meta.url)}">`,
    named('description', meta.description),
    property('og:type', meta.type),
    property('og:site_name', meta.siteName),
    property('og:title', meta.title),
    property('og:description', meta.description),
    property('og:url', meta.url),
    property('og:image', image?.url),
    property('og:image:width', image?.width),
    property('og:image:height', image?.height),
    property('og:image:alt', image?.alt),
    named('twitter:card', image && meta.largeImage ? 'summary_large_image' : 'summary'),
    named('twitter:title', meta.title),
    named('twitter:description', meta.description),
    named('twitter:image', image?.url),
    named('twitter:image:alt', image?.alt),
    meta.oembed ? `<link rel="alternate" type="application/json+oembed" href="${esc(meta.oembed)}" title="${esc(meta.title)}">` : '',
    meta.feed ? `<link rel="alternate" type="application/atom+xml" href="${esc(meta.feed.url)}" title="${esc(meta.feed.title)}">` : '',
  ].join('')
}

/** The oEmbed endpoint's address for the page at `url`. */
export const oembedUrl = (baseUrl: string, url: string): string => `${baseUrl}/oembed?url=${encodeURIComponent(url)}&format=json`

/** A user's Atom feed. */
export const feedUrl = (baseUrl: string, username: string): string => `${baseUrl}/@${username}.atom`
