import type { AccountEmail } from './account-email.js'
import type { Annotation, Entities } from './entities.js'

export type UserType = 'human' | 'bot' | 'feed'

/** A stored image (avatar or cover): the file lives under the data dir's images folder. */
export interface StoredImage {
  /** File name inside `<data dir>/images`, e.g. `3f2a....png`. */
  file: string
  width: number
  height: number
  mime: string
  /** On a remote account's image: the address it was fetched from (its server's `icon` or `image`). */
  source?: string
}

/**
 * What is kept of a remote account (an ActivityPub actor on another server):
 * where it lives and what its profile shows that a local account keeps
 * otherwise (the description's html as sent, sanitised; image URLs).
 */
export interface RemoteAccount {
  /** The actor's id, the account's identity. */
  actor_id: string
  inbox: string
  shared_inbox?: string
  /** Its followers collection, which its followers-only posts are addressed to. */
  followers?: string
  /** Its profile page (the actor's `url`, else its id). */
  url: string
  /** The description's html, sanitised when it arrived. */
  html: string
  /** Its images' addresses on its server, as the actor gave them; svc serves its own copies (`avatar`, `cover`). */
  avatar_url?: string
  cover_url?: string
  /** When the actor document was last read, ISO. */
  fetched_at: string
  /** The domain whose block (`svc federation block`) suspended the account: unblocking it lifts that suspension. */
  blocked_by?: string
  /** Its server is silenced: its posts stay out of public streams for those who do not follow it. */
  limited?: true
}

export interface UserRow {
  readonly id: number
  username: string
  /** Lower-cased username, the unique key. */
  username_key: string
  name: string
  /** scrypt hash, `scrypt$N$r$p$salt$hash`; absent for accounts that cannot sign in. */
  password_hash?: string
  /**
   * The account's credential generation (absent: 0), raised by a password
   * reset and a suspension: a sign-in session carries the one it began
   * under and ends when they differ.
   */
  session_epoch?: number
  type: UserType
  locale: string
  timezone: string
  description: { text: string; entities: Entities }
  annotations: Annotation[]
  avatar?: StoredImage
  cover?: StoredImage
  verified_domain?: string
  created_at: string
  /** Set while an admin has the account suspended: it cannot sign in and its posts are hidden. */
  suspended_at?: string
  /**
   * Set while the account waits for the operator's approval (registration
   * mode `approval`): it cannot sign in and nobody else sees it, as if it
   * were suspended. `note` is what it told the operator at sign-up.
   */
  waiting_approval?: { since: string; note?: string }
  /** Set on an account of another server: it cannot sign in, holds no token, and is no local user. */
  remote?: RemoteAccount
  /** The account's e-mail address and whether it is confirmed (see data/auth/email-addresses.ts). */
  email?: AccountEmail
  /** Set once the account is deleted: the row stays as a tombstone so ids elsewhere still resolve, without username or profile. */
  deleted_at?: string
}
