/** The API's Channel object (spec: Channel). */
import type { Annotation } from './annotation.js'
import type { Marker } from './marker.js'
import type { Message } from './message.js'
import type { User } from './user.js'

/** Who may read, write or edit; `you` says whether the requester may. */
export interface ChannelAcl {
  any_user: boolean
  immutable: boolean
  public: boolean
  user_ids: string[]
  you: boolean
}

export interface ChannelCounts {
  messages: number
  subscribers: number
}

export interface Channel {
  id: string
  type: string
  counts: ChannelCounts
  has_unread: boolean
  is_inactive: boolean
  readers: ChannelAcl
  writers: ChannelAcl
  editors: ChannelAcl
  you_can_edit: boolean
  you_subscribed: boolean
  you_muted: boolean
  /** Left out when the owner's account is gone. */
  owner?: User
  recent_message_id?: string
  /** Only when asked for (`include_recent_message`). */
  recent_message?: Message
  /** Only when asked for (`include_annotations`, `include_channel_annotations`). */
  annotations?: Annotation[]
  /** Only when asked for (`include_marker`, user tokens). */
  marker?: Marker
}
