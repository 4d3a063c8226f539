/**
 * What the inboxes do with an activity whose signature verified (Fedify
 * refuses the others before any listener runs): record it in the event log
 * as `federation.activity_received`, then act on it: follows (follows.ts),
 * posts and accounts (remote-posts.ts).
 * The listeners run from the durable queue, after the sender had its 202;
 * Fedify skips an activity id it has processed already. Anything a remote
 * server sent that does not fit is left alone, never an error.
 */
import { Accept, Activity, Create, Delete, Follow, Reject, Undo, Update, type InboxContext, type InboxListenerSetters } from '@fedify/fedify'
import type { PostService } from '../posts/posts.js'
import type { RelationService } from '../relations/relations.js'
import type { Store } from '../store/port.js'
import { onAccept, onFollow, onReject, onUndoFollow } from './follows.js'
import { onCreate, onDelete, onUpdate } from './remote-posts.js'

/** The activities the inboxes take, by the name events give them. */
const KINDS = { Follow, Undo, Create, Delete, Update, Accept, Reject } as const

export interface InboxParts {
  store: Store
  relations: RelationService
  posts: PostService
}

/** The object of `activity` when it is a Follow (embedded, or fetched when it is another server's), else null. */
async function followOf(ctx: InboxContext<void>, activity: Activity): Promise<Follow | null> {
  // An id of ours names a Follow sent from here: nothing to fetch (follows.ts finds it by id).
  if (activity.objectId && activity.objectId.origin === ctx.origin) {
    const object = await activity.getObject({ documentLoader: noFetch }).catch(() => null)
    return object instanceof Follow ? object : null
  }
  const object = await activity.getObject({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader }).catch(() => null)
  return object instanceof Follow ? object : null
}

const noFetch = (): Promise<never> => Promise.reject(new Error('not fetched'))

/** What each kind does once recorded. */
const ACTIONS: Partial<Record<keyof typeof KINDS, (ctx: InboxContext<void>, activity: Activity, parts: InboxParts) => Promise<void>>> = {
  Follow: (ctx, activity, { store, relations }) => onFollow(ctx, store, relations, activity as Follow),
  Undo: async (ctx, activity, { store, relations }) => {
    const follow = await followOf(ctx, activity)
    if (follow) await onUndoFollow(ctx, store, relations, activity as Undo, follow)
  },
  Accept: async (ctx, activity, { store, relations }) => onAccept(ctx, store, relations, activity as Accept, await followOf(ctx, activity)),
  Reject: async (ctx, activity, { store, relations }) => onReject(ctx, store, relations, activity as Reject, await followOf(ctx, activity)),
  Create: (ctx, activity, parts) => onCreate(ctx, parts, activity as Create),
  Delete: (ctx, activity, parts) => onDelete(ctx, parts, activity as Delete),
  Update: (ctx, activity, parts) => onUpdate(ctx, parts, activity as Update),
}

/** Records each verified activity of `KINDS` that reaches the inboxes `setters` listens on, then acts on it. */
export function listenInboxes(setters: InboxListenerSetters<void>, parts: InboxParts): void {
  const { store } = parts
  for (const [type, Kind] of Object.entries(KINDS) as [keyof typeof KINDS, typeof Activity][]) {
    setters.on(Kind, async (ctx: InboxContext<void>, activity: Activity) => {
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
      await ACTIONS[type]?.(ctx, activity, parts)
    })
  }
}
