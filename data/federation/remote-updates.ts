/**
 * Updates in. A verified `Update` of the actor itself brings its user row up
 * to date. An `Update` of a `Note` (Mastodon sends one when its user edits
 * a post) edits the post kept of it, when the activity's actor is the
 * Note's author and the post's, the Note lives on the author's server, and
 * it is addressed as before (public, or followers-only): its text, html and
 * entities derived again as a `Create` derives them. An edit changing who
 * the Note is addressed to leaves the post as it was (nothing is shown
 * wider than it was sent, nor kept from those it was); the
 * domain passes over an edit older than the one kept, and one of a deleted
 * post.
 */
import { isActor, Note, type InboxContext, type Update } from '@fedify/fedify'
import { isModerated } from '../users/moderated-users.js'
import { audienceOf, hashtagNames, mentionedUsers, noteHtml, noteUpdated, textAndEntities, type RemotePostParts } from './remote-posts.js'
import { keepRemoteUser } from './remote-users.js'

/** A verified Update: of the actor itself, its user row; of its own Note, the post kept of it. */
export async function onUpdate(ctx: InboxContext<void>, parts: RemotePostParts, update: Update): Promise<void> {
  if (!update.actorId) return
  const object = await update.getObject({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader }).catch(() => null)
  if (object instanceof Note) return onNoteUpdate(ctx, parts, update.actorId, object)
  if (!isActor(object) || object.id?.href !== update.actorId.href) return
  if (await parts.store.read.users.one('actor', update.actorId.href)) await keepRemoteUser(ctx, parts.store, object)
}

/** `note` as `actor` edited it: the post kept of it edited, when both are that actor's. */
async function onNoteUpdate(ctx: InboxContext<void>, parts: RemotePostParts, actor: URL, note: Note): Promise<void> {
  const { store, posts } = parts
  // Only the author edits its Note, and only a Note on its own server.
  if (!note.id || note.attributionId?.href !== actor.href || note.id.origin !== actor.origin) return
  const author = await store.read.users.one('actor', actor.href)
  if (!author?.remote || isModerated(author)) return
  const post = await store.read.posts.one('object', note.id.href)
  if (!post || post.user_id !== author.id || post.is_deleted) return
  // An edit that changes who the Note is addressed to (wider or narrower) leaves the post as it was shown.
  if (audienceOf(note, author) !== (post.remote?.followers_only ? 'followers' : 'public')) return
  const html = noteHtml(note)
  const { text, entities } = textAndEntities(html, await mentionedUsers(ctx, store, note), await hashtagNames(note))
  if (text.trim() === '') return
  const updated = noteUpdated(note)
  await posts.editRemote(post, { text, entities, html, ...(updated ? { updated } : {}) })
}
