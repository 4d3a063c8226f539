/**
 * What an OpenStreetMap object's tags say about it as a place: whether it is
 * one (a name and a point-of-interest key), its address and contacts,
 * whether it is open, and its categories (`osm:amenity=cafe`, labels
 * general → specific).
 */
import type { Place } from '../../model/place.js'
import { placeIdOf } from '../place-ids.js'

export type OsmTags = Record<string, string>

/** The keys that make a named object a point of interest, in the order its categories list them. */
export const POI_KEYS = [
  'amenity',
  'shop',
  'tourism',
  'leisure',
  'office',
  'craft',
  'historic',
  'healthcare',
  'public_transport',
  'emergency',
  'sport',
] as const

/** Lifecycle prefixes that mean the thing is gone or no longer in use (`disused:shop=bakery`). */
const CLOSED_PREFIXES = ['disused:', 'abandoned:', 'demolished:', 'removed:', 'was:']

/** Each point-of-interest key with its closed forms (`shop`, `disused:shop`, ...), worked out once: every node of an extract is checked. */
const FORMS = new Map<string, string[]>(POI_KEYS.map((key) => [key, [key, ...CLOSED_PREFIXES.map((prefix) => prefix + key)]]))
const ANY_FORM = new Set([...FORMS.values()].flat())

/** The value of point-of-interest key `key`, or of its closed form (`disused:shop`) when only that is there. */
const poiValue = (tags: OsmTags, key: string): string | undefined => {
  for (const form of FORMS.get(key)!) if (tags[form] !== undefined) return tags[form]
  return undefined
}

/** Does the object carry a point-of-interest key (named or not)? */
export const isPoiCandidate = (tags: OsmTags): boolean => {
  for (const key in tags) if (ANY_FORM.has(key) && tags[key] !== 'no') return true
  return false
}

const isClosed = (tags: OsmTags): boolean =>
  tags.opening_hours === 'closed' ||
  tags.disused === 'yes' ||
  tags.abandoned === 'yes' ||
  Object.keys(tags).some((key) => CLOSED_PREFIXES.some((prefix) => key.startsWith(prefix)))

// `amenity=cafe;restaurant` lists several values: each is a category.
const values = (value: string): string[] =>
  value
    .split(';')
    .map((v) => v.trim())
    .filter((v) => v !== '' && v !== 'yes' && v !== 'no')

const categoriesOf = (tags: OsmTags): Place['categories'] => {
  const categories: Place['categories'] = []
  for (const key of POI_KEYS) {
    const value = poiValue(tags, key)
    if (value !== undefined) for (const v of values(value)) categories.push({ id: `osm:${key}=${v}`, labels: [key, v] })
  }
  return categories
}

const addressOf = (tags: OsmTags): string | undefined => {
  const street = tags['addr:street'] ?? tags['addr:place']
  const number = tags['addr:housenumber']
  if (street === undefined) return number
  return number === undefined ? street : `${number} ${street}`
}

const first = (...candidates: (string | undefined)[]): string | undefined => candidates.find((c) => c !== undefined && c.trim() !== '')?.trim()

/**
 * Sets the keys of `fields` that have a value on `place`, so the NDJSON lines carry only what is known (added, not
 * deleted after: an object with deleted keys turns into a slow dictionary, and a million of them dominate an import).
 */
const assignDefined = (place: Record<string, unknown>, fields: Record<string, unknown>): void => {
  for (const key in fields) if (fields[key] !== undefined) place[key] = fields[key]
}

/**
 * The place an OSM object is, at `latitude`/`longitude`; `null` when it is
 * not one (no name, or no point-of-interest key).
 */
export function placeOfOsm(kind: 'node' | 'way', id: number, tags: OsmTags, latitude: number, longitude: number): Place | null {
  const name = first(tags.name)
  if (name === undefined || !isPoiCandidate(tags)) return null
  const categories = categoriesOf(tags)
  const sourceRef = `osm:${kind}/${id}`
  const place: Record<string, unknown> = { id: placeIdOf(sourceRef), name }
  assignDefined(place, {
    address: first(addressOf(tags)),
    locality: first(tags['addr:city'], tags['addr:suburb']),
    region: first(tags['addr:state'], tags['addr:province']),
    postcode: first(tags['addr:postcode']),
    country_code: first(tags['addr:country'])?.toLowerCase(),
  })
  Object.assign(place, { latitude, longitude, is_open: !isClosed(tags) })
  assignDefined(place, {
    telephone: first(tags.phone, tags['contact:phone']),
    fax: first(tags.fax, tags['contact:fax']),
    website: first(tags.website, tags['contact:website'], tags.url),
  })
  Object.assign(place, { categories, source_ref: sourceRef })
  return place as unknown as Place
}
