/** The API's User object (spec: User, Image object). */
import type { Annotation } from './annotation.js'
import type { Entities } from './entities.js'

export type UserType = 'human' | 'feed' | 'bot'

/** An avatar or cover: the URL names the file itself, and takes `w` and `h` for a resized copy. */
export interface UserImage {
  width: number
  height: number
  is_default: boolean
  url: string
}

export interface UserDescription {
  text: string
  entities: Entities
  /** Left out with `include_html=0`. */
  html?: string
}

export interface UserCounts {
  following: number
  followers: number
  posts: number
  stars: number
}

/**
 * What the requesting user's token sees of its relation to this user: all of
 * these, or none (an anonymous request, the viewer's own account).
 */
export interface UserRelation {
  follows_you: boolean
  you_blocked: boolean
  you_follow: boolean
  you_muted: boolean
  you_can_subscribe: boolean
  you_can_follow: boolean
  /** Only on a remote account (`username` is `name@server`): the viewer asked to follow it and its server has not accepted yet. */
  follow_pending?: boolean
  /** Deprecated names (spec, Versioning 3): `you_follow`, `follows_you`, `you_muted`, still read by older clients. */
  is_following: boolean
  is_follower: boolean
  is_muted: boolean
}

export interface User extends Partial<UserRelation> {
  id: string
  username: string
  name: string
  description: UserDescription
  timezone: string
  locale: string
  avatar_image: UserImage
  cover_image: UserImage
  type: UserType
  created_at: string
  canonical_url: string
  counts: UserCounts
  /** Only when the user verified one. */
  verified_domain?: string
  /** Only when asked for (`include_annotations`, `include_user_annotations`). */
  annotations?: Annotation[]
}
