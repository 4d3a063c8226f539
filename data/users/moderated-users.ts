/**
 * The accounts whose posts nobody sees: suspended and deleted ones, and
 * those still waiting for the operator's approval. Every
 * list of posts asks about each candidate post's author, so the ids are
 * kept in memory: read once from the store's `moderated` index when the
 * domain opens, then kept current by the moderation events, which the event
 * log hands on before the call that suspended (or restored) returns.
 */
import type { EventLog } from '../events/event-log.js'
import type { Readers } from '../store/port.js'

/** Answers whether a user's posts are hidden from everyone; what the post filters ask. */
export interface HiddenAuthors {
  has(userId: number): boolean
}

export class ModeratedUsers implements HiddenAuthors {
  private readonly ids = new Set<number>()

  constructor(events: EventLog) {
    events.on('user.suspended', (e) => this.ids.add(e.payload.user.id))
    events.on('user.deleted', (e) => this.ids.add(e.payload.user.id))
    events.on('user.unsuspended', (e) => {
      if (!isModerated(e.payload.user)) this.ids.delete(e.payload.user.id)
    })
    events.on('user.created', (e) => {
      if (e.payload.user.waiting_approval !== undefined) this.ids.add(e.payload.user.id)
    })
    events.on('user.approved', (e) => {
      if (!isModerated(e.payload.user)) this.ids.delete(e.payload.user.id)
    })
    // A turned-away account's row is gone: nothing can name its id again.
    events.on('user.rejected', (e) => this.ids.delete(e.payload.user.id))
  }

  /** Reads the moderated accounts from the store; once, at open, before any request. */
  async load(read: Readers): Promise<void> {
    for (const id of await read.users.ids('moderated', 1, { limit: Number.MAX_SAFE_INTEGER })) this.ids.add(id)
  }

  has(userId: number): boolean {
    return this.ids.has(userId)
  }
}

/** A user row that may not act or be shown: suspended, deleted, or not yet approved by the operator. */
export const isModerated = (user: { suspended_at?: string; deleted_at?: string; waiting_approval?: object }): boolean =>
  user.suspended_at !== undefined || user.deleted_at !== undefined || user.waiting_approval !== undefined
