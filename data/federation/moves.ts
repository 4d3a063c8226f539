/**
 * A remote account that moves (`Move`, as Mastodon sends when an account
 * moves to another server): its local followers follow the new account
 * instead. Taken only when the move is the account's own (actor and object
 * alike) and the new account names the old one among its aliases
 * (`alsoKnownAs`), as Mastodon checks, so nobody can steal followers by
 * claiming a move. Each follower's follow of the old account ends (its
 * server gets the Undo) and a Follow of the new one is sent, pending until
 * accepted as any follow of a remote account.
 */
import { isActor, type InboxContext, type Move } from '@fedify/fedify'
import { blockedEitherWay } from '../relations/relation-reads.js'
import type { RelationService } from '../relations/relations.js'
import type { Store } from '../store/port.js'
import { isModerated } from '../users/moderated-users.js'
import type { ServerBlocks } from './domain-blocks.js'
import { cancelFollow, requestFollow } from './follows.js'
import { keepRemoteUser, LOOKUP_TIMEOUT_MS, withinTime } from './remote-users.js'

export interface MoveParts {
  store: Store
  relations: RelationService
  blocks: ServerBlocks
}

/** Followers read per page. */
const PAGE = 500

export async function onMove(ctx: InboxContext<void>, { store, relations, blocks }: MoveParts, move: Move): Promise<void> {
  if (!move.actorId || move.objectId?.href !== move.actorId.href || !move.targetId || blocks.suspends(move.targetId)) return
  const old = await store.read.users.one('actor', move.actorId.href)
  if (!old?.remote || isModerated(old)) return
  const actor = await withinTime(ctx.lookupObject(move.targetId), LOOKUP_TIMEOUT_MS).catch(() => null)
  if (!isActor(actor) || actor.id?.href !== move.targetId.href || !actor.aliasIds.some((alias) => alias.href === old.remote!.actor_id)) return
  const moved = await keepRemoteUser(ctx, store, actor)
  if (!moved || isModerated(moved)) return
  const r = store.read
  for (let before: number | undefined; ;) {
    const ids = await r.follows.ids('target', old.id, { limit: PAGE, ...(before === undefined ? {} : { before }) })
    if (ids.length === 0) return
    before = ids[ids.length - 1]
    const followers = await r.users.getMany((await r.follows.getMany(ids)).map((f) => f.user_id))
    for (const me of followers.filter((u) => !u.remote && !isModerated(u))) {
      await relations.rejectRemoteFollow(me, old)
      await cancelFollow(ctx, store, me, old)
      if (!(await blockedEitherWay(r, me.id, moved.id))) await requestFollow(ctx, store, me, moved)
    }
    if (ids.length < PAGE) return
  }
}
