/**
 * The free-text part of a post search: `"phrases"`, `+must`, `-mustnot` and
 * `a OR b`. Plain terms are all required (AND); `OR` joins neighbours into
 * one alternative. In `query` a `#tag` term matches hashtags and an `@name`
 * term matches mentions; in `text` every term matches words of the text only.
 */
import type { PostRow } from '../model/post.js'

interface Term {
  /** Lower-cased words; more than one for a phrase. */
  words: string[]
  kind: 'text' | 'hashtag' | 'mention'
}

/** Each group must match at least one of its terms; `not` terms must not match. */
export interface TextQuery {
  groups: Term[][]
  not: Term[]
}

const WORD = /[\p{L}\p{N}_]+/gu

const wordsOf = (text: string): string[] => text.toLowerCase().match(WORD) ?? []

const termOf = (raw: string, tagsAndMentions: boolean): Term | null => {
  if (tagsAndMentions && /^#[\p{L}\p{N}_]+$/u.test(raw)) return { words: [raw.slice(1).toLowerCase()], kind: 'hashtag' }
  if (tagsAndMentions && /^@\w+$/.test(raw)) return { words: [raw.slice(1).toLowerCase()], kind: 'mention' }
  const words = wordsOf(raw)
  return words.length === 0 ? null : { words, kind: 'text' }
}

/** Parses a query; `null` when it holds no searchable word. */
export function parseTextQuery(input: string, tagsAndMentions: boolean): TextQuery | null {
  const tokens = input.match(/[+-]?"[^"]*"?|\S+/g) ?? []
  const query: TextQuery = { groups: [], not: [] }
  let joinNext = false
  for (const token of tokens) {
    if (token === 'OR') {
      joinNext = query.groups.length > 0
      continue
    }
    const sign = token[0] === '+' || token[0] === '-' ? token[0] : ''
    const term = termOf(token.slice(sign.length).replace(/^"|"$/g, ''), tagsAndMentions)
    if (!term) continue
    if (sign === '-') query.not.push(term)
    else if (joinNext && sign === '') query.groups[query.groups.length - 1].push(term)
    else query.groups.push([term])
    joinNext = false
  }
  return query.groups.length === 0 && query.not.length === 0 ? null : query
}

/** How often `term` occurs in `post` (0: no match). */
function occurrences(term: Term, post: Pick<PostRow, 'entities'>, words: string[]): number {
  if (term.kind === 'hashtag') return post.entities.hashtags.some((h) => h.name.toLowerCase() === term.words[0]) ? 2 : 0
  if (term.kind === 'mention') return post.entities.mentions.some((m) => m.name.toLowerCase() === term.words[0]) ? 2 : 0
  let n = 0
  for (let i = 0; i + term.words.length <= words.length; i++) {
    if (term.words.every((w, j) => words[i + j] === w)) n++
  }
  return n
}

/** Scores above this are cut, so that a score and a post id fit one pagination id. */
export const MAX_SCORE = 9999

/** The relevance of `post` (or a message) for `query`: 0 when it does not match, else at least 1. */
export function scorePost(query: TextQuery, post: Pick<PostRow, 'text' | 'entities'>): number {
  const lowered = post.text.toLowerCase()
  // Cheap check first: most posts of a large instance share no word with the query.
  const mayMatch = query.groups.every((g) => g.some((t) => t.kind !== 'text' || lowered.includes(t.words[0])))
  if (!mayMatch) return 0
  const words = wordsOf(post.text)
  if (query.not.some((t) => occurrences(t, post, words) > 0)) return 0
  let score = 0
  for (const group of query.groups) {
    const best = Math.max(...group.map((t) => occurrences(t, post, words)))
    if (best === 0) return 0
    score += best
  }
  return Math.max(1, Math.min(score, MAX_SCORE))
}
