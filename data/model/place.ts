/**
 * A place (spec: Place). Places are not rows of the store: a million of
 * them would weigh on its memory and its start. They live in
 * `<data dir>/places/` as one NDJSON file per imported source (one Place per
 * line, readable with jq and grep) listed in `places/sources.json`; the
 * bundled GeoNames cities are read from their npm package.
 */
export interface PlaceCategory {
  id: string
  /** General to specific. */
  labels: string[]
}

export interface Place {
  /** A UUID derived from the source's own id (stable across re-imports); emitted as both `factual_id` and `vendor_id`. */
  id: string
  name: string
  address?: string
  address_extended?: string
  locality?: string
  region?: string
  admin_region?: string
  post_town?: string
  po_box?: string
  postcode?: string
  /** ISO 3166-1 alpha-2, lower case as the original API's data had it. */
  country_code?: string
  latitude: number
  longitude: number
  is_open: boolean
  telephone?: string
  fax?: string
  website?: string
  categories: PlaceCategory[]
  /** The source's own id (`geonames:2988507`, `osm:node/123`, `geojson:<file>:<feature id>`): what the id is derived from. */
  source_ref: string
}

/** One imported source as `places/sources.json` lists it. */
export interface PlaceSource {
  /** Stable per imported file name: importing the same file again replaces this source. */
  id: string
  /** Where it came from (the file name given to `svc places import`). */
  name: string
  format: 'osm-pbf' | 'geojson'
  /** The NDJSON file in `places/` holding its places. */
  file: string
  count: number
  imported_at: string
}
