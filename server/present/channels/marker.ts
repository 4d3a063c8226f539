/** The API shape of a stream marker: `{name}` while unset, the full object once set. */
import type { MarkerRow } from '../../../data/index.js'
import type { Marker } from '../../api/index.js'

export function presentMarker(name: string, row: MarkerRow | null): Marker {
  if (!row) return { name }
  const out: Marker = { name: row.name, percentage: row.percentage, updated_at: row.updated_at, version: row.version }
  if (row.item_id !== undefined) out.id = String(row.item_id)
  if (row.last_read_id !== undefined) out.last_read_id = String(row.last_read_id)
  return out
}
