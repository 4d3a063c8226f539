/**
 * A GeoJSON feature's properties as a place. Exports name their fields
 * differently: plain ones (`name`, `address`, `city`, `phone`), OSM-style
 * (`addr:street`), Foursquare's open places (`locality`, `tel`,
 * `fsq_category_labels`) and Overture's (`names.primary`,
 * `categories.primary`, `addresses[0]`, `phones[0]`); the first that is
 * there wins.
 */
import type { Place, PlaceCategory } from '../../model/place.js'

type Props = Record<string, unknown>

const textOf = (value: unknown): string | undefined => {
  if (typeof value === 'number') return String(value)
  if (typeof value !== 'string') return undefined
  const trimmed = value.trim()
  return trimmed === '' ? undefined : trimmed
}

/** The first of `values` that is text (or the first text of a list of them). */
const first = (...values: unknown[]): string | undefined => {
  for (const value of values) {
    const text = Array.isArray(value) ? value.map(textOf).find((v) => v !== undefined) : textOf(value)
    if (text !== undefined) return text
  }
  return undefined
}

const record = (value: unknown): Props => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Props) : {})

// Foursquare labels read "Dining and Drinking > Cafe, Coffee, and Tea House": general to specific already.
const categoryOf = (label: string): PlaceCategory => {
  const labels = label
    .split('>')
    .map((l) => l.trim())
    .filter((l) => l !== '')
  return { id: `geojson:${labels.join(' > ')}`, labels }
}

const labelsOf = (p: Props): string[] => {
  const overture = record(p.categories)
  const lists = [p.fsq_category_labels, p.categories, p.category, overture.primary, overture.alternate, p.amenity, p.shop, p.type]
  for (const list of lists) {
    const labels = (Array.isArray(list) ? list : [list]).map(textOf).filter((l) => l !== undefined)
    if (labels.length > 0) return labels
  }
  return []
}

const isClosed = (p: Props): boolean =>
  p.is_open === false ||
  p.closed === true ||
  textOf(p.operating_status) === 'permanently_closed' ||
  textOf(p.operating_status) === 'closed' ||
  textOf(p.date_closed) !== undefined

const countryCode = (value: string | undefined): string | undefined => (value !== undefined && /^[A-Za-z]{2}$/.test(value) ? value.toLowerCase() : undefined)

/** The fields of a place that the properties `p` give (everything but id, position and source). */
export function placeFieldsOf(p: Props): Omit<Place, 'id' | 'latitude' | 'longitude' | 'source_ref' | 'name'> & { name?: string } {
  const overtureAddress = record(Array.isArray(p.addresses) ? p.addresses[0] : undefined)
  const street = first(p['addr:street'], p.street)
  const number = first(p['addr:housenumber'], p.housenumber, p.house_number)
  const streetAddress = street === undefined ? undefined : number === undefined ? street : `${number} ${street}`
  const labels = [...new Set(labelsOf(p))]
  return {
    name: first(p.name, record(p.names).primary, p.title),
    address: first(p.address, streetAddress, overtureAddress.freeform),
    address_extended: first(p.address_extended),
    locality: first(p.locality, p.city, p['addr:city'], overtureAddress.locality),
    region: first(p.region, p.state, p['addr:state'], overtureAddress.region),
    postcode: first(p.postcode, p.postal_code, p.zip, p['addr:postcode'], overtureAddress.postcode),
    country_code: countryCode(first(p.country_code, p.country, p['addr:country'], overtureAddress.country)),
    is_open: !isClosed(p),
    telephone: first(p.telephone, p.phone, p.tel, p.phones, p['contact:phone']),
    fax: first(p.fax),
    website: first(p.website, p.url, p.websites, p['contact:website']),
    categories: labels.map(categoryOf),
  }
}
