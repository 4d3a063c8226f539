import type { Annotation, Entities } from './entities.js'

export interface Acl {
  any_user: boolean
  immutable: boolean
  public: boolean
  user_ids: number[]
}

export interface ChannelRow {
  readonly id: number
  type: string
  owner_id: number
  readers: Acl
  writers: Acl
  editors: Acl
  annotations: Annotation[]
  is_inactive: boolean
  /** For `svc.core.pm`: the sorted member ids joined by `,`, the key that finds the channel again. */
  pm_key?: string
  created_at: string
}

export interface SubscriptionRow {
  readonly id: number
  channel_id: number
  user_id: number
  created_at: string
}

/**
 * When a user last left a broadcast channel (unsubscribed or muted it): the
 * owner's `broadcast_unsubscribe` interactions. One row per channel and user,
 * as with subscriptions; other channel types keep none.
 */
export interface BroadcastUnsubscriptionRow {
  readonly id: number
  channel_id: number
  user_id: number
  unsubscribed_at: string
}

export interface ChannelMuteRow {
  readonly id: number
  channel_id: number
  user_id: number
  created_at: string
}

export interface MessageRow {
  readonly id: number
  channel_id: number
  user_id: number
  text: string
  entities: Entities
  annotations: Annotation[]
  machine_only: boolean
  reply_to?: number
  thread_id: number
  app_id: number
  created_at: string
  is_deleted?: boolean
  /** Set when the operator removed the message (`svc message delete`): why and when. */
  removed?: { reason: string; at: string }
  /** Set on a private message from another server: the direct Note it came as. */
  remote?: RemoteMessage
}

/** What is kept of a direct Note that arrived as a private message. */
export interface RemoteMessage {
  /** The Note's id: the same Note again is the same message. */
  object_id: string
  /** The authority of the server it came from. */
  server: string
}

export interface MarkerRow {
  readonly id: number
  user_id: number
  name: string
  /** The item at the top of the viewport when last synced. */
  item_id?: number
  last_read_id?: number
  percentage: number
  version: string
  updated_at: string
}
