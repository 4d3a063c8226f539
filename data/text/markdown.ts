/**
 * Markdown links: `[anchor](url)` becomes plain `anchor` plus a link entity.
 * Only http(s) destinations convert; anything else stays as typed.
 */
import { isHttpUrl, type LinkMatch } from './links.js'

// The URL may hold balanced parentheses (`.../Foo_(bar)`).
const MARKDOWN_LINK = /\[([^\[\]\n]+)\]\(\s*((?:[^\s()]|\([^\s()]*\))+)\s*\)/g

/** `text` with markdown links replaced by their anchors, and those links (UTF-16 ranges in the new text). */
export function parseMarkdownLinks(text: string): { text: string; links: LinkMatch[] } {
  let out = ''
  let at = 0
  const links: LinkMatch[] = []
  for (const m of text.matchAll(MARKDOWN_LINK)) {
    const [whole, anchor, url] = m
    if (!isHttpUrl(url)) continue
    out += text.slice(at, m.index)
    links.push({ start: out.length, end: out.length + anchor.length, url })
    out += anchor
    at = m.index + whole.length
  }
  return { text: out + text.slice(at), links }
}
