/**
 * Local posts and profiles out: a post's `Create` of its Note, a deleted
 * post's `Delete` with its Tombstone, a profile edit's `Update` of the
 * actor, a deleted account's `Delete` of its actor, each signed by the author's keys and handed to Fedify's
 * `sendActivity`, which puts one delivery per shared inbox (an inbox when
 * the server has none) on the durable queue and retries failures with
 * backoff (build-federation.ts sets how long). The outbox (outbox.ts) calls
 * these for each event of the log; a crash may make it call one twice, so
 * every activity's id derives from what it is about, never from the call.
 */
import { Delete, PUBLIC_COLLECTION, Update, type Context } from '@fedify/fedify'
import type { PostRow } from '../../model/post.js'
import type { UserRow } from '../../model/user.js'
import type { Store } from '../../store/port.js'
import { actorOf } from '../actors.js'
import { recipientOf } from '../follows.js'
import { createOf, noteLinksOf, noteOf, tombstoneOf, type AnnotationAddresses } from '../notes.js'
import type { FederationSite } from '../site.js'

const SHARED = { preferSharedInbox: true } as const

/** Sends the Create of `post`'s Note to `audience`. */
export async function sendPost(
  ctx: Context<void>,
  site: FederationSite,
  store: Store,
  annotations: AnnotationAddresses,
  post: PostRow,
  author: UserRow,
  audience: UserRow[],
): Promise<void> {
  const note = noteOf(ctx, site, post, author, await noteLinksOf(store, post, annotations, site.origin))
  await ctx.sendActivity({ identifier: String(author.id) }, audience.map(recipientOf), createOf(note, post), SHARED)
}

/** Sends the Delete of deleted `post`'s Note to `audience`. */
export async function sendPostDeleted(ctx: Context<void>, post: PostRow, author: UserRow, audience: UserRow[]): Promise<void> {
  const tombstone = tombstoneOf(ctx, post)
  const activity = new Delete({
    id: new URL(`${tombstone.id!.href}#delete`),
    actor: ctx.getActorUri(String(author.id)),
    object: tombstone,
    to: PUBLIC_COLLECTION,
  })
  await ctx.sendActivity({ identifier: String(author.id) }, audience.map(recipientOf), activity, SHARED)
}

/**
 * Sends the Update of `user`'s actor to `audience` (its remote followers).
 * Its id names the edit's event (`seq`): sent again after a crash, it is the
 * same activity, which the receiving servers take once.
 */
export async function sendProfile(ctx: Context<void>, site: FederationSite, user: UserRow, audience: UserRow[], seq: number): Promise<void> {
  const actor = await actorOf(ctx, site.origin, user)
  const activity = new Update({ id: new URL(`${actor.id!.href}#updates/${seq}`), actor: actor.id, object: actor, to: PUBLIC_COLLECTION })
  await ctx.sendActivity({ identifier: String(user.id) }, audience.map(recipientOf), activity, SHARED)
}

/**
 * Sends the Delete of deleted account `user`'s actor to `audience` (one
 * account per known server), signed with the account's keys, which svc
 * keeps for this (its actor answers a 410 Tombstone, as Mastodon's
 * servers expect of a deleted account).
 */
export async function sendAccountDeleted(ctx: Context<void>, user: UserRow, audience: UserRow[]): Promise<void> {
  const actor = ctx.getActorUri(String(user.id))
  const activity = new Delete({ id: new URL(`${actor.href}#delete`), actor, object: actor, to: PUBLIC_COLLECTION })
  await ctx.sendActivity({ identifier: String(user.id) }, audience.map(recipientOf), activity, SHARED)
}
