/** Paginated lists: items carry `pagination_id`, meta carries `more`, `min_id`, `max_id`. */
import type { Page } from '../../data/index.js'
import { ok, RawJson, type Envelope } from '../envelope.js'

export async function presentPage<T>(
  page: Page<T>,
  present: (items: T[]) => Promise<Record<string, unknown>[] | RawJson[]>,
  meta: Record<string, unknown> = {},
): Promise<Envelope> {
  const shaped = await present(page.items.map((i) => i.item))
  const data = shaped.map((obj, i) => {
    const pagination_id = String(page.items[i].pagination_id)
    return obj instanceof RawJson ? obj.withField('pagination_id', pagination_id) : { ...obj, pagination_id }
  })
  const ids = page.items.map((i) => i.pagination_id)
  const pageMeta: Record<string, unknown> = { more: page.more }
  if (ids.length > 0) {
    pageMeta.min_id = String(Math.min(...ids))
    pageMeta.max_id = String(Math.max(...ids))
  }
  return ok(data, { ...pageMeta, ...meta })
}
