/** An Interaction (`GET /users/me/interactions`): who did what to the requester's things, grouped. */
import type { Channel } from './channel.js'
import type { Post } from './post.js'
import type { User } from './user.js'

/** `welcome` is named for the clients that ask for it; svc makes none. */
export type InteractionAction = 'follow' | 'star' | 'repost' | 'reply' | 'broadcast_create' | 'broadcast_subscribe' | 'broadcast_unsubscribe' | 'welcome'

export interface Interaction {
  action: InteractionAction
  /** The latest event of the group. */
  event_date: string
  /** Users for `follow`, Posts for `star`, `repost` and `reply`, Channels for the broadcast actions. */
  objects: (User | Post | Channel)[]
  /** Who acted. */
  users: User[]
}
