/**
 * Stars: a user's public bookmarks of posts. A repost cannot be starred (its
 * original can) and neither can a deleted post. Star lists page by the star
 * row's id, so a user's stars come most recent star first.
 */
import type { PostRow } from '../model/post.js'
import type { UserRow } from '../model/user.js'
import { paginate, linkedRows, resolvePage, type Page, type PageInput } from '../pagination/pagination.js'
import type { Range, Store } from '../store/port.js'
import { pair } from '../store/schema.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'
import { actingUser } from '../users/acting-user.js'
import { postVisibilityTest, type PostFilterFlags } from './post-filters.js'
import { checkLiveOriginal, type PostService } from './posts.js'
import type { UserService } from '../users/users.js'
import { isModerated, type HiddenAuthors } from '../users/moderated-users.js'
import { blockedEitherWay } from '../relations/relation-reads.js'

export class StarService {
  constructor(
    private readonly store: Store,
    private readonly posts: PostService,
    private readonly users: UserService,
    private readonly hidden: HiddenAuthors,
  ) {}

  /**
   * The viewer stars a post; starring twice changes nothing. Answers the post.
   * Errors: `not_found` (unknown or hidden by a block), `invalid` (a repost,
   * a deleted post). Emits `star.added`.
   */
  async star(viewer: Viewer, postId: number): Promise<PostRow> {
    const me = actingUser(viewer)
    const post = await this.posts.find(viewer, postId)
    checkLiveOriginal(post, 'star')
    await this.store.transact(async (tx) => {
      if (await tx.stars.one('pair', pair(me.id, post.id))) return
      const star = tx.stars.insert({ user_id: me.id, post_id: post.id, created_at: isoNow() })
      tx.emit('star.added', { post, user: me, star_id: star.id })
    })
    return post
  }

  /**
   * Remote account `user` stars `post` (its server's Like, which federation
   * verified): as a local star, once, unless the account is moderated, the
   * post is not a live original or a block stands between the two. Answers
   * whether a star was added. Emits `star.added`.
   */
  async addRemote(user: UserRow, post: PostRow): Promise<boolean> {
    if (!user.remote || isModerated(user) || post.repost_of !== undefined || post.is_deleted || this.hidden.has(post.user_id)) return false
    if (await blockedEitherWay(this.store.read, user.id, post.user_id)) return false
    return this.store.transact(async (tx) => {
      const current = await tx.posts.get(post.id)
      if (!current || current.is_deleted || (await tx.stars.one('pair', pair(user.id, post.id)))) return false
      const star = tx.stars.insert({ user_id: user.id, post_id: post.id, created_at: isoNow() })
      tx.emit('star.added', { post: current, user, star_id: star.id })
      return true
    })
  }

  /** Remote account `user`'s star of `post` removed (its server's Undo of the Like). Emits `star.removed` when there was one. */
  async removeRemote(user: UserRow, post: PostRow): Promise<void> {
    if (!user.remote) return
    await this.store.transact(async (tx) => {
      const star = await tx.stars.one('pair', pair(user.id, post.id))
      if (!star) return
      tx.stars.remove(star.id)
      tx.emit('star.removed', { post, user, star_id: star.id })
    })
  }

  /** The viewer removes a star; answers the post. Errors: `not_found`. Emits `star.removed`. */
  async unstar(viewer: Viewer, postId: number): Promise<PostRow> {
    const me = actingUser(viewer)
    const post = await this.posts.find(viewer, postId)
    await this.store.transact(async (tx) => {
      const star = await tx.stars.one('pair', pair(me.id, post.id))
      if (!star) return
      tx.stars.remove(star.id)
      tx.emit('star.removed', { post, user: me, star_id: star.id })
    })
    return post
  }

  /** The users who starred a post, most recent star first (pagination ids: star ids). Errors: `not_found`, `invalid`. */
  async starrers(viewer: Viewer, postId: number, page: PageInput): Promise<Page<UserRow>> {
    const post = await this.posts.find(viewer, postId)
    const r = this.store.read
    return paginate(
      resolvePage(page),
      (range) => r.stars.ids('post', post.id, range),
      (ids) => linkedRows(r.stars, ids, (s) => s.user_id, r.users),
    )
  }

  /**
   * The posts a user starred, most recent star first (pagination ids: star
   * ids), through the post general parameters. Errors: `not_found`, `invalid`.
   */
  async ofUser(viewer: Viewer, ref: string, page: PageInput & PostFilterFlags): Promise<Page<PostRow>> {
    const user = await this.users.resolve(ref, viewer)
    const r = this.store.read
    const keep = await postVisibilityTest(r, this.hidden, viewer, page)
    return paginate(
      resolvePage(page),
      (range: Range) => r.stars.ids('user', user.id, range),
      (ids) => linkedRows(r.stars, ids, (s) => s.post_id, r.posts),
      keep,
    )
  }
}
