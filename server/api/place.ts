/** The API's Place object (spec: Place). */
export interface PlaceCategory {
  id: string
  /** General to specific. */
  labels: string[]
}

export interface Place {
  /** The place's id, under the name App.net clients read. */
  factual_id: string
  /** The same id, under the spec's name. */
  vendor_id: string
  name: string
  address?: string
  address_extended?: string
  locality?: string
  region?: string
  admin_region?: string
  post_town?: string
  po_box?: string
  postcode?: string
  /** ISO 3166-1 alpha-2. */
  country_code?: string
  latitude: number
  longitude: number
  is_open: boolean
  telephone?: string
  fax?: string
  website?: string
  categories: PlaceCategory[]
}

/** A search result: the place and how far it is, in metres. */
export interface PlaceHit extends Place {
  distance: number
}
