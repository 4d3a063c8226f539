/**
 * The envelope of every answer (spec rule 1): `{data, meta}` on success,
 * `{meta}` alone on an error; `meta.code` is the HTTP status.
 */
import type { Channel } from './channel.js'
import type { File } from './file.js'
import type { Interaction } from './interaction.js'
import type { Message } from './message.js'
import type { Post } from './post.js'
import type { Token } from './token.js'
import type { User } from './user.js'
import type { ExploreStream } from './explore.js'
import type { Marker } from './marker.js'

export interface Meta {
  code: number
  /** On errors: meant for people; a 400's starts with `Bad Request: `. */
  error_message?: string
  /** On some errors: a stable name for the cause (`invalid-token`, ...). */
  error_slug?: string
  /** On errors: 32 hex digits naming this occurrence. */
  error_id?: string
  /** Paginated lists (spec rule 4). */
  more?: boolean
  min_id?: string
  max_id?: string
  /** Lists that have a stream marker (`unified`, `channel:<id>`, `explore:<slug>`, ...). */
  marker?: Marker
  /** An Explore stream's posts: the stream. */
  explore_stream?: ExploreStream
  /** `GET /channels`' inbox: unread channels by type. */
  unread_counts?: Record<string, number>
  /** A call that subscribed a user stream (spec: Subscriptions on a user stream). */
  subscription_ids?: string[]
}

/** A success: `data` is the object, list, ids, number or map the endpoint answers. */
export interface Envelope<T> {
  data: T
  meta: Meta
}

/** A failure: `meta` only, with `code` and `error_message`. */
export interface ErrorEnvelope {
  meta: Meta & { error_message: string }
}

/** An item of a paginated list: it carries its place in the list. */
export type Paginated<T> = T & { pagination_id: string }

/** The objects as items of a paginated list (each with its `pagination_id`), by name, for the API document's answers. */
export type PaginatedChannel = Paginated<Channel>
export type PaginatedFile = Paginated<File>
export type PaginatedInteraction = Paginated<Interaction>
export type PaginatedMessage = Paginated<Message>
export type PaginatedPost = Paginated<Post>
export type PaginatedToken = Paginated<Token>
export type PaginatedUser = Paginated<User>
