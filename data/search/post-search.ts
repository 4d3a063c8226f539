/**
 * Post search: free text (`query`, `text`) and filters, all ANDed, over the
 * public posts that are indexed (live, original, not machine-only). Ordered
 * by id (stream order) or by score (relevance, then newest).
 *
 * A search scans rows, so its work is bounded: it looks at the newest
 * `windowPosts` posts only (by id, whatever the order; a filter's index
 * narrows the candidates within that window), and it runs only while the
 * scan gate has room (otherwise `rate_limited`).
 *
 * Score order pages too: each result's pagination id is `score * 10^10 +
 * post id`, so later pages stay stable while new posts arrive.
 */
import type { PostRow } from '../model/post.js'
import { paginate, paginateSorted, resolvePage, type Page, type PageQuery } from '../pagination/pagination.js'
import type { Range, Store } from '../store/port.js'
import type { ScanGate } from './scan-gate.js'
import type { Viewer } from '../viewer.js'
import { postVisibilityTest } from '../posts/post-filters.js'
import type { PostListInput } from '../posts/post-streams.js'
import { isListedPost, postsInOrder, scanPosts } from '../posts/post-traits.js'
import { compileSearch, type SearchFilters } from './search-filters.js'
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
    private readonly gate: ScanGate,
    /** How many of the newest posts (by id) a search looks at. */
    private readonly windowPosts: number,
  ) {}

  /**
   * The page of posts among the newest `windowPosts` matching `input` that
   * `viewer` may see, as the post general parameters of `page` allow (muted
   * and blocked authors hidden by default). Errors: `invalid` (no query and
   * no filter, `order=score` without a query, marker-relative ids),
   * `rate_limited` (as many searches running as the gate allows).
   */
  async search(viewer: Viewer, input: PostSearchInput, page: PostListInput): Promise<Page<PostRow>> {
    const { filters, textScore } = await compileSearch(this.store.read, input)
    const score = (post: PostRow): number => (isListedPost(post) && filters.match(post) ? textScore(post) : 0)
    const query = resolvePage(page)
    const r = this.store.read
    return this.gate.run(async () => {
      const visible = await postVisibilityTest(this.store.read, this.hidden, viewer, page)
      const window = await this.window(filters.source)
      if (input.order !== 'score') {
        const matches = (post: PostRow) => score(post) > 0
        return paginate(query, scanPosts(r, matches, window), postsInOrder(r), visible)
      }
      return this.ranked(query, score, visible, window)
    })
  }

  /** Candidate ids from `source` (every post by default) limited to the newest `windowPosts` post ids. */
  private async window(source: ((range: Range) => Promise<number[]>) | undefined): Promise<(range: Range) => Promise<number[]>> {
    const r = this.store.read
    const [newest = 0] = await r.posts.scan({ limit: 1, order: 'desc' })
    const floor = Math.max(0, newest - this.windowPosts)
    const from = source ?? ((range: Range) => r.posts.scan(range))
    return async (range) => {
      if (range.before !== undefined && range.before <= floor + 1) return []
      return from({ ...range, since: Math.max(range.since ?? 0, floor) })
    }
  }

  private async ranked(
    query: PageQuery,
    score: (post: PostRow) => number,
    visible: (post: PostRow) => Promise<boolean>,
    window: (range: Range) => Promise<number[]>,
  ): Promise<Page<PostRow>> {
    const r = this.store.read
    // Relevance needs every match scored before the first page can be cut;
    // the scan yields between chunks, and visibility is left to the page.
    const ranked: number[] = []
    const scored = (post: PostRow): boolean => {
      const s = score(post)
      if (s > 0) ranked.push(s * SCORE_STEP + post.id)
      return false
    }
    await scanPosts(r, scored, window)({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' })
    ranked.sort((a, b) => a - b)
    const byKey = async (keys: number[]) => postsInOrder(r)(keys.map((k) => k % SCORE_STEP))
    return paginateSorted(query, ranked, byKey, visible)
  }
}
