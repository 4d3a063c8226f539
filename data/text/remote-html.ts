/**
 * Html from other servers (profile descriptions, posts): sanitised to an
 * allow-list before anything keeps it, and read as plain text. The
 * allow-list is what Mastodon sends and App.net clients render: paragraphs,
 * line breaks, links (http, https and mailto only, opening elsewhere,
 * `rel="nofollow noopener"`), the mention and hashtag spans and a little
 * emphasis; no scripts, styles, images, frames or event attributes.
 * sanitize-html and htmlparser2 do the parsing; nothing here is a regex
 * over markup.
 */
import { Parser } from 'htmlparser2'
import sanitize from 'sanitize-html'

const ALLOWED: sanitize.IOptions = {
  allowedTags: ['p', 'br', 'a', 'span', 'strong', 'b', 'em', 'i', 'u', 'del', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li'],
  allowedAttributes: { a: ['href', 'class', 'rel', 'target'], span: ['class'] },
  // Mastodon's classes for mentions, hashtags and shortened links; nothing else.
  allowedClasses: { a: ['mention', 'hashtag', 'u-url', 'u-uid'], span: ['h-card', 'invisible', 'ellipsis'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: { a: sanitize.simpleTransform('a', { rel: 'nofollow noopener', target: '_blank' }) },
}

/** Longest html kept of a remote profile or post; longer is cut before sanitising (sanitising closes what the cut left open). */
export const REMOTE_HTML_MAX = 100_000

/** `html` from another server, safe to hand to clients as the API's html. */
export function sanitizeRemoteHtml(html: string): string {
  return sanitize(html.slice(0, REMOTE_HTML_MAX), ALLOWED)
}

/** One link of remote html: its address and its text. */
export interface RemoteLink {
  url: string
  text: string
  /** Where its text is in the plain text, in UTF-16 offsets. */
  start: number
  end: number
  /** Mastodon's class words on it (`mention`, `hashtag`, ...). */
  classes: string[]
}

/**
 * `html` (sanitised or not) as plain text: paragraphs apart by a blank line,
 * `<br>` a line break, every tag gone and its entities decoded, scripts and
 * styles dropped; and its links, in order, with the text each shows.
 */
export function remoteHtmlText(html: string): { text: string; links: RemoteLink[] } {
  const links: RemoteLink[] = []
  let text = ''
  let link: RemoteLink | null = null
  let paragraphs = 0
  let hidden = 0
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (HIDDEN.has(name)) hidden++
        if (name === 'br') text += '\n'
        if (name === 'p' && paragraphs++ > 0) text += '\n\n'
        if (name === 'a') {
          link = { url: attribs.href ?? '', text: '', start: text.length, end: text.length, classes: (attribs.class ?? '').split(/\s+/).filter(Boolean) }
          links.push(link)
        }
      },
      ontext(chunk) {
        if (hidden > 0) return
        text += chunk
        if (link) link.text += chunk
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1)
        if (name === 'a' && link) {
          link.end = text.length
          link = null
        }
      },
    },
    { decodeEntities: true },
  )
  parser.write(html.slice(0, REMOTE_HTML_MAX))
  parser.end()
  const lead = text.length - text.trimStart().length
  const trimmed = text.trim()
  const inside = links
    .map((l) => ({ ...l, start: l.start - lead, end: l.end - lead }))
    .filter((l) => l.start >= 0 && l.end <= trimmed.length && l.end > l.start)
  return { text: trimmed, links: inside }
}

/** Elements whose text is no text of the post. */
const HIDDEN = new Set(['script', 'style', 'template', 'noscript', 'title', 'textarea'])
