/**
 * Stars and reposts across servers. A remote account's verified `Like` of a
 * post kept here is its star, its `Announce` its repost (a Note this
 * instance does not have yet is fetched when a local user follows the
 * announcer), each listed with the post's stargazers and reposters; their
 * `Undo`s take them back. A local user's star of a remote post sends a
 * `Like` to its author; a repost sends an `Announce` to the reposter's
 * remote followers and to a remote original's author; unstarring and
 * deleting the repost send the `Undo`. The ids of what is sent derive from
 * the star's row and the repost's post, so a repeat after a crash is the
 * same activity.
 */
import { Announce, Like, Note, PUBLIC_COLLECTION, Undo, type Context, type InboxContext } from '@fedify/fedify'
import { Temporal } from '@js-temporal/polyfill'
import type { PostRow } from '../model/post.js'
import type { UserRow } from '../model/user.js'
import { isoNow } from '../time.js'
import { isModerated } from '../users/moderated-users.js'
import { recipientOf } from './follows.js'
import { noteUri } from './notes.js'
import { isPublic, keepNote, postAt, type RemotePostParts } from './remote-posts.js'
import { remoteUserByActor } from './remote-users.js'

export interface InteractionParts extends RemotePostParts {
  stars: { addRemote(user: UserRow, post: PostRow): Promise<boolean>; removeRemote(user: UserRow, post: PostRow): Promise<void> }
  reposts: { addRemote(author: UserRow, original: PostRow, remote: Omit<NonNullable<PostRow['remote']>, 'html'>, createdAt: string): Promise<PostRow | null> }
}

const SHARED = { preferSharedInbox: true } as const

/** The live remote account of a verified activity's actor, fetched and kept the first time. */
async function actorAccount(ctx: InboxContext<void>, parts: RemotePostParts, actorId: URL | null): Promise<UserRow | null> {
  if (!actorId) return null
  const user = await remoteUserByActor(ctx, parts.store, actorId, parts.blocks)
  return user?.remote && !isModerated(user) ? user : null
}

/** A verified Like: the actor's star of the post it names, when that post is kept here. */
export async function onLike(ctx: InboxContext<void>, parts: InteractionParts, like: Like): Promise<void> {
  const post = await postAt(ctx, parts.store, like.objectId)
  if (!post) return
  const user = await actorAccount(ctx, parts, like.actorId)
  if (user) await parts.stars.addRemote(user, post)
}

/**
 * A verified public Announce: the actor's repost of the post it names, when
 * that is a post of here, or a post a local user follows the announcer to
 * see (fetched when it is not kept yet). One not addressed to the public is
 * not taken: a repost here is public.
 */
export async function onAnnounce(ctx: InboxContext<void>, parts: InteractionParts, announce: Announce): Promise<void> {
  if (!announce.id || !announce.objectId || ![...announce.toIds, ...announce.ccIds].some((id) => id.href === PUBLIC_COLLECTION.href)) return
  // An Announce lives on its actor's server, as a Note on its author's.
  if (announce.id.origin !== announce.actorId?.origin) return
  const user = await actorAccount(ctx, parts, announce.actorId)
  if (!user) return
  const followed = (await parts.store.read.follows.count('target', user.id)) > 0
  let original = await postAt(ctx, parts.store, announce.objectId)
  if (!original && followed) original = await fetchNote(ctx, parts, announce.objectId)
  if (!original || (original.remote && !followed)) return
  await parts.reposts.addRemote(
    user,
    original,
    { object_id: announce.id.href, url: announce.id.href, server: new URL(user.remote!.actor_id).host },
    announce.published ? new Date(announce.published.epochMilliseconds).toISOString() : isoNow(),
  )
}

/** The Note at `id` on its author's server, kept as a post; null when it cannot be had or is not public. */
async function fetchNote(ctx: InboxContext<void>, parts: RemotePostParts, id: URL): Promise<PostRow | null> {
  if (parts.blocks.suspends(id)) return null
  const note = await ctx.lookupObject(id).catch(() => null)
  if (!(note instanceof Note) || note.id?.href !== id.href || !note.attributionId || !isPublic(note)) return null
  const author = await remoteUserByActor(ctx, parts.store, note.attributionId, parts.blocks)
  // Fetched because a local user follows its announcer: wanted as a reply's parent is.
  return author && !isModerated(author) ? keepNote(ctx, parts, note, author, 1) : null
}

/**
 * A verified Undo of a Like or an Announce (`object`, embedded as Mastodon,
 * Misskey and GoToSocial send it, or an Announce named by its id): the star
 * or the repost is taken back. Only its actor undoes it. True when the
 * Undo was about one of them.
 */
export async function onUndoInteraction(ctx: InboxContext<void>, parts: InteractionParts, undo: Undo, object: unknown): Promise<boolean> {
  if (!undo.actorId) return false
  const user = await parts.store.read.users.one('actor', undo.actorId.href)
  if (object instanceof Like) {
    if (object.actorId?.href !== undo.actorId.href) return true
    const post = await postAt(ctx, parts.store, object.objectId)
    if (post && user?.remote) await parts.stars.removeRemote(user, post)
    return true
  }
  const announceId = object instanceof Announce ? object.id : object === null ? undo.objectId : null
  const repost = announceId ? await parts.store.read.posts.one('object', announceId.href) : null
  if (!repost || repost.repost_of === undefined) return object instanceof Announce
  if (user && repost.user_id === user.id) await parts.posts.deleteRemote(repost)
  return true
}

/** The id of the Like that star `starId` of local user `userId` is. */
const likeId = (ctx: Context<void>, userId: number, starId: number): URL => new URL(`${ctx.getActorUri(String(userId)).href}#likes/${starId}`)

/** The Like of remote post `post` by local user `me` (star `starId`). */
const likeOf = (ctx: Context<void>, me: UserRow, post: PostRow, starId: number): Like =>
  new Like({ id: likeId(ctx, me.id, starId), actor: ctx.getActorUri(String(me.id)), object: new URL(post.remote!.object_id) })

/** Sends local user `me`'s Like of remote post `post` (or, `undone`, its Undo) to the post's author. */
export async function sendLike(ctx: Context<void>, me: UserRow, post: PostRow, author: UserRow, starId: number, undone: boolean): Promise<void> {
  const like = likeOf(ctx, me, post, starId)
  const activity = undone ? new Undo({ id: new URL(`${like.id!.href}/undo`), actor: like.actorId, object: like }) : like
  await ctx.sendActivity({ identifier: String(me.id) }, recipientOf(author), activity)
}

/** The Announce that local repost `repost` of `original` is: its object the original's Note, here or on its server. */
export function announceOf(ctx: Context<void>, repost: PostRow, original: PostRow, originalAuthor: UserRow): Announce {
  const actor = ctx.getActorUri(String(repost.user_id))
  const object = original.remote ? new URL(original.remote.object_id) : noteUri(ctx, original.id)
  const author = originalAuthor.remote ? new URL(originalAuthor.remote.actor_id) : ctx.getActorUri(String(originalAuthor.id))
  return new Announce({
    id: new URL(`${noteUri(ctx, repost.id).href}/activity`),
    actor,
    object,
    published: Temporal.Instant.from(repost.created_at),
    to: PUBLIC_COLLECTION,
    ccs: [ctx.getFollowersUri(String(repost.user_id)), author],
  })
}

/** Sends local repost `repost`'s Announce (or, `undone`, its Undo) to `audience`. */
export async function sendAnnounce(
  ctx: Context<void>,
  repost: PostRow,
  original: PostRow,
  originalAuthor: UserRow,
  audience: UserRow[],
  undone: boolean,
): Promise<void> {
  const announce = announceOf(ctx, repost, original, originalAuthor)
  const activity = undone
    ? new Undo({ id: new URL(`${announce.id!.href}#undo`), actor: announce.actorId, object: announce, to: PUBLIC_COLLECTION, ccs: announce.ccIds })
    : announce
  await ctx.sendActivity({ identifier: String(repost.user_id) }, audience.map(recipientOf), activity, SHARED)
}
