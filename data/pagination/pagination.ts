/**
 * The one pagination mechanism: `since_id` / `before_id` (exclusive), `count`
 * (default 20, at most 200; negative walks forward from `since_id`), newest
 * first, `more` when more matched than fitted. Every list pages through
 * `paginate`; the other functions here feed it ids from particular sources.
 */
import { invalid } from '../errors.js'
import { DEFAULT_COUNT, MAX_COUNT } from '../limits.js'
import type { MarkerRow } from '../model/channel.js'
import type { Range, Row, TableReader } from '../store/port.js'
import { windowIds } from '../store/sorted-ids.js'

/** Pagination input as it arrives; see `resolvePage` for the marker words. */
export interface PageInput {
  since_id?: string | number
  before_id?: string | number
  count?: number
}

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

type Keep<T> = (item: T) => boolean | Promise<boolean>

const bound = (value: string | number | undefined, side: 'since' | 'before', marker: MarkerRow | null | undefined): number | undefined => {
  if (value === undefined) return undefined
  if (typeof value === 'number' || /^\d+$/.test(value)) return Number(value)
  const m = /^(last_read|marker)(_inclusive)?$/.exec(value)
  if (!m) throw invalid(`${side}_id must be an id`)
  if (marker === undefined) throw invalid(`${side}_id=${value} needs a list with a stream marker`)
  const id = m[1] === 'last_read' ? marker?.last_read_id : marker?.item_id
  if (id === undefined) throw invalid(`${side}_id=${value}: the stream marker is not set`)
  // Bounds are exclusive; the inclusive forms move the bound one step out.
  if (!m[2]) return id
  return side === 'since' ? id - 1 : id + 1
}

/**
 * The numeric page window of `input`. `since_id` / `before_id` may be an id
 * or, on lists with a stream marker, `last_read`, `last_read_inclusive`,
 * `marker` or `marker_inclusive`, which stand for the marker's ids. `marker`
 * is the list's marker row (`null` when unset), or `undefined` for lists
 * without one. Errors: `invalid` (marker words without a usable marker).
 */
export function resolvePage(input: PageInput, marker?: MarkerRow | null): PageQuery {
  return { since_id: bound(input.since_id, 'since', marker), before_id: bound(input.before_id, 'before', marker), count: input.count ?? DEFAULT_COUNT }
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
  keep: Keep<T> = () => true,
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
    // Asked side by side: a store on a network answers the reads of a whole batch together.
    const kept = await Promise.all(items.map((item) => item !== null && item !== undefined && keep(item)))
    for (let i = 0; i < ids.length && found.length <= want; i++) {
      if (kept[i]) found.push({ item: items[i] as T, pagination_id: ids[i] })
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

/**
 * Pages over ids held in memory, sorted ascending: a ranking computed at
 * request time whose keys (`rank * step + id`) keep a later page where it was.
 */
export function paginateSorted<T>(
  query: PageQuery,
  sortedIds: readonly number[],
  load: (ids: number[]) => Promise<(T | null)[]>,
  keep?: Keep<T>,
): Promise<Page<T>> {
  return paginate(query, async (range) => windowIds(sortedIds, range), load, keep)
}

/**
 * Paging a list whose order is not by id (an inbox by latest activity, search
 * by popularity). Each item's pagination id is its position counted from the
 * end, so higher still means "earlier in the list" and `since_id` /
 * `before_id` work as everywhere else; the positions are only stable while
 * the ranking does not change.
 */
export async function paginateRanked<T>(query: PageQuery, ranked: readonly T[], keep?: Keep<T>): Promise<Page<T>> {
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

/**
 * For lists whose pagination ids belong to link rows (a follow, a star) while
 * their items are the rows linked to: the rows that the link rows of `ids`
 * point at, in the order of `ids`; `null` where the link or its target is gone.
 */
export async function linkedRows<L extends Row, T extends Row>(
  links: TableReader<L>,
  ids: readonly number[],
  target: (link: L) => number,
  table: TableReader<T>,
): Promise<(T | null)[]> {
  const rows = await links.getMany(ids)
  const found = new Map((await table.getMany(rows.map(target))).map((t) => [t.id, t]))
  const byLink = new Map(rows.map((l) => [l.id, found.get(target(l)) ?? null]))
  return ids.map((id) => byLink.get(id) ?? null)
}
