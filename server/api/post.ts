/** The API's Post object (spec: Post), a deleted post's stripped shape included. */
import type { Annotation } from './annotation.js'
import type { Entities } from './entities.js'
import type { Source } from './source.js'
import type { User } from './user.js'

export interface Post {
  id: string
  created_at: string
  canonical_url: string
  machine_only: boolean
  num_replies: number
  num_reposts: number
  num_stars: number
  source: Source
  /** The thread's root; a post's own id when it is one. */
  thread_id: string
  /** Left out when the author's account is gone. */
  user?: User
  /** Left out on a deleted post. */
  text?: string
  /** Empty lists on a deleted post. */
  entities: Entities
  /** Left out on a deleted post and with `include_html=0`. */
  html?: string
  is_deleted?: true
  /** The original API's legacy twin of `is_deleted`, a string. */
  deleted?: '1'
  /** The parent's id, on replies only. */
  reply_to?: string
  /** For a user token. */
  you_starred?: boolean
  you_reposted?: boolean
  /** Only when asked for (`include_starred_by`). */
  starred_by?: User[]
  /** Only when asked for (`include_reposters`). */
  reposters?: User[]
  /** Only when asked for (`include_annotations`, `include_post_annotations`). */
  annotations?: Annotation[]
  /** On reposts: the original post. */
  repost_of?: Post
}
