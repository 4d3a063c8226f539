/** The subscribable endpoints of a user stream, named by their path under the API base. */
export const SUBSCRIBABLE_ENDPOINTS = [
  'users/me/following',
  'users/me/followers',
  'users/me/posts',
  'users/me/mentions',
  'users/me/interactions',
  'posts/replies',
  'posts/stream',
  'posts/stream/unified',
  'channels',
  'channels/subscribers',
  'channels/messages',
  'users/me/files',
  'token',
] as const

export type SubscribableEndpoint = (typeof SUBSCRIBABLE_ENDPOINTS)[number]

/** Connection-wide display options, given at connect (the presenter's options). */
export interface StreamDisplayOptions {
  include_annotations?: boolean
  include_message_annotations?: boolean
  include_channel_annotations?: boolean
  include_user_annotations?: boolean
  include_post_annotations?: boolean
  include_file_annotations?: boolean
  include_starred_by?: boolean
  include_reposters?: boolean
  include_marker?: boolean
  include_recent_message?: boolean
  include_html?: boolean
}

/** Per-subscription filter options: the list's own query flags. */
export interface SubscriptionFilters {
  include_incomplete?: boolean
  include_private?: boolean
  file_types?: string[]
  channel_types?: string[]
  include_read?: boolean
  include_muted?: boolean
  include_deleted?: boolean
  include_machine?: boolean
  include_directed_posts?: boolean
  has_oembed_photo?: boolean
}

/** A user stream: kept while connected and for a while after, so a client can resume it. */
export interface UserStreamRow {
  readonly id: number
  connection_id: string
  user_id: number
  token_id: number
  options: StreamDisplayOptions
  auto_delete: boolean
  /** Every event up to this sequence number was handled for this stream. */
  cursor: number
  /** When the last consumer went away; `null` while one is connected. */
  closed_at: string | null
  /** The svc process serving it while connected (several share a PostgreSQL store); absent in rows from before. */
  node?: string
  created_at: string
}

/** One subscription of a user stream to a list. */
export interface StreamSubscriptionRow {
  readonly id: number
  stream_id: number
  /** The client's id for it (opaque), unique within its stream. */
  subscription_id: string
  endpoint: SubscribableEndpoint
  /** The post (replies) or channel (subscribers, messages) the list is of. */
  target?: number
  /** The thread of `target` for replies, fixed when subscribed. */
  thread_id?: number
  filters: SubscriptionFilters
  /** Scopes the list needs (one of them), checked again at each delivery. */
  scopes: string[]
  created_at: string
}

/** How far a reader of the event log got, kept so a restart resumes there (never ahead of it). */
export interface LogCursorRow {
  readonly id: number
  name: string
  seq: number
  updated_at: string
}
