/**
 * What a user stream sends for one event: the matching subscriptions and the
 * objects, in the shape of the list they subscribed to. The transport renders
 * it with the same presenter as that list's REST answer.
 */
import type { TokenInfo } from '../auth/tokens.js'
import type { ChannelRow, MarkerRow, MessageRow } from '../model/channel.js'
import type { FileRow } from '../model/file.js'
import type { Interaction } from '../posts/interactions.js'
import type { PostRow } from '../model/post.js'
import type { UserRow } from '../model/user.js'
import type { Page } from '../pagination/pagination.js'
import type { Viewer } from '../viewer.js'

/** `meta.type` of a user stream event. */
export type StreamEventType =
  'post' | 'interaction' | 'user_follow' | 'channel' | 'channel_subscription' | 'message' | 'stream_marker' | 'token' | 'user' | 'file'

/** The objects of an event, by the presenter that renders them. */
export type StreamData =
  | { shape: 'posts'; page: Page<PostRow> }
  | { shape: 'interactions'; page: Page<Interaction> }
  | { shape: 'users'; page: Page<UserRow> }
  | { shape: 'channels'; page: Page<ChannelRow> }
  | { shape: 'messages'; page: Page<MessageRow> }
  | { shape: 'token'; token: TokenInfo }
  | { shape: 'user'; user: UserRow }
  | { shape: 'files'; page: Page<FileRow> }

export type StreamMatch = StreamData & {
  type: StreamEventType
  /** The removed object's id, for deletions (`meta.is_deleted`, `meta.deleted_id`). */
  deletedId?: number
  /** The list's stream marker, on marker updates. */
  marker?: { name: string; row: MarkerRow | null }
}

export type StreamDelivery = StreamMatch & {
  connectionId: string
  subscriptionIds: string[]
  /** Who the stream shows things to: its token, app and user as they are now. */
  viewer: Viewer
}

/** A one-item page: stream events carry `min_id`, `max_id` and `more: false` like the list's pages. */
export const pageOf = <T>(item: T, paginationId: number): Page<T> => ({ items: [{ item, pagination_id: paginationId }], more: false })

export const emptyPage = <T>(): Page<T> => ({ items: [], more: false })

/** A consumer's end of a stream, provided by the transport. */
export interface StreamSink {
  /** Renders and writes one delivery; resolves once the transport has taken it, never waiting for the consumer to read. */
  send(delivery: StreamDelivery): Promise<void>
  /** Null when the consumer can take more now; otherwise settles once it can (or has gone). */
  whenReady(): Promise<void> | null
  /** Ends the connection, telling the consumer why. */
  close(reason: string): void
}
