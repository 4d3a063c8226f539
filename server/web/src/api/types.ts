/** The API's objects, as far as the client reads them (see the spec's User, Post, Channel, Message, File). */
export interface Entities {
  mentions: { name: string; id: string; pos: number; len: number }[]
  hashtags: { name: string; pos: number; len: number }[]
  links: { text: string; url: string; pos: number; len: number; amended_len?: number }[]
}

export interface Image {
  url: string
  width: number
  height: number
  is_default?: boolean
}

export interface User {
  id: string
  username: string
  name: string
  description?: { text: string; entities: Entities }
  avatar_image: Image
  cover_image: Image
  type: string
  counts: { followers: number; following: number; posts: number; stars: number }
  follows_you?: boolean
  you_follow?: boolean
  you_muted?: boolean
  you_blocked?: boolean
  you_can_follow?: boolean
  canonical_url?: string
  timezone?: string
  locale?: string
}

export interface Annotation {
  type: string
  value: Record<string, unknown>
}

export interface Post {
  id: string
  user?: User
  created_at: string
  text?: string
  html?: string
  entities?: Entities
  reply_to?: string
  thread_id: string
  num_replies: number
  num_reposts: number
  num_stars: number
  you_starred?: boolean
  you_reposted?: boolean
  is_deleted?: boolean
  repost_of?: Post
  annotations?: Annotation[]
  canonical_url?: string
}

export interface Message {
  id: string
  channel_id: string
  user?: User
  created_at: string
  text?: string
  entities?: Entities
  is_deleted?: boolean
  annotations?: Annotation[]
}

export interface Channel {
  id: string
  type: string
  owner?: User
  has_unread?: boolean
  you_subscribed?: boolean
  recent_message?: Message
  recent_message_id?: string
  writers: { user_ids: string[]; any_user?: boolean; public?: boolean }
  readers: { user_ids: string[]; any_user?: boolean; public?: boolean }
  counts?: { messages: number; subscribers: number }
  marker?: Marker
}

export interface Marker {
  name: string
  id?: string
  percentage?: number
  updated_at?: string
  version?: string
}

export interface Interaction {
  action: 'star' | 'repost' | 'reply' | 'follow' | 'broadcast_create' | 'broadcast_subscribe' | 'broadcast_unsubscribe' | 'welcome'
  event_date: string
  objects: (Post | User | Channel)[]
  users: User[]
}

export interface FileObject {
  id: string
  file_token?: string
  kind: string
  mime_type?: string
  name?: string
  url?: string
  url_permanent?: string
  image_info?: { width: number; height: number }
}

/** `meta` of an answer: the status, and paging for lists. */
export interface Meta {
  code: number
  error_message?: string
  min_id?: string
  max_id?: string
  more?: boolean
  marker?: Marker
  subscription_ids?: Record<string, string> | string[]
  unread_counts?: Record<string, number>
}
