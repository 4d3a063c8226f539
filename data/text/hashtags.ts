/**
 * Hashtag scanning: `#` plus one or more Unicode letters, digits, marks or
 * `_` (`#1`, `#Português`, `#новости`). The `#` does not follow a word
 * character; after another `#` it may start a tag (`##1` tags `#1`).
 */
import type { Range } from './code-points.js'

export interface HashtagMatch extends Range {
  /** Tag text without `#`, lower-cased. */
  name: string
}

// A tag starts with a letter, digit or `_`: `#` plus a variation selector is the keycap emoji #️⃣, not a tag.
const HASHTAG = /(?<![\p{L}\p{N}\p{M}_])#([\p{L}\p{N}_][\p{L}\p{N}\p{M}_]*)/gu

/** Every hashtag of `text`, in text order. */
export function scanHashtags(text: string): HashtagMatch[] {
  return [...text.matchAll(HASHTAG)].map((m) => ({ start: m.index, end: m.index + m[0].length, name: m[1].toLowerCase() }))
}
