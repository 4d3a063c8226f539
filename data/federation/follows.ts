/**
 * Follows across servers. A remote account's verified `Follow` of a local
 * user makes it a follower (auto-accepted: App.net follows need no
 * approval) and is answered with an `Accept`, unless a block stands between
 * them: then a `Reject`; its `Undo` ends the follow. A local user's follow
 * of a remote account sends a signed `Follow` and waits, pending, for the
 * `Accept` that makes it a follow; a `Reject` drops it; an unfollow sends
 * the `Undo`. Everything sent goes through Fedify's `sendActivity`, on the
 * durable queue.
 */
import { randomUUID } from 'node:crypto'
import { Accept, Block, Follow, Reject, Undo, type Context, type InboxContext, type Recipient } from '@fedify/fedify'
import type { UserRow } from '../model/user.js'
import type { RelationService } from '../relations/relations.js'
import type { Store } from '../store/port.js'
import { pair } from '../store/schema.js'
import { isModerated } from '../users/moderated-users.js'
import { isoNow } from '../time.js'
import { remoteUserByActor } from './remote-users.js'

/** Where a remote account's activities go: its inbox, its server's shared inbox when it has one. */
export const recipientOf = (user: UserRow): Recipient => ({
  id: new URL(user.remote!.actor_id),
  inboxId: new URL(user.remote!.inbox),
  endpoints: user.remote!.shared_inbox ? { sharedInbox: new URL(user.remote!.shared_inbox) } : null,
})

/** A fresh activity id under the actor of local user `userId`. */
const activityId = (ctx: Context<void>, userId: number, kind: string): URL => new URL(`${ctx.getActorUri(String(userId)).href}#${kind}/${randomUUID()}`)

/** The live local user whose actor `uri` is, or null. */
export async function localUserAt(ctx: Context<void>, store: Store, uri: URL | null): Promise<UserRow | null> {
  const parsed = ctx.parseUri(uri)
  if (parsed?.type !== 'actor' || !/^\d{1,15}$/.test(parsed.identifier)) return null
  const user = await store.read.users.get(Number(parsed.identifier))
  return user && !user.remote && !isModerated(user) ? user : null
}

/** A remote account's Follow of a local user: a follower, and an Accept (or, across a block, a Reject). */
export async function onFollow(ctx: InboxContext<void>, store: Store, relations: RelationService, follow: Follow): Promise<void> {
  if (!follow.id || !follow.actorId) return
  const target = await localUserAt(ctx, store, follow.objectId)
  if (!target) return
  const follower = await remoteUserByActor(ctx, store, follow.actorId)
  if (!follower) return
  const accepted = await relations.remoteFollowed(follower, target)
  const actor = ctx.getActorUri(String(target.id))
  const Answer = accepted ? Accept : Reject
  await ctx.sendActivity(
    { identifier: String(target.id) },
    recipientOf(follower),
    new Answer({
      id: activityId(ctx, target.id, accepted ? 'accepts' : 'rejects'),
      actor,
      object: new Follow({ id: follow.id, actor: follow.actorId, object: actor }),
    }),
  )
}

/** An Undo of a remote account's Follow: it follows no more. */
export async function onUndoFollow(ctx: InboxContext<void>, store: Store, relations: RelationService, undo: Undo, follow: Follow): Promise<void> {
  // Only the follower undoes its follow.
  if (!undo.actorId || follow.actorId?.href !== undo.actorId.href) return
  const target = await localUserAt(ctx, store, follow.objectId)
  const follower = await store.read.users.one('actor', undo.actorId.href)
  if (target && follower) await relations.remoteUnfollowed(follower, target)
}

/** The local user and remote account of an Accept or Reject of a Follow sent from here, or null when it answers none of ours. */
async function answered(
  ctx: InboxContext<void>,
  store: Store,
  answer: Accept | Reject,
  follow: Follow | null,
): Promise<{ me: UserRow; target: UserRow } | null> {
  if (!answer.actorId) return null
  const target = await store.read.users.one('actor', answer.actorId.href)
  if (!target || !target.remote) return null
  // The Follow named by id (Mastodon embeds it), else by who asked whom.
  const followId = follow?.id ?? answer.objectId
  const pending = followId ? await store.read.pending_follows.one('activity', followId.href) : null
  const me = pending ? await store.read.users.get(pending.user_id) : await localUserAt(ctx, store, follow?.actorId ?? null)
  if (!me || me.remote || (pending && pending.target_id !== target.id)) return null
  if (follow?.objectId && follow.objectId.href !== target.remote.actor_id) return null
  return { me, target }
}

/** An Accept of a Follow sent from here: the follow is made. */
export async function onAccept(ctx: InboxContext<void>, store: Store, relations: RelationService, accept: Accept, follow: Follow | null): Promise<void> {
  const found = await answered(ctx, store, accept, follow)
  if (found) await relations.acceptRemoteFollow(found.me, found.target)
}

/** A Reject of a Follow sent from here (pending or accepted before): no follow. */
export async function onReject(ctx: InboxContext<void>, store: Store, relations: RelationService, reject: Reject, follow: Follow | null): Promise<void> {
  const found = await answered(ctx, store, reject, follow)
  if (found) await relations.rejectRemoteFollow(found.me, found.target)
}

/** Sends `me`'s Follow of remote account `target`, kept pending until its server answers (again, when it is pending already). */
export async function requestFollow(ctx: Context<void>, store: Store, me: UserRow, target: UserRow): Promise<void> {
  const fresh = activityId(ctx, me.id, 'follows').href
  const pending = await store.transact(async (tx) => {
    const found = await tx.pending_follows.one('pair', pair(me.id, target.id))
    return found ?? tx.pending_follows.insert({ user_id: me.id, target_id: target.id, activity_id: fresh, created_at: isoNow() })
  })
  const actor = ctx.getActorUri(String(me.id))
  await ctx.sendActivity(
    { identifier: String(me.id) },
    recipientOf(target),
    new Follow({ id: new URL(pending.activity_id), actor, object: new URL(target.remote!.actor_id) }),
  )
}

/** Sends a Reject of remote account `follower`'s follow of `me` (a block ended it), its Follow named by who followed whom. */
export async function refuseFollower(ctx: Context<void>, me: UserRow, follower: UserRow): Promise<void> {
  const actor = ctx.getActorUri(String(me.id))
  const follow = new Follow({ actor: new URL(follower.remote!.actor_id), object: actor })
  await ctx.sendActivity({ identifier: String(me.id) }, recipientOf(follower), new Reject({ id: activityId(ctx, me.id, 'rejects'), actor, object: follow }))
}

/** Sends the Undo of `me`'s Follow of remote account `target` (its id when it is still pending). */
export async function cancelFollow(ctx: Context<void>, store: Store, me: UserRow, target: UserRow): Promise<void> {
  const pending = await store.read.pending_follows.one('pair', pair(me.id, target.id))
  const actor = ctx.getActorUri(String(me.id))
  const follow = new Follow({ id: pending ? new URL(pending.activity_id) : null, actor, object: new URL(target.remote!.actor_id) })
  await ctx.sendActivity({ identifier: String(me.id) }, recipientOf(target), new Undo({ id: activityId(ctx, me.id, 'undo'), actor, object: follow }))
}

/**
 * Sends `me`'s Block of remote account `target` (or, `undone`, its Undo),
 * as Mastodon does: its server then ends the follows and may hide `me`
 * from it. `seq` (the block's event) names the Block; the Undo embeds a
 * Block by who blocked whom, which is how Mastodon finds the block to lift.
 */
export async function sendBlock(ctx: Context<void>, me: UserRow, target: UserRow, seq: number, undone: boolean): Promise<void> {
  const actor = ctx.getActorUri(String(me.id))
  const object = new URL(target.remote!.actor_id)
  const activity = undone
    ? new Undo({ id: new URL(`${actor.href}#unblocks/${seq}`), actor, object: new Block({ actor, object }) })
    : new Block({ id: new URL(`${actor.href}#blocks/${seq}`), actor, object })
  await ctx.sendActivity({ identifier: String(me.id) }, recipientOf(target), activity)
}

/** A remote account's Block of a local user: the follows between them end both ways, as its server ends them there. */
export async function onBlock(ctx: InboxContext<void>, store: Store, relations: RelationService, block: Block): Promise<void> {
  if (!block.actorId) return
  const blocker = await store.read.users.one('actor', block.actorId.href)
  const blocked = await localUserAt(ctx, store, block.objectId)
  if (!blocker?.remote || !blocked) return
  await relations.remoteUnfollowed(blocker, blocked)
  await relations.rejectRemoteFollow(blocked, blocker)
}
