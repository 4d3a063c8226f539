/** The API's Message object (spec: Message), a deleted message's stripped shape included. */
import type { Annotation } from './annotation.js'
import type { Entities } from './entities.js'
import type { Source } from './source.js'
import type { User } from './user.js'

export interface Message {
  id: string
  channel_id: string
  created_at: string
  machine_only: boolean
  num_replies: number
  source: Source
  thread_id: string
  /** Left out when the author's account is gone. */
  user?: User
  is_deleted?: true
  /** Left out on a deleted message. */
  text?: string
  /** Empty lists on a deleted message. */
  entities: Entities
  /** Left out on a deleted message and with `include_html=0`. */
  html?: string
  reply_to?: string
  /** Only when asked for (`include_annotations`, `include_message_annotations`). */
  annotations?: Annotation[]
}
