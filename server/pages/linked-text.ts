/**
 * A post's or description's text as a public page shows it: escaped, with
 * its entities (as the API gives them) made links. Hashtags lead to the web
 * client's tag page, mentions of local users to their public page, links
 * where they point (only http and https, as the text pipeline keeps them).
 */
import type { Entities } from '../../data/index.js'
import { esc } from './layout.js'

interface Span {
  pos: number
  len: number
  href: string
  rel?: string
}

const LOCAL_USERNAME = /^\w{1,20}$/
const WEB_LINK = /^https?:\/\//i

/** The spans of `entities` that become links. */
function spansOf(entities: Entities, baseUrl: string): Span[] {
  return [
    ...entities.hashtags.map((h) => ({ pos: h.pos, len: h.len, href: `${baseUrl}/explore/tag/${encodeURIComponent(h.name)}` })),
    ...entities.mentions.filter((m) => LOCAL_USERNAME.test(m.name)).map((m) => ({ pos: m.pos, len: m.len, href: `${baseUrl}/@${m.name.toLowerCase()}` })),
    ...entities.links.filter((l) => WEB_LINK.test(l.url)).map((l) => ({ pos: l.pos, len: l.len, href: l.url, rel: 'nofollow noopener' })),
  ].sort((a, b) => a.pos - b.pos)
}

/** `text` as HTML (positions count code points, as entities do); overlapping or out-of-range spans are left as text. */
export function linkedText(text: string, entities: Entities, baseUrl: string): string {
  const chars = [...text]
  let out = ''
  let at = 0
  for (const span of spansOf(entities, baseUrl)) {
    if (span.len <= 0 || span.pos < at || span.pos + span.len > chars.length) continue
    out += esc(chars.slice(at, span.pos).join(''))
    const rel = span.rel ? ` rel="${span.rel}"` : ''
    out += `<a href="${esc(span.href)}"${rel}>${esc(chars.slice(span.pos, span.pos + span.len).join(''))}</a>`
    at = span.pos + span.len
  }
  return out + esc(chars.slice(at).join(''))
}
