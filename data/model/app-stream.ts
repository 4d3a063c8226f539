import { FILTER_OBJECT_TYPES } from './filter.js'

/** The object types an app stream can carry (its `object_types`, each event's `meta.type`): a filter's, and profile updates. */
export const APP_STREAM_OBJECT_TYPES = [...FILTER_OBJECT_TYPES, 'user'] as const

export type AppStreamObjectType = (typeof APP_STREAM_OBJECT_TYPES)[number]

/**
 * An app stream: everything an app may see, narrowed to `object_types` and
 * its filter, queued for the app's server. The queue is `cursor`, a position
 * in the event log, so it outlives restarts and costs no memory.
 */
export interface AppStreamRow {
  readonly id: number
  app_id: number
  /** The app token that made it; the stream belongs to that token. */
  token_id: number
  /** Optional name, unique among the streams of one token. */
  key?: string
  object_types: AppStreamObjectType[]
  type: 'long_poll'
  filter_id?: number
  /** The filter was given inline, belongs to this stream and goes with it. */
  owns_filter?: boolean
  /** Every event up to this sequence number was handled for this stream. */
  cursor: number
  /** Events dropped because the queue overflowed, not yet reported to a consumer. */
  dropped: number
  /** Mixed into the endpoint's signature, so the URL of a deleted stream never works again. */
  nonce: string
  created_at: string
}
