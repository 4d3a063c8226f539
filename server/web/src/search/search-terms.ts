/** What a query asks for: a hashtag when it is `#tag` or one word that could be one, and the API's query for posts. */
import type { Query } from '../api/client'

/** Letters, digits and underscores: what the API recognises as a hashtag's name. */
const TAG = /^#?([\p{L}\p{N}_]{1,100})$/u

/** The hashtag a query names or could name, without its `#`; null for several words or punctuation. */
export function hashtagOf(q: string): string | null {
  return TAG.exec(q.trim())?.[1] ?? null
}

/** Post search's parameters: `#tag` looks for the hashtag, anything else for the words. */
export function postQueryOf(q: string): Query {
  const text = q.trim()
  const tag = text.startsWith('#') ? hashtagOf(text) : null
  return tag ? { hashtags: tag } : { query: text }
}
