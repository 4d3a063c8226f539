/**
 * Pagination input as it arrives: `since_id` / `before_id` may be an id or,
 * on lists with a stream marker, `last_read`, `last_read_inclusive`,
 * `marker` or `marker_inclusive`, which stand for the marker's ids.
 */
import { invalid } from '../errors.js'
import { DEFAULT_COUNT } from '../limits.js'
import type { MarkerRow } from '../model/channel.js'
import type { PageQuery } from './pagination.js'

export interface PageInput {
  since_id?: string | number
  before_id?: string | number
  count?: number
}

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
 * The numeric page window of `input`. `marker` is the list's marker row
 * (`null` when unset), or `undefined` for lists without one.
 * Errors: `invalid` (marker words without a usable marker).
 */
export function resolvePage(input: PageInput, marker?: MarkerRow | null): PageQuery {
  return { since_id: bound(input.since_id, 'since', marker), before_id: bound(input.before_id, 'before', marker), count: input.count ?? DEFAULT_COUNT }
}
