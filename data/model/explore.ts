/** What selects a public post into an explore stream. Every set criterion must hold. */
export interface ExploreRule {
  has_photo?: boolean
  has_place?: boolean
  has_replies?: boolean
  /** At least this many stars within `star_window_hours` (default 24). */
  min_stars?: number
  star_window_hours?: number
  hashtag?: string
  user_ids?: number[]
  not_directed?: boolean
  is_thread_root?: boolean
}

export interface ExploreStreamRow {
  readonly id: number
  slug: string
  title: string
  description: string
  /** Marker name suffix (`explore:<marker>`); usually the slug. */
  marker: string
  rule: ExploreRule
  /** Post ids pinned by hand, shown whatever the rule says. */
  pinned: number[]
  created_at: string
}
