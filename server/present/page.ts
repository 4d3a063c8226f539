/** Paginated lists: items carry `pagination_id`, meta carries `more`, `min_id`, `max_id`. */
import type { Page } from '../../data/index.js'
import type { Meta, Paginated } from '../api/index.js'
import { ok, type Envelope } from '../envelope.js'
import { JsonFields, type RawJson } from '../json-text.js'

/** The items as objects, or as JSON text of their fields (posts), which the page closes with `pagination_id`. */
type Presented<O> = O[] | JsonFields<O>[]

export async function presentPage<R, O extends object>(
  page: Page<R>,
  present: (rows: R[]) => Promise<Presented<O>>,
  meta: Partial<Meta> = {},
): Promise<Envelope> {
  const shaped = await present(page.items.map((i) => i.item))
  const data = shaped.map((obj: O | JsonFields<O>, i): Paginated<O> | RawJson<Paginated<O>> => {
    const pagination_id = String(page.items[i].pagination_id)
    return obj instanceof JsonFields ? obj.with('pagination_id', pagination_id).object() : { ...obj, pagination_id }
  })
  const ids = page.items.map((i) => i.pagination_id)
  const pageMeta: Partial<Meta> = { more: page.more }
  if (ids.length > 0) {
    pageMeta.min_id = String(Math.min(...ids))
    pageMeta.max_id = String(Math.max(...ids))
  }
  return ok(data, { ...pageMeta, ...meta })
}
