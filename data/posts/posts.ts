/**
 * Posts: creation (text pipeline, replies and threads, annotations, bot
 * mention rules), lookup of one or many as a viewer may see them, and
 * deletion by the creator. Deleted posts are kept, flagged `is_deleted`, so
 * they still answer lookups and hold their place in threads.
 */
import { isDeepStrictEqual } from 'node:util'
import { forbidden, invalid, notFound } from '../errors.js'
import { POST_MAX_LENGTH } from '../limits.js'
import type { Entities } from '../model/entities.js'
import type { PostRow, RemotePost } from '../model/post.js'
import type { UserRow } from '../model/user.js'
import type { Store, Tx } from '../store/port.js'
import { checkMachineOnly, fillTemplates, processText, type EntitiesInput } from '../text/process.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'
import { actingUser } from '../users/acting-user.js'
import { checkAnnotations } from '../annotations/annotations.js'
import type { AnnotationReplacer } from '../annotations/replacements.js'
import { blockedEitherWay, hasRelation } from '../relations/relation-reads.js'
import type { UserService } from '../users/users.js'
import type { HiddenAuthors } from '../users/moderated-users.js'
import { shownTo } from './post-traits.js'

const ALL = Number.MAX_SAFE_INTEGER

/**
 * Stars, reposts and replies go to the original, live post.
 * Errors: `invalid` (a repost, a deleted post).
 */
export function checkLiveOriginal(post: PostRow, verb: 'star' | 'repost' | 'reply to'): void {
  if (post.repost_of !== undefined) throw invalid(`You cannot ${verb} a repost; ${verb} the original post`)
  if (post.is_deleted) throw invalid(`You cannot ${verb} a deleted post`)
}

/**
 * Deletes `post` inside `tx`, and the live reposts of it with it: each is
 * kept, flagged `is_deleted`. Answers the deleted post. Emits `post.deleted`
 * for the post and for each repost. The one way a post is deleted, by its
 * creator or with an account.
 */
export async function deletePostIn(tx: Tx, post: PostRow): Promise<PostRow> {
  if (post.is_deleted) return post
  const reposts = await tx.posts.getMany(await tx.posts.ids('repost_live', post.id, { limit: ALL }))
  const removed = [post, ...reposts].map((p) => tx.posts.put({ ...p, is_deleted: true }))
  for (const gone of removed) tx.emit('post.deleted', { post: gone })
  return removed[0]
}

/**
 * Is an edit made at `incoming` newer than the one kept, made at `kept`
 * (ISO 8601 times, as the Notes' `updated` gave them)? A post kept with
 * no time takes any edit; after one with a time, an edit without cannot be
 * placed and is passed over. The same time again is taken (seconds are the finest
 * some servers give), and changes nothing when it is the same edit.
 */
const editIsNewer = (incoming: string | undefined, kept: string | undefined): boolean =>
  kept === undefined || (incoming !== undefined && Date.parse(incoming) >= Date.parse(kept))

export interface CreatePostInput {
  text?: string
  reply_to?: number | string
  machine_only?: boolean
  annotations?: unknown
  entities?: EntitiesInput
}

export class PostService {
  constructor(
    private readonly store: Store,
    private readonly users: UserService,
    private readonly hidden: HiddenAuthors,
    /** Resolves replacement values; without it they are refused. */
    private readonly replacer?: AnnotationReplacer,
  ) {}

  /**
   * Creates a post for the viewer's user. The text (≤ 256 characters) goes
   * through the text pipeline; a bot's mentions only link users who follow it.
   * A reply joins its parent's thread. Errors: `invalid` (text, entities,
   * annotations, machine-only rules, a reply to a repost, a deleted or unknown
   * post), `forbidden` (replying across a block). Emits `post.created`.
   */
  async create(viewer: Viewer, input: CreatePostInput): Promise<PostRow> {
    const author = actingUser(viewer)
    const machineOnly = input.machine_only === true
    const given = this.replacer ? await this.replacer.replace(input.annotations, { userId: author.id, publicParent: true }) : input.annotations
    const annotations = checkAnnotations(given)
    if (machineOnly) checkMachineOnly('post', input.text, annotations.length)
    const parent = input.reply_to === undefined ? null : await this.replyParent(author, input.reply_to)
    const processed = await processText(input.text ?? '', input.entities, {
      maxLength: POST_MAX_LENGTH,
      findUser: (username) => this.mentionable(author, username),
      findUserById: (id) => this.users.get(id),
      allowEmpty: machineOnly,
      allowUserMentions: machineOnly,
    })
    if (!machineOnly && processed.text.trim() === '') throw invalid('text is required')
    const entities = { ...processed.entities, mentions: await this.botMentions(author, processed.entities.mentions) }
    const post = await this.store.transact((tx) => {
      const row = tx.posts.insert({
        user_id: author.id,
        text: processed.text,
        entities,
        annotations,
        machine_only: machineOnly,
        ...(parent ? { reply_to: parent.id } : {}),
        thread_id: parent ? parent.thread_id : 0,
        app_id: viewer.app?.id ?? 0,
        created_at: isoNow(),
      })
      // The id is known only now: it roots a new thread and fills `{post_id}` templates.
      const post = tx.posts.put({ ...row, thread_id: parent ? parent.thread_id : row.id, entities: fillTemplates(entities, { post_id: String(row.id) }) })
      tx.emit('post.created', { post })
      return post
    })
    return post
  }

  /**
   * Keeps a Note of remote account `author` as a post (federation read and
   * vetted it), through the same commit and `post.created` event as a local
   * post: streams, mentions, hashtags, threads and search take it alike.
   * The same Note again answers the post it made (deleted or not).
   */
  async createRemote(
    author: UserRow,
    input: { text: string; entities: Entities; annotations?: unknown[]; remote: RemotePost; parent: PostRow | null; created_at: string },
  ): Promise<PostRow> {
    if (!author.remote) throw invalid('only a remote account posts from another server')
    const { parent } = input
    // Its media, kept as the author's files, attached as a local post attaches them.
    const publicParent = input.remote.followers_only !== true
    const given = input.annotations?.length && this.replacer ? await this.replacer.replace(input.annotations, { userId: author.id, publicParent }) : []
    const annotations = checkAnnotations(given)
    // A remote bot keeps the App.net bot rule: its mentions link only its followers.
    const entities = { ...input.entities, mentions: await this.botMentions(author, input.entities.mentions) }
    return this.store.transact(async (tx) => {
      const known = await tx.posts.one('object', input.remote.object_id)
      if (known) return known
      const row = tx.posts.insert({
        user_id: author.id,
        text: input.text,
        entities,
        annotations,
        machine_only: false,
        ...(parent ? { reply_to: parent.id } : {}),
        thread_id: parent ? parent.thread_id : 0,
        app_id: 0,
        created_at: input.created_at,
        remote: input.remote,
      })
      const post = tx.posts.put({ ...row, thread_id: parent ? parent.thread_id : row.id })
      tx.emit('post.created', { post })
      return post
    })
  }

  /**
   * A remote account's post as its server edited it (an Update of its Note,
   * vetted by federation): its text, entities and html replaced, as one
   * commit with `post.updated`, so every list and stream answers the new
   * text under the same id. `updated` is when the Note says it was edited:
   * an edit older than the one kept (or without a time, after one with a
   * time) is passed over, as is an edit of a deleted post or a repost.
   * Answers the post as it is now, or null when passed over. An edit that
   * changes nothing emits nothing; its time is kept all the same, so that an
   * edit made before it and arriving after it is passed over too.
   */
  async editRemote(post: PostRow, input: { text: string; entities: Entities; html: string; updated?: string }): Promise<PostRow | null> {
    const author = await this.users.get(post.user_id)
    if (!author?.remote) throw invalid('only a post from another server is edited by it')
    const entities = { ...input.entities, mentions: await this.botMentions(author, input.entities.mentions) }
    return this.store.transact(async (tx) => {
      // Read again inside the commit: two edits handled at once apply in the order their times say.
      const current = await tx.posts.get(post.id)
      if (!current?.remote || current.is_deleted || current.repost_of !== undefined || !editIsNewer(input.updated, current.remote.updated)) return null
      const remote = { ...current.remote, html: input.html, ...(input.updated ? { updated: input.updated } : {}) }
      const unchanged = current.text === input.text && current.remote.html === input.html && isDeepStrictEqual(current.entities, entities)
      if (unchanged) return remote.updated === current.remote.updated ? current : tx.posts.put({ ...current, remote })
      const edited = tx.posts.put({ ...current, text: input.text, entities, remote })
      tx.emit('post.updated', { post: edited })
      return edited
    })
  }

  /** A remote account's post deleted by its server (a Delete of its Note, or of the account): its reposts go with it. Emits `post.deleted`. */
  async deleteRemote(post: PostRow): Promise<void> {
    await this.store.transact(async (tx) => {
      const current = await tx.posts.get(post.id)
      if (current?.remote) await deletePostIn(tx, current)
    })
  }

  /** The stored post, deleted or not; `null` when there never was one. */
  get(id: number): Promise<PostRow | null> {
    return this.store.read.posts.get(id)
  }

  /**
   * The post as `viewer` may see it (deleted posts included).
   * Errors: `not_found` (unknown, its author blocks the viewer, or is suspended or deleted).
   */
  async find(viewer: Viewer, id: number): Promise<PostRow> {
    const post = await this.store.read.posts.get(id)
    if (!post || !(await this.visible(viewer, post))) throw notFound(`post ${id} not found`)
    return post
  }

  /** The posts of `ids` the viewer may see, in the order asked; unknown ones left out. */
  async findMany(viewer: Viewer, ids: readonly number[]): Promise<PostRow[]> {
    const rows = await this.store.read.posts.getMany(ids)
    const seen = await Promise.all(rows.map((p) => this.visible(viewer, p)))
    return rows.filter((_, i) => seen[i])
  }

  /**
   * Can `viewer` see `post` at all? Nobody sees the posts of suspended and
   * deleted accounts; blocks hide content both ways; a followers-only post
   * shows only to those it is shown to (post-traits.ts). A repost's
   * original counts too.
   */
  async visible(viewer: Viewer, post: PostRow): Promise<boolean> {
    const me = viewer.user
    const r = this.store.read
    const original = post.repost_of === undefined ? null : await r.posts.get(post.repost_of)
    const allAuthors = [post.user_id, ...(original ? [original.user_id] : [])]
    if (allAuthors.some((id) => this.hidden.has(id))) return false
    const follows = (userId: number, authorId: number) => hasRelation(r, 'follows', userId, authorId)
    for (const shown of [post, ...(original ? [original] : [])]) if (!(await shownTo(shown, me?.id, follows))) return false
    if (!me) return true
    const authors = allAuthors.filter((id) => id !== me.id)
    for (const author of authors) if (await blockedEitherWay(r, me.id, author)) return false
    return true
  }

  /**
   * Deletes one of the viewer's posts (a repost too, which undoes the repost);
   * reposts of a deleted post go with it. Answers the deleted post; deleting
   * twice answers it again. Errors: `not_found`, `forbidden` (not the creator).
   * Emits `post.deleted` for the post and for each repost removed with it.
   */
  async delete(viewer: Viewer, id: number): Promise<PostRow> {
    const me = actingUser(viewer)
    return this.store.transact(async (tx) => {
      const post = await tx.posts.get(id)
      if (!post) throw notFound(`post ${id} not found`)
      if (post.user_id !== me.id) throw forbidden('Only the creator of a post can delete it')
      return deletePostIn(tx, post)
    })
  }

  private async replyParent(author: UserRow, ref: number | string): Promise<PostRow> {
    const id = Number(ref)
    const parent = Number.isSafeInteger(id) && id > 0 ? await this.store.read.posts.get(id) : null
    if (!parent) throw invalid(`reply_to ${ref} is not a post`)
    checkLiveOriginal(parent, 'reply to')
    if (parent.user_id !== author.id && (await blockedEitherWay(this.store.read, author.id, parent.user_id))) throw forbidden('You cannot reply to this post')
    return parent
  }

  /** Mentions link existing users; a bot's link only its followers. */
  private async mentionable(author: UserRow, username: string): Promise<UserRow | null> {
    // A remote account's handle is looked up on its server the first time (when the instance federates).
    const user = username.includes('@') ? await this.users.findByHandle(username) : await this.users.byUsername(username)
    if (!user || author.type !== 'bot' || user.id === author.id) return user
    return (await hasRelation(this.store.read, 'follows', user.id, author.id)) ? user : null
  }

  /** Drops user-given mentions (by id) a bot may not make. */
  private async botMentions<M extends { id: string }>(author: UserRow, mentions: M[]): Promise<M[]> {
    if (author.type !== 'bot') return mentions
    const allowed = await Promise.all(mentions.map((m) => Number(m.id) === author.id || hasRelation(this.store.read, 'follows', Number(m.id), author.id)))
    return mentions.filter((_, i) => allowed[i])
  }
}
