/**
 * A place as the API shows it (spec: Place), for the presenter and for the
 * `+svc.core.place` replacement value alike: the id as `factual_id` (what
 * App.net clients read) and `vendor_id` (the spec's name), the fields the
 * place has, and never its `source_ref`.
 */
import type { Place } from '../model/place.js'

const TEXT_FIELDS = ['name', 'address', 'address_extended', 'locality', 'region', 'admin_region', 'post_town', 'po_box', 'postcode', 'country_code'] as const
const CONTACT_FIELDS = ['telephone', 'fax', 'website'] as const

/** The place without `source_ref`, its id under both names: what the API's Place object holds. */
export type PlaceValue = { factual_id: string; vendor_id: string } & Omit<Place, 'id' | 'source_ref'>

export function placeValue(place: Place): PlaceValue {
  const out: Partial<PlaceValue> = { factual_id: place.id, vendor_id: place.id }
  for (const k of TEXT_FIELDS) if (place[k] !== undefined) out[k] = place[k]
  Object.assign(out, { latitude: place.latitude, longitude: place.longitude, is_open: place.is_open })
  for (const k of CONTACT_FIELDS) if (place[k] !== undefined) out[k] = place[k]
  out.categories = place.categories.map((c) => ({ id: c.id, labels: [...c.labels] }))
  return out as PlaceValue
}
