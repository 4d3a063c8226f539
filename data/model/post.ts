import type { Annotation, Entities } from './entities.js'

export interface PostRow {
  readonly id: number
  user_id: number
  /** Stored text (after markdown links and anti-phishing amendments). Empty for machine-only posts. */
  text: string
  entities: Entities
  annotations: Annotation[]
  machine_only: boolean
  reply_to?: number
  thread_id: number
  /** Set on reposts: the original post's id. */
  repost_of?: number
  /** The app that created the post. */
  app_id: number
  created_at: string
  is_deleted?: boolean
}

export interface StarRow {
  readonly id: number
  user_id: number
  post_id: number
  created_at: string
}
