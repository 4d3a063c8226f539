/** Lists whose pagination ids belong to link rows (a follow, a star) while their items are the rows linked to. */
import type { Row, TableReader } from '../store/port.js'

/**
 * The rows that the link rows of `ids` point at, in the order of `ids`;
 * `null` where the link or its target is gone (the shape `paginate` loads).
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
