import type { Annotation, Entities } from './entities.js'

/** What is kept of a post that came from another server (a Note). */
export interface RemotePost {
  /** The Note's id: the same Note again is the same post. */
  object_id: string
  /** Where a browser reads it (the Note's url, else its id). */
  url: string
  /** Its html, sanitised when it arrived. */
  html: string
  /** The authority of the server it came from. */
  server: string
  /** When its author last edited it, as the Note's `updated` said (ISO 8601); absent until an edit that said so. */
  updated?: string
  /**
   * Its Note was addressed to its author's followers (and the accounts it
   * mentions), not to the public: only they see it here (post-traits.ts
   * `shownOnlyTo`), in no public stream, and nobody reposts it.
   */
  followers_only?: true
}

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
  /** Set when the operator removed the post (`svc post delete`): why and when, kept with the deleted post. */
  removed?: { reason: string; at: string }
  /** Set on a post from another server. */
  remote?: RemotePost
}

export interface StarRow {
  readonly id: number
  user_id: number
  post_id: number
  created_at: string
}
