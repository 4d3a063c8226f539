/**
 * Reposts: a post that points at another (`repost_of`), written
 * `>> @<author>: <original text>` with the original's entities shifted past
 * that prefix. One live repost per user and original; undoing it deletes the
 * repost post.
 */
import { invalid } from '../errors.js'
import type { Entities } from '../model/entities.js'
import type { PostRow, RemotePost } from '../model/post.js'
import type { UserRow } from '../model/user.js'
import { paginate, linkedRows, resolvePage, type Page, type PageInput } from '../pagination/pagination.js'
import type { Store } from '../store/port.js'
import { pair } from '../store/schema.js'
import { renderHtml } from '../text/html.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'
import { actingUser } from '../users/acting-user.js'
import { isModerated, type HiddenAuthors } from '../users/moderated-users.js'
import { blockedEitherWay } from '../relations/relation-reads.js'
import { checkLiveOriginal, type PostService } from './posts.js'
import { isFollowersOnly } from './post-traits.js'

/** The repost's text and entities: the prefix mentions the original's author; nothing in it leads. */
export function repostText(original: PostRow, author: UserRow): { text: string; entities: Entities } {
  const mention = `@${author.username}`
  const prefix = `>> ${mention}: `
  const shift = [...prefix].length
  const e = original.entities
  return {
    text: prefix + original.text,
    entities: {
      mentions: [
        { pos: 3, len: mention.length, name: author.username, id: String(author.id) },
        ...e.mentions.map(({ is_leading: _, ...m }) => ({ ...m, pos: m.pos + shift })),
      ],
      hashtags: e.hashtags.map((h) => ({ ...h, pos: h.pos + shift })),
      links: e.links.map((l) => ({ ...l, pos: l.pos + shift })),
    },
  }
}

export class RepostService {
  constructor(
    private readonly store: Store,
    private readonly posts: PostService,
    private readonly hidden: HiddenAuthors,
  ) {}

  /**
   * The viewer reposts a post; reposting again answers the existing repost.
   * Answers the repost. Errors: `not_found` (unknown or hidden by a block),
   * `invalid` (a repost, a deleted post). Emits `post.created`.
   */
  async repost(viewer: Viewer, postId: number): Promise<PostRow> {
    const me = actingUser(viewer)
    const original = await this.posts.find(viewer, postId)
    checkLiveOriginal(original, 'repost')
    if (isFollowersOnly(original)) throw invalid('You cannot repost a post its author shows only to their followers')
    const author = await this.store.read.users.get(original.user_id)
    if (!author) throw invalid('You cannot repost a post whose author is gone')
    return this.store.transact(async (tx) => {
      const existing = await tx.posts.one('repost_pair', pair(me.id, original.id))
      if (existing) return existing
      const row = tx.posts.insert({
        user_id: me.id,
        ...repostText(original, author),
        annotations: [],
        machine_only: original.machine_only,
        thread_id: 0,
        repost_of: original.id,
        app_id: viewer.app?.id ?? 0,
        created_at: isoNow(),
      })
      // A repost starts its own thread: its thread id is its own id.
      const post = tx.posts.put({ ...row, thread_id: row.id })
      tx.emit('post.created', { post })
      return post
    })
  }

  /**
   * Remote account `author` reposts `original` (its server's `Announce`,
   * which federation verified and names by `remote.object_id`): a repost as
   * a local user's, once per account and original, unless the account is
   * moderated, the original is not a live original of an author shown, or a
   * block stands between the two. Answers the repost, or null. Emits
   * `post.created`.
   */
  async addRemote(author: UserRow, original: PostRow, remote: Omit<RemotePost, 'html'>, createdAt: string): Promise<PostRow | null> {
    if (!author.remote || isModerated(author) || original.repost_of !== undefined || original.is_deleted || original.machine_only || isFollowersOnly(original))
      return null
    if (this.hidden.has(original.user_id) || (await blockedEitherWay(this.store.read, author.id, original.user_id))) return null
    const originalAuthor = await this.store.read.users.get(original.user_id)
    if (!originalAuthor) return null
    return this.store.transact(async (tx) => {
      const existing = (await tx.posts.one('object', remote.object_id)) ?? (await tx.posts.one('repost_pair', pair(author.id, original.id)))
      if (existing) return existing
      const current = await tx.posts.get(original.id)
      if (!current || current.is_deleted) return null
      const { text, entities } = repostText(current, originalAuthor)
      const row = tx.posts.insert({
        user_id: author.id,
        text,
        entities,
        annotations: [],
        machine_only: false,
        thread_id: 0,
        repost_of: current.id,
        app_id: 0,
        created_at: createdAt,
        // Its html is svc's own, as for a local repost: the Announce carries none.
        remote: { ...remote, html: renderHtml(text, entities) },
      })
      const post = tx.posts.put({ ...row, thread_id: row.id })
      tx.emit('post.created', { post })
      return post
    })
  }

  /**
   * Undoes the viewer's repost of a post, given the original's id or the
   * repost's own; answers the original. Errors: `not_found`. Emits
   * `post.deleted` for the repost when there was one.
   */
  async unrepost(viewer: Viewer, postId: number): Promise<PostRow> {
    const me = actingUser(viewer)
    const given = await this.posts.find(viewer, postId)
    const original = given.repost_of !== undefined && given.user_id === me.id ? await this.posts.find(viewer, given.repost_of) : given
    await this.store.transact(async (tx) => {
      const repost = await tx.posts.one('repost_pair', pair(me.id, original.id))
      if (!repost) return
      tx.emit('post.deleted', { post: tx.posts.put({ ...repost, is_deleted: true }) })
    })
    return original
  }

  /** The users who reposted a post, most recent first (pagination ids: repost ids). Errors: `not_found`, `invalid`. */
  async reposters(viewer: Viewer, postId: number, page: PageInput): Promise<Page<UserRow>> {
    const post = await this.posts.find(viewer, postId)
    const r = this.store.read
    return paginate(
      resolvePage(page),
      (range) => r.posts.ids('repost_live', post.id, range),
      (ids) => linkedRows(r.posts, ids, (repost) => repost.user_id, r.users),
    )
  }
}
