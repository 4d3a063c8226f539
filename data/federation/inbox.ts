/**
 * What the inboxes do with an activity whose signature verified (Fedify
 * refuses the others before any listener runs): record it in the event log
 * as `federation.activity_received`, then act on it: follows (follows.ts),
 * posts and accounts (remote-posts.ts; their edits, remote-updates.ts),
 * stars and reposts (interactions.ts). The listeners run from the durable
 * queue, after the sender had its 202; Fedify skips an activity id it has
 * processed already. Anything a remote server sent that does not fit is
 * left alone, never an error.
 */
import {
  Accept,
  Activity,
  Announce,
  Block,
  Create,
  Delete,
  Follow,
  Like,
  Move,
  Reject,
  Undo,
  Update,
  type InboxContext,
  type InboxListenerSetters,
} from '@fedify/fedify'
import { onDirectCreate, type DirectMessageParts } from './direct-messages.js'
import type { DomainBlocks } from './domain-blocks.js'
import { onAccept, onBlock, onFollow, onReject, onUndoFollow } from './follows.js'
import { onMove } from './moves.js'
import { onAnnounce, onLike, onUndoInteraction, type InteractionParts } from './interactions.js'
import { onCreate, onDelete } from './remote-posts.js'
import { onUpdate } from './remote-updates.js'

/** The activities the inboxes take, by the name events give them. */
const KINDS = { Follow, Undo, Create, Delete, Update, Accept, Reject, Like, Announce, Block, Move } as const

export interface InboxParts extends InteractionParts, DirectMessageParts {
  blocks: DomainBlocks
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
  Undo: async (ctx, activity, parts) => {
    // What Mastodon, Misskey and GoToSocial embed: a Like, an Announce, a Follow. Only a Follow named by id is fetched.
    const embedded = await activity.getObject({ documentLoader: noFetch, contextLoader: ctx.contextLoader }).catch(() => null)
    if (await onUndoInteraction(ctx, parts, activity as Undo, embedded)) return
    const follow = embedded instanceof Follow ? embedded : await followOf(ctx, activity)
    if (follow) await onUndoFollow(ctx, parts.store, parts.relations, activity as Undo, follow)
  },
  Accept: async (ctx, activity, { store, relations }) => onAccept(ctx, store, relations, activity as Accept, await followOf(ctx, activity)),
  Reject: async (ctx, activity, { store, relations }) => onReject(ctx, store, relations, activity as Reject, await followOf(ctx, activity)),
  Create: async (ctx, activity, parts) => {
    if (!(await onDirectCreate(ctx, parts, activity as Create))) await onCreate(ctx, parts, activity as Create)
  },
  Delete: (ctx, activity, parts) => onDelete(ctx, parts, activity as Delete),
  Update: (ctx, activity, parts) => onUpdate(ctx, parts, activity as Update),
  Like: (ctx, activity, parts) => onLike(ctx, parts, activity as Like),
  Announce: (ctx, activity, parts) => onAnnounce(ctx, parts, activity as Announce),
  Block: (ctx, activity, { store, relations }) => onBlock(ctx, store, relations, activity as Block),
  Move: (ctx, activity, parts) => onMove(ctx, parts, activity as Move),
}

/** Records each verified activity of `KINDS` that reaches the inboxes `setters` listens on, then acts on it. */
export function listenInboxes(setters: InboxListenerSetters<void>, parts: InboxParts): void {
  const { store } = parts
  for (const [type, Kind] of Object.entries(KINDS) as [keyof typeof KINDS, typeof Activity][]) {
    setters.on(Kind, async (ctx: InboxContext<void>, activity: Activity) => {
      // Fedify has checked that the signer owns the actor, so an activity without one never gets here; the guard keeps types honest.
      if (!activity.actorId) return
      // Blocked since it was queued: refused as the inbox refuses it now.
      if (parts.blocks.suspends(activity.actorId)) return
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
