/**
 * HTML rendering of text with entities, exactly as the original API wrote it:
 * one wrapping itemscope span, mention/hashtag spans, plain anchors, `\n` as
 * `<br>`, `\r` as `&#13;`, and every non-ASCII code point as a decimal
 * character reference.
 */
import type { Entities } from '../model/entities.js'

const escapeChar = (ch: string): string => {
  const cp = ch.codePointAt(0) as number
  if (ch === '&') return '&amp;'
  if (ch === '<') return '&lt;'
  if (ch === '>') return '&gt;'
  if (ch === '\n') return '<br>'
  if (ch === '\r') return '&#13;'
  return cp > 127 ? `&#${cp};` : ch
}

/** `text` as HTML by the API's rules, without entity markup (newlines as `<br>`, non-ASCII as references). */
export const escapeText = (text: string): string => {
  let out = ''
  for (const ch of text) out += escapeChar(ch)
  return out
}

// Attributes follow the text's rule (non-ASCII as decimal references, `&` as `&amp;`), plus `"` so a value cannot end the attribute.
const escapeAttr = (value: string): string => escapeText(value.replace(/[\n\r]/g, '')).replace(/"/g, '&quot;')

type Span = { pos: number; len: number; open: string; close: string }

/** Renders `text` (code-point positions in `entities`) to the API's HTML. */
export function renderHtml(text: string, entities: Entities): string {
  const chars = [...text]
  const spans: Span[] = [
    ...entities.mentions.map((m) => ({
      pos: m.pos,
      len: m.len,
      open: `<span data-mention-id="${escapeAttr(m.id)}" data-mention-name="${escapeAttr(m.name)}" itemprop="mention">`,
      close: '</span>',
    })),
    ...entities.hashtags.map((h) => ({
      pos: h.pos,
      len: h.len,
      open: `<span data-hashtag-name="${escapeAttr(h.name)}" itemprop="hashtag">`,
      close: '</span>',
    })),
    ...entities.links.map((l) => ({ pos: l.pos, len: l.len, open: `<a href="${escapeAttr(l.url)}">`, close: '</a>' })),
  ].sort((a, b) => a.pos - b.pos)
  let out = '<span itemscope="https://app.net/schemas/Post">'
  let at = 0
  for (const span of spans) {
    // Zero-length mentions address a machine-only post; they have nothing to wrap.
    if (span.len <= 0 || span.pos < at || span.pos + span.len > chars.length) continue
    out += escapeText(chars.slice(at, span.pos).join(''))
    out += span.open + escapeText(chars.slice(span.pos, span.pos + span.len).join('')) + span.close
    at = span.pos + span.len
  }
  out += escapeText(chars.slice(at).join('')) + '</span>'
  return out
}
