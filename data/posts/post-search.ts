/**
 * Post search: free text (`query`, `text`) and filters, all ANDed, over the
 * public posts that are indexed (live, original, not machine-only). Ordered
 * by id (stream order) or by score (relevance, then newest).
 *
 * Score order pages too: each result's pagination id is `score * 10^10 +
 * post id`, so later pages stay stable while new posts arrive.
 */
import { invalid } from '../errors.js'
import type { PostRow } from '../model/post.js'
import { paginate, paginateSorted, resolvePage, type Page } from '../pagination/pagination.js'
import type { Store } from '../store/port.js'
import type { Viewer } from '../viewer.js'
import { postVisibilityTest } from './post-filters.js'
import type { PostListInput } from './post-streams.js'
import { isListedPost, postsInOrder, scanPosts } from './post-traits.js'
import { compileSearchFilters, type SearchFilters } from './search-filters.js'
import { MAX_SCORE, parseTextQuery, scorePost, type TextQuery } from './search-query.js'
import type { HiddenAuthors } from '../users/moderated-users.js'

export interface PostSearchInput extends SearchFilters {
  query?: string
  text?: string
  order?: 'id' | 'score'
}

const SCORE_STEP = 10_000_000_000

export class PostSearchService {
  constructor(
    private readonly store: Store,
    private readonly hidden: HiddenAuthors,
  ) {}

  /**
   * The page of posts matching `input` that `viewer` may see, as the post
   * general parameters of `page` allow (muted and blocked authors hidden by
   * default). Errors: `invalid` (no query and no filter, `order=score`
   * without a query, marker-relative ids).
   */
  async search(viewer: Viewer, input: PostSearchInput, page: PostListInput): Promise<Page<PostRow>> {
    const text = [input.query && parseTextQuery(input.query, true), input.text && parseTextQuery(input.text, false)].filter((q): q is TextQuery => !!q)
    const filters = await compileSearchFilters(this.store.read, input)
    if (text.length === 0 && filters.given === 0) throw invalid('a search needs a query or at least one filter')
    if (input.order === 'score' && text.length === 0) throw invalid('order=score needs a query')
    const score = (post: PostRow): number => {
      if (!isListedPost(post) || !filters.match(post)) return 0
      let total = 0
      for (const q of text) {
        const s = scorePost(q, post)
        if (s === 0) return 0
        total += s
      }
      return Math.min(Math.max(total, 1), MAX_SCORE)
    }
    const visible = await postVisibilityTest(this.store.read, this.hidden, viewer, page)
    const query = resolvePage(page)
    const r = this.store.read
    if (input.order !== 'score') {
      const matches = (post: PostRow) => score(post) > 0
      const fetchIds = filters.source ?? scanPosts(r, matches)
      return paginate(query, fetchIds, postsInOrder(r), async (post) => matches(post) && (await visible(post)))
    }
    // Relevance needs every match scored before the first page can be cut;
    // the scan yields between chunks, and visibility is left to the page.
    const ranked: number[] = []
    const scored = (post: PostRow): boolean => {
      const s = score(post)
      if (s > 0) ranked.push(s * SCORE_STEP + post.id)
      return false
    }
    await scanPosts(r, scored, filters.source)({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' })
    ranked.sort((a, b) => a - b)
    const byKey = async (keys: number[]) => postsInOrder(r)(keys.map((k) => k % SCORE_STEP))
    return paginateSorted(query, ranked, byKey, visible)
  }
}
