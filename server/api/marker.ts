/** A stream marker (spec: Stream marker): `{name}` alone while unset, every field once set. */
export interface Marker {
  name: string
  percentage?: number
  updated_at?: string
  /** Opaque, changed on every update. */
  version?: string
  /** The item at the top of the viewport when last synced. */
  id?: string
  /** The highest id ever reported read. */
  last_read_id?: string
}
