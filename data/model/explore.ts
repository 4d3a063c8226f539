/**
 * What selects a public post into an explore stream. Every set criterion must
 * hold; an empty rule selects every public post (reposts, machine-only and
 * deleted posts are never selected).
 */
export interface ExploreRule {
  /** A `svc.core.oembed` photo, or an image in `svc.core.attachments`. */
  has_photo?: boolean
  /** A `svc.core.checkin` or `svc.core.geolocation` annotation. */
  has_place?: boolean
  /** At least one reply. */
  has_replies?: boolean
  /** At least this many stars within `star_window_hours` (default 24). */
  min_stars?: number
  star_window_hours?: number
  /** Lower-case, without `#`. */
  hashtag?: string
  /** Posts by these users only. */
  user_ids?: number[]
  /** No leading mention. */
  not_directed?: boolean
  /** Starts a thread (not a reply). */
  is_thread_root?: boolean
}

export interface ExploreStreamRow {
  readonly id: number
  /** `[a-z0-9]`, 1 to 255 characters, unique (streams made before that rule may hold `-`). */
  slug: string
  title: string
  description: string
  /** Marker name suffix (`explore:<marker>`); usually the slug. */
  marker: string
  rule: ExploreRule
  /** Post ids pinned by hand, shown whatever the rule says. */
  pinned: number[]
  created_at: string
  updated_at?: string
}
