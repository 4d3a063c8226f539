/**
 * Streams (spec: Streams, Events): the App stream resource, and what user
 * streams and app streams send.
 */
import type { Channel } from './channel.js'
import type { Meta } from './envelope.js'
import type { File } from './file.js'
import type { Filter, FilterObjectType } from './filter.js'
import type { Marker } from './marker.js'
import type { Message } from './message.js'
import type { Post } from './post.js'
import type { Source } from './source.js'
import type { User } from './user.js'

/** What an app stream carries: a filter's object types, and profile updates. */
export type AppStreamObjectType = FilterObjectType | 'user'

/** The App stream resource. */
export interface AppStream {
  id: string
  /** Where a consumer reads it; the address is itself the credential. */
  endpoint: string
  object_types: AppStreamObjectType[]
  type: 'long_poll'
  /** Only when the stream has one. */
  filter?: Filter
  /** Only when the creator named it. */
  key?: string
}

/** `meta.type` of a user stream event. */
export type UserStreamEventType =
  'post' | 'interaction' | 'user_follow' | 'channel' | 'channel_subscription' | 'message' | 'stream_marker' | 'token' | 'user' | 'file'

/** A user stream event's meta: the subscribed list's own, and the stream's. */
export interface UserStreamMeta extends Meta {
  connection_id: string
  subscription_ids: string[]
  type: UserStreamEventType
  /** A deletion: the removed object's id. */
  is_deleted?: true
  deleted_id?: string
}

/** One user stream event: the envelope of the subscribed list's REST answer. */
export interface UserStreamEvent<T = unknown> {
  meta: UserStreamMeta
  data: T
}

/** The first frame of a WebSocket user stream: its connection id, alone. */
export interface UserStreamConnection {
  meta: { connection_id: string }
}

/** The last line of an HTTP user stream the server ends, saying why. */
export interface UserStreamEnd {
  meta: { code: number; disconnected: true; error_message: string }
}

/** An app stream event's meta (spec: App stream). */
export interface AppStreamMeta {
  /** Opaque: the object's id, or `<user_id>:<other_id>` for relations. */
  id: string
  type: AppStreamObjectType
  is_deleted: boolean
  /** Unix time in milliseconds. */
  timestamp: number
  channel_id?: string
  channel_type?: string
  subscribed_user_ids?: string[]
  user_id?: string
  /** Users a notification service must not notify about this event. */
  suppress_notifications: string[]
  /** Nobody is to be notified. */
  suppress_notifications_all: boolean
}

/** The `data` of a `token` event: the token as its user authorized it. */
export interface TokenEventData {
  scopes: string[]
  app: Source
  client_id: string
  user?: User
}

/** An app stream event's `data`, by `meta.type` (spec: the app stream table); null where the table says none. */
export type AppStreamEventData =
  | Post
  | Message
  | Channel
  | User
  | File
  | { post: Post; user: User }
  | { follows_user: User; user: User }
  | { muted_user: User; user: User }
  | { blocked_user: User; user: User }
  | { marker: Marker; user: User }
  | { user: User; channel: Channel }
  | TokenEventData
  | null

export interface AppStreamEvent {
  meta: AppStreamMeta
  data: AppStreamEventData
}

/** A message about the stream itself (a warning, an overflow, a disconnection), not an event. */
export interface AppStreamControl {
  control: { type: string; message: string; [detail: string]: unknown }
}
