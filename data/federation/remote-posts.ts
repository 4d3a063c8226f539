/**
 * Remote posts in. A verified `Create` of a public or unlisted `Note` by
 * its own author becomes a post when this instance has a reason to keep it:
 * a local user follows the author, or it mentions a local user, or it
 * replies to a post kept here. Its html is sanitised; its text is the
 * html's, with mention, hashtag and link entities where the html (or, for
 * svc's own html, the Note's tags) says they are. A followers-only Note
 * becomes a post shown only to the author's local followers and the local
 * accounts it mentions (`followers_only`, post-traits.ts), kept only when
 * there are such; a direct one is a private message (direct-messages.ts),
 * so nothing from another server is ever shown wider than it was sent.
 * `Delete` of a Note deletes its post; `Delete` of
 * an actor its posts and follows (an `Update` is remote-updates.ts's).
 */
import { Article, Hashtag, Mention, Note, PUBLIC_COLLECTION, type Context, type Create, type Delete, type InboxContext } from '@fedify/fedify'
import type { Entities, HashtagEntity, LinkEntity, MentionEntity } from '../model/entities.js'
import type { PostRow } from '../model/post.js'
import type { UserRow } from '../model/user.js'
import type { PostService } from '../posts/posts.js'
import type { RelationService } from '../relations/relations.js'
import type { Store } from '../store/port.js'
import { toCodePoint } from '../text/code-points.js'
import { escapeText } from '../text/html.js'
import { remoteHtmlText, sanitizeRemoteHtml } from '../text/remote-html.js'
import { isoNow } from '../time.js'
import { isModerated } from '../users/moderated-users.js'
import { localUserAt } from './follows.js'
import type { ServerBlocks } from './domain-blocks.js'
import { remoteUserByActor } from './remote-users.js'
import type { RemoteMedia } from './media/remote-media.js'

/** Longest text kept of a remote post. */
const REMOTE_TEXT_MAX = 5000

/** How many missing parents of a reply are fetched, one after another. */
const PARENT_DEPTH = 3

export interface RemotePostParts {
  store: Store
  posts: PostService
  relations: RelationService
  /** Servers nothing is fetched from. */
  blocks: ServerBlocks
  /** Keeps the posts' media. */
  media: RemoteMedia
}

/** Is `note` addressed to the public (public or unlisted)? */
export const isPublic = (note: Note): boolean => [...note.toIds, ...note.ccIds].some((id) => id.href === PUBLIC_COLLECTION.href)

/** Who `note` by `author` is addressed to: the public (or unlisted), the author's followers (and those it mentions), or neither (null). */
export function audienceOf(note: Note, author: UserRow): 'public' | 'followers' | null {
  if (isPublic(note)) return 'public'
  const followers = author.remote?.followers
  return followers !== undefined && [...note.toIds, ...note.ccIds].some((id) => id.href === followers) ? 'followers' : null
}

/** The local post a Note id of ours names, or the post kept of a remote Note; null when none. */
export async function postAt(ctx: Context<void>, store: Store, id: URL | null): Promise<PostRow | null> {
  if (!id) return null
  const parsed = ctx.parseUri(id)
  if (parsed?.type === 'object' && parsed.class === Note && /^\d{1,15}$/.test(String(parsed.values.id))) {
    const post = await store.read.posts.get(Number(parsed.values.id))
    return post && !post.remote ? post : null
  }
  return store.read.posts.one('object', id.href)
}

/** A user a Note's tags mention, with the names and addresses it may be written as. */
interface Mentioned {
  user: UserRow
  names: string[]
  urls: string[]
}

/** The users `note`'s Mention tags name that this instance knows (local ones, remote ones kept here). */
export async function mentionedUsers(ctx: Context<void>, store: Store, note: Note): Promise<Mentioned[]> {
  const found: Mentioned[] = []
  for await (const tag of note.getTags({ documentLoader: noFetch })) {
    if (!(tag instanceof Mention) || !tag.href) continue
    const local = await localUserAt(ctx, store, tag.href)
    const user = local ?? (await store.read.users.one('actor', tag.href.href))
    if (!user || isModerated(user) || found.some((m) => m.user.id === user.id)) continue
    const name = tag.name?.toString() ?? ''
    const short = `@${user.username.split('@')[0]}`
    found.push({
      user,
      names: [name, `@${user.username}`, short].filter(Boolean).map((n) => n.toLowerCase()),
      urls: [tag.href.href, ...(user.remote ? [user.remote.url, user.remote.actor_id] : [])],
    })
    if (found.length >= 50) break
  }
  return found
}

const noFetch = (): Promise<never> => Promise.reject(new Error('not fetched'))

/** The hashtag names of `note`'s Hashtag tags. */
export async function hashtagNames(note: Note): Promise<string[]> {
  const names: string[] = []
  for await (const tag of note.getTags({ documentLoader: noFetch })) {
    if (tag instanceof Hashtag && tag.name) names.push(tag.name.toString().replace(/^#/, ''))
  }
  return names
}

/** The text and entities of `html` (sanitised), with `mentioned` and hashtags placed where the html or the text shows them. */
export function textAndEntities(html: string, mentioned: Mentioned[], hashtags: string[]): { text: string; entities: Entities } {
  const { text: full, links } = remoteHtmlText(html)
  const text = [...full].slice(0, REMOTE_TEXT_MAX).join('')
  const mentions: MentionEntity[] = []
  const tags: HashtagEntity[] = []
  const others: LinkEntity[] = []
  const taken: { start: number; end: number }[] = []
  const free = (start: number, end: number) => end <= text.length && taken.every((r) => end <= r.start || start >= r.end)
  const at = (start: number, end: number) => ({ pos: toCodePoint(text, start), len: toCodePoint(text, end) - toCodePoint(text, start) })
  const placed = new Set<number>()
  for (const link of links) {
    if (!free(link.start, link.end)) continue
    const shown = link.text.trim().toLowerCase()
    const who = mentioned.find((m) => m.urls.includes(link.url) || (shown.startsWith('@') && m.names.includes(shown)))
    if (who) {
      mentions.push({ ...at(link.start, link.end), name: who.user.username, id: String(who.user.id) })
      placed.add(who.user.id)
    } else if (shown.startsWith('#') && (link.classes.includes('hashtag') || hashtags.some((h) => h.toLowerCase() === shown.slice(1)))) {
      tags.push({ ...at(link.start, link.end), name: link.text.trim().slice(1) })
    } else if (/^https?:\/\//i.test(link.url)) {
      others.push({ ...at(link.start, link.end), text: link.text, url: link.url })
    } else continue
    taken.push({ start: link.start, end: link.end })
  }
  // Mentions and hashtags written as text (svc's own html shows them as spans): the first place each is written.
  const lower = text.toLowerCase()
  for (const m of mentioned) {
    if (placed.has(m.user.id)) continue
    for (const name of m.names) {
      const start = findWord(lower, name)
      if (start >= 0 && free(start, start + name.length)) {
        mentions.push({ ...at(start, start + name.length), name: m.user.username, id: String(m.user.id) })
        taken.push({ start, end: start + name.length })
        break
      }
    }
  }
  for (const name of hashtags) {
    const word = `#${name.toLowerCase()}`
    const start = findWord(lower, word)
    if (start >= 0 && free(start, start + word.length)) {
      tags.push({ ...at(start, start + word.length), name: text.slice(start + 1, start + word.length) })
      taken.push({ start, end: start + word.length })
    }
  }
  const byPos = <E extends { pos: number }>(list: E[]) => list.sort((a, b) => a.pos - b.pos)
  return { text, entities: { mentions: byPos(mentions), hashtags: byPos(tags), links: byPos(others) } }
}

/** Where `word` stands in `text` as a whole word (nothing word-like on either side), or -1. */
function findWord(text: string, word: string): number {
  let from = 0
  for (;;) {
    const start = text.indexOf(word, from)
    if (start < 0) return -1
    const before = text[start - 1] ?? ' '
    const after = text[start + word.length] ?? ' '
    if (!/[\w@]/.test(before) && !/[\w@]/.test(after)) return start
    from = start + 1
  }
}

/** The most characters of a content warning kept. */
const WARNING_MAX = 200

/**
 * `note`'s html, sanitised; a content warning (`summary`) leads it as a
 * paragraph of its own, `⚠ ` and the warning, so that no App.net client
 * shows the text without it (they know no warnings).
 */
export function noteHtml(note: Note): string {
  const content = sanitizeRemoteHtml(note.content?.toString() ?? '')
  const warning = remoteHtmlText(sanitizeRemoteHtml(note.summary?.toString() ?? ''))
    .text.trim()
    .slice(0, WARNING_MAX)
  return warning === '' ? content : `<p>⚠ ${escapeText(warning)}</p>${content}`
}

/** When `note` says it was last edited (ISO 8601), if it says. */
export const noteUpdated = (note: Note): string | undefined => (note.updated ? new Date(note.updated.epochMilliseconds).toISOString() : undefined)

/** Does a local user follow `author`? */
const followedHere = async (store: Store, author: UserRow): Promise<boolean> => (await store.read.follows.count('target', author.id)) > 0

/**
 * Keeps `note` as a post when it is public or followers-only, its
 * author's, and of interest here (followed, mentioning a local user,
 * replying to a post kept here; a followers-only one only when followed or
 * mentioning a local user); `depth` bounds the parents fetched. Answers the
 * post, or null.
 */
export async function keepNote(ctx: Context<void>, parts: RemotePostParts, note: Note, author: UserRow, depth = 0): Promise<PostRow | null> {
  const { store, posts } = parts
  const audience = audienceOf(note, author)
  if (!note.id || note.attributionId?.href !== author.remote?.actor_id || audience === null) return null
  // A Note lives on its author's server: one claiming an id elsewhere is not taken.
  if (note.id.origin !== new URL(author.remote!.actor_id).origin) return null
  const known = await store.read.posts.one('object', note.id.href)
  if (known) return known
  const mentioned = await mentionedUsers(ctx, store, note)
  let parent = await postAt(ctx, store, note.replyTargetId)
  if (!parent && note.replyTargetId && depth < PARENT_DEPTH) parent = await fetchParent(ctx, parts, note.replyTargetId, depth + 1)
  const replyHere = parent !== null && !parent.remote
  const mentionsHere = mentioned.some((m) => !m.user.remote)
  // A followers-only Note is kept for those it is shown to here: the author's followers and the accounts it mentions.
  const wanted =
    audience === 'followers'
      ? mentionsHere || (await followedHere(store, author))
      : depth > 0 || replyHere || mentionsHere || (await followedHere(store, author))
  if (!wanted) return null
  if (parent?.is_deleted) parent = null
  const html = noteHtml(note)
  const { text, entities } = textAndEntities(html, mentioned, await hashtagNames(note))
  if (text.trim() === '') return null
  const url = note.url instanceof URL ? note.url.href : note.id.href
  const updated = noteUpdated(note)
  return posts.createRemote(author, {
    text,
    entities,
    annotations: await parts.media.annotationsFor(note, author, audience),
    remote: {
      object_id: note.id.href,
      url: /^https?:/.test(url) ? url : note.id.href,
      html,
      server: new URL(author.remote!.actor_id).host,
      // Kept so that an edit older than the Note as it came is passed over.
      ...(updated ? { updated } : {}),
      ...(audience === 'followers' ? { followers_only: true as const } : {}),
    },
    parent,
    created_at: note.published ? new Date(note.published.epochMilliseconds).toISOString() : isoNow(),
  })
}

/** Fetches the Note a reply answers, keeps it and its author, and answers its post; null when it cannot be had. */
async function fetchParent(ctx: Context<void>, parts: RemotePostParts, id: URL, depth: number): Promise<PostRow | null> {
  if (parts.blocks.suspends(id)) return null
  const object = await ctx.lookupObject(id).catch(() => null)
  if (!(object instanceof Note || object instanceof Article) || !object.attributionId || object.id?.href !== id.href) return null
  const author = await remoteUserByActor(ctx, parts.store, object.attributionId, parts.blocks)
  return author ? keepNote(ctx, parts, object as Note, author, depth) : null
}

/** A verified Create: its Note, when by the activity's actor, kept as a post. */
export async function onCreate(ctx: InboxContext<void>, parts: RemotePostParts, create: Create): Promise<void> {
  if (!create.actorId) return
  const object = await create.getObject({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader }).catch(() => null)
  if (!(object instanceof Note)) return
  // Only the author publishes its Note: a Create by another actor is not trusted with it.
  if (object.attributionId?.href !== create.actorId.href) return
  const author = await remoteUserByActor(ctx, parts.store, create.actorId, parts.blocks)
  if (author && !isModerated(author)) await keepNote(ctx, parts, object, author)
}

/** A verified Delete: of a Note, its post; of the actor itself, its posts and follows, and the account. */
export async function onDelete(ctx: InboxContext<void>, parts: RemotePostParts, del: Delete): Promise<void> {
  const { store, posts, relations } = parts
  if (!del.actorId || !del.objectId) return
  const author = await store.read.users.one('actor', del.actorId.href)
  if (!author?.remote) return
  if (del.objectId.href === author.remote.actor_id) {
    for (const id of await store.read.posts.ids('user_live', author.id, { limit: Number.MAX_SAFE_INTEGER })) {
      const post = await store.read.posts.get(id)
      if (post) {
        await posts.deleteRemote(post)
        await parts.media.forget(post)
      }
    }
    for (const id of await store.read.follows.ids('user', author.id, { limit: Number.MAX_SAFE_INTEGER })) {
      const follow = await store.read.follows.get(id)
      const target = follow && (await store.read.users.get(follow.target_id))
      if (target) await relations.remoteUnfollowed(author, target)
    }
    await store.transact(async (tx) => {
      const current = await tx.users.get(author.id)
      if (current && current.deleted_at === undefined) {
        const user = tx.users.put({ ...current, deleted_at: isoNow() })
        tx.emit('user.updated', { user })
      }
    })
    return
  }
  const post = await store.read.posts.one('object', del.objectId.href)
  // Only the author deletes its post.
  if (post && post.user_id === author.id) {
    await posts.deleteRemote(post)
    await parts.media.forget(post)
  }
}
