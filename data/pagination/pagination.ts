/**
 * The one pagination mechanism: `since_id` / `before_id` (exclusive), `count`
 * (default 20, at most 200; negative walks forward from `since_id`), newest
 * first, `more` when more matched than fitted.
 */
import { MAX_COUNT } from '../limits.js'
import type { Range } from '../store/port.js'

export interface PageQuery {
  since_id?: number
  before_id?: number
  count: number
}

export interface PageItem<T> {
  item: T
  /** Position in this list; not necessarily the item's id (a follow row's id in follower lists). */
  pagination_id: number
}

export interface Page<T> {
  items: PageItem<T>[]
  more: boolean
}

/**
 * Pages over an ordered id source. `load` maps source ids to items (null for
 * gone ones), `keep` drops items the viewer must not see; the source is read
 * in batches until the page is full, so filtering never shortens a page that
 * has more behind it.
 */
export async function paginate<T>(
  query: PageQuery,
  fetchIds: (range: Range) => Promise<number[]>,
  load: (ids: number[]) => Promise<(T | null)[]>,
  keep: (item: T) => boolean | Promise<boolean> = () => true,
): Promise<Page<T>> {
  const want = Math.min(Math.abs(query.count), MAX_COUNT)
  const order = query.count < 0 ? 'asc' : 'desc'
  let since = query.since_id
  let before = query.before_id
  const found: PageItem<T>[] = []
  let batch = want + 1
  while (found.length <= want) {
    const ids = await fetchIds({ since, before, limit: batch, order })
    if (ids.length === 0) break
    const items = await load(ids)
    for (let i = 0; i < ids.length && found.length <= want; i++) {
      const item = items[i]
      if (item !== null && item !== undefined && (await keep(item))) found.push({ item, pagination_id: ids[i] })
    }
    if (ids.length < batch) break
    if (order === 'desc') before = ids[ids.length - 1]
    else since = ids[ids.length - 1]
    batch = Math.min(batch * 2, 1000)
  }
  const more = found.length > want
  const items = found.slice(0, want)
  if (order === 'asc') items.reverse()
  return { items, more }
}
