/**
 * Link detection: `http(s)://` URLs and bare domains whose last label is a
 * real TLD (`app.net`, `telegraph.co.uk`, `skysports.com/skysportsnews`).
 * Sentence punctuation after a link is not part of it.
 */
import { overlaps, type Range } from './code-points.js'
import { isTld } from './tlds.js'

export interface LinkMatch extends Range {
  url: string
}

// A URL ends at whitespace, at <, > or ", and at CJK punctuation, which is written without a space after it.
const URL_CHARS = '[^\\s<>"\\u3000-\\u303f\\uff01\\uff08\\uff09\\uff0c\\uff1a\\uff1b\\uff1f]'
const EXPLICIT = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}_])https?://${URL_CHARS}+`, 'giu')
// No bare domain right after `@` (e-mail addresses), `.`, `-`, `/` or a word character.
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?'
const BARE = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}_@.\\-/#$])(?:${LABEL}\\.)+(\\p{L}{2,})(?![\\p{L}\\p{N}\\p{M}_@-])(?::\\d{1,5})?(?:/${URL_CHARS}*)?`, 'gu')

const TRAILING = new Set(['.', ',', ')', '!', '?', ':', ';', "'", '"'])

const count = (s: string, ch: string): number => s.split(ch).length - 1

/** `candidate` without the sentence punctuation that follows it; `)` stays when it closes a `(` of the URL. */
export function trimTrailing(candidate: string): string {
  let s = candidate
  while (s.length > 0 && TRAILING.has(s[s.length - 1])) {
    if (s.endsWith(')') && count(s, '(') >= count(s, ')')) break
    s = s.slice(0, -1)
  }
  return s
}

/** True when `url` parses as an http or https URL with a host. */
export function isHttpUrl(url: string): boolean {
  try {
    const parsed = new URL(url)
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== ''
  } catch {
    return false
  }
}

/** Every link of `text`, in text order, never overlapping one another. */
export function scanLinks(text: string): LinkMatch[] {
  const found: LinkMatch[] = []
  for (const m of text.matchAll(EXPLICIT)) {
    const matched = trimTrailing(m[0])
    if (isHttpUrl(matched)) found.push({ start: m.index, end: m.index + matched.length, url: matched })
  }
  for (const m of text.matchAll(BARE)) {
    if (!isTld(m[1])) continue
    const matched = trimTrailing(m[0])
    const link = { start: m.index, end: m.index + matched.length, url: `http://${matched}` }
    if (!found.some((other) => overlaps(other, link)) && isHttpUrl(link.url)) found.push(link)
  }
  return found.sort((a, b) => a.start - b.start)
}
