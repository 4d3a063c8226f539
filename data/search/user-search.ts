/**
 * User search (`GET /users/search`): terms of `q` match usernames, display
 * names and descriptions, never posts; `@name` looks at usernames and
 * description mentions, `#tag` at description hashtags. Every term must
 * match. An exact username comes first, then username prefixes, then the rest.
 *
 * Each result's pagination id is `rank * 10^13 + user id`, so a later page
 * stays where it was while new accounts arrive.
 */
import { invalid } from '../errors.js'
import type { UserRow } from '../model/user.js'
import { paginateSorted, resolvePage, type Page, type PageInput } from '../pagination/pagination.js'
import type { Store } from '../store/port.js'
import type { ScanGate } from './scan-gate.js'
import { visitRows } from '../store/scan-rows.js'
import type { Viewer } from '../viewer.js'
import { holdersOf, targetsOf } from '../relations/relation-reads.js'
import { isModerated } from '../users/moderated-users.js'
import { REMOTE_HANDLE_PATTERN, type UserService } from '../users/users.js'

export interface UserSearchInput {
  q?: string
}

interface Term {
  word: string
  kind: 'text' | 'mention' | 'hashtag'
}

const RANK_STEP = 10_000_000_000_000
const EXACT = 3
const PREFIX = 2
const OTHER = 1

/** The terms of `q`; `#tag` and `@name` keep their kind, punctuation alone is dropped. */
function parseTerms(q: string): Term[] {
  return (q.toLowerCase().match(/\S+/g) ?? []).flatMap((raw): Term[] => {
    const kind = raw.startsWith('#') ? 'hashtag' : raw.startsWith('@') ? 'mention' : 'text'
    const word = kind === 'text' ? raw : raw.slice(1)
    return /[\p{L}\p{N}_]/u.test(word) ? [{ word, kind }] : []
  })
}

const matches = (term: Term, user: UserRow): boolean => {
  const { entities } = user.description
  if (term.kind === 'hashtag') return entities.hashtags.some((h) => h.name.toLowerCase() === term.word)
  if (user.username_key.includes(term.word)) return true
  if (term.kind === 'mention') return entities.mentions.some((m) => m.name.toLowerCase() === term.word)
  return user.name.toLowerCase().includes(term.word) || user.description.text.toLowerCase().includes(term.word)
}

/** 0 when `user` does not match every term, else how well its username does. */
function rankUser(terms: readonly Term[], user: UserRow): number {
  if (!terms.every((t) => matches(t, user))) return 0
  const names = terms.filter((t) => t.kind !== 'hashtag').map((t) => t.word)
  if (names.includes(user.username_key)) return EXACT
  if (names.some((w) => user.username_key.startsWith(w))) return PREFIX
  return OTHER
}

export class UserSearchService {
  constructor(
    private readonly store: Store,
    /** Bounds how many searches scan at once. */
    private readonly gate: ScanGate,
    /** Reaches remote accounts by handle, when the instance federates. */
    private readonly accounts: Pick<UserService, 'find'> | null = null,
  ) {}

  /**
   * The page of users matching `input.q`, best match first; users who
   * blocked the viewer or whom the viewer blocked, and suspended and
   * deleted accounts, are left out. Every account is looked at, a chunk at
   * a time, while the scan gate has room.
   * Errors: `invalid` (no searchable term, bad page bounds), `rate_limited`
   * (as many searches running as the gate allows).
   */
  async search(viewer: Viewer, input: UserSearchInput, page: PageInput): Promise<Page<UserRow>> {
    const terms = parseTerms(input.q ?? '')
    if (terms.length === 0) throw invalid('q must hold a word, @username or #tag to search for')
    const query = resolvePage(page)
    // A whole remote handle is looked up on its server first (kept once found), so the scan below finds it.
    const handle = (input.q ?? '').trim()
    if (this.accounts && REMOTE_HANDLE_PATTERN.test(handle)) await this.accounts.find(handle.startsWith('@') ? handle : `@${handle}`, viewer)
    const r = this.store.read
    const me = viewer.user
    const hidden = me ? new Set([...(await targetsOf(r, 'blocks', me.id)), ...(await holdersOf(r, 'blocks', me.id))]) : new Set<number>()
    const ranked: number[] = []
    await this.gate.run(() =>
      visitRows(r.users, (user) => {
        const rank = hidden.has(user.id) || isModerated(user) ? 0 : rankUser(terms, user)
        if (rank > 0) ranked.push(rank * RANK_STEP + user.id)
      }),
    )
    ranked.sort((a, b) => a - b)
    const load = async (keys: number[]): Promise<(UserRow | null)[]> => {
      const rows = new Map((await r.users.getMany(keys.map((k) => k % RANK_STEP))).map((u) => [u.id, u]))
      return keys.map((k) => rows.get(k % RANK_STEP) ?? null)
    }
    return paginateSorted(query, ranked, load)
  }
}
