/**
 * What the inboxes do with an activity whose signature verified (Fedify
 * refuses the others before any listener runs): for now, record it in the
 * event log as `federation.activity_received`, for the part of federation
 * that acts on follows, posts and deletions to read. The listeners run from
 * the durable queue, after the sender had its 202.
 */
import { Accept, Activity, Create, Delete, Follow, Reject, Undo, Update, type InboxContext, type InboxListenerSetters } from '@fedify/fedify'
import type { Store } from '../store/port.js'

/** The activities the inboxes take, by the name events give them. */
const KINDS = { Follow, Undo, Create, Delete, Update, Accept, Reject } as const

/** Records each verified activity of `KINDS` that reaches the inboxes `setters` listens on. */
export function recordActivities(setters: InboxListenerSetters<void>, store: Store): void {
  for (const [type, Kind] of Object.entries(KINDS)) {
    setters.on(Kind as typeof Activity, async (ctx: InboxContext<void>, activity: Activity) => {
      // Fedify has checked that the signer owns the actor, so an activity without one never gets here; the guard keeps types honest.
      if (!activity.actorId) return
      const json = (await activity.toJsonLd({ contextLoader: ctx.contextLoader })) as Record<string, unknown>
      const recipient = ctx.recipient === null ? null : Number(ctx.recipient)
      await store.transact((tx) =>
        tx.emit('federation.activity_received', {
          id: activity.id?.href ?? null,
          type,
          actor: activity.actorId!.href,
          recipient_id: recipient,
          activity: json,
        }),
      )
    })
  }
}
