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
import type { HiddenAuthors } from '../users/moderated-users.js'

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
      tx.stars.insert({ user_id: me.id, post_id: post.id, created_at: isoNow() })
      tx.emit('star.added', { post, user: me })
    })
    return post
  }

  /** The viewer removes a star; answers the post. Errors: `not_found`. Emits `star.removed`. */
  async unstar(viewer: Viewer, postId: number): Promise<PostRow> {
    const me = actingUser(viewer)
    const post = await this.posts.find(viewer, postId)
    await this.store.transact(async (tx) => {
      const star = await tx.stars.one('pair', pair(me.id, post.id))
      if (!star) return
      tx.stars.remove(star.id)
      tx.emit('star.removed', { post, user: me })
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
