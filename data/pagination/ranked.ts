/**
 * Paging a list whose order is not by id (an inbox by latest activity, search
 * by popularity). The list is ranked at request time and each item's
 * pagination id is its position counted from the end, so higher still means
 * "earlier in the list" and `since_id` / `before_id` work as everywhere else;
 * the positions are only stable while the ranking does not change.
 */
import { paginate, type Page, type PageQuery } from './pagination.js'

export async function paginateRanked<T>(query: PageQuery, ranked: readonly T[], keep: (item: T) => boolean | Promise<boolean> = () => true): Promise<Page<T>> {
  const n = ranked.length
  return paginate(
    query,
    async ({ since, before, limit, order }) => {
      const low = Math.max((since ?? 0) + 1, 1)
      const high = Math.min((before ?? n + 1) - 1, n)
      const out: number[] = []
      if (order === 'asc') for (let p = low; p <= high && out.length < limit; p++) out.push(p)
      else for (let p = high; p >= low && out.length < limit; p--) out.push(p)
      return out
    },
    async (positions) => positions.map((p) => ranked[n - p] ?? null),
    keep,
  )
}
