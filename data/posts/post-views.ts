/**
 * What a viewer sees of a post beyond its row: author, creating app, reply,
 * star and repost counts, the viewer's own star and repost, samples of who
 * starred or reposted, and for a repost the view of the original.
 */
import type { AppRow } from '../model/app.js'
import type { PostRow } from '../model/post.js'
import type { UserRow } from '../model/user.js'
import type { Readers, Store } from '../store/port.js'
import { pair } from '../store/schema.js'
import type { Viewer } from '../viewer.js'
import { targetsOf } from '../relations/relation-reads.js'

export interface PostView {
  post: PostRow
  /** `null` when the account is gone. */
  user: UserRow | null
  app: AppRow | null
  num_replies: number
  num_stars: number
  num_reposts: number
  /** Left out for anonymous viewers. */
  you_starred?: boolean
  you_reposted?: boolean
  starred_by?: UserRow[]
  reposters?: UserRow[]
  repost_of?: PostView
}

export interface PostViewOptions {
  starred_by?: boolean
  reposters?: boolean
}

/** How many users a `starred_by` / `reposters` sample holds. */
export const SAMPLE_SIZE = 10

export class PostViewService {
  constructor(private readonly store: Store) {}

  /** The views of `posts` for `viewer`, in the same order. */
  async views(posts: readonly PostRow[], viewer: Viewer, options: PostViewOptions = {}): Promise<PostView[]> {
    const followed = viewer.user && (options.starred_by || options.reposters) ? await targetsOf(this.store.read, 'follows', viewer.user.id) : new Set<number>()
    return Promise.all(posts.map((p) => this.view(p, viewer, options, followed)))
  }

  private async view(post: PostRow, viewer: Viewer, options: PostViewOptions, followed: ReadonlySet<number>): Promise<PostView> {
    const r = this.store.read
    const view: PostView = {
      post,
      user: await r.users.get(post.user_id),
      app: await r.apps.get(post.app_id),
      num_replies: await r.posts.count('reply_to_live', post.id),
      num_stars: await r.stars.count('post', post.id),
      num_reposts: await r.posts.count('repost_live', post.id),
    }
    const me = viewer.user
    if (me) {
      view.you_starred = (await r.stars.one('pair', pair(me.id, post.id))) !== null
      view.you_reposted = (await r.posts.one('repost_pair', pair(me.id, post.id))) !== null
    }
    if (options.starred_by)
      view.starred_by = await sample(
        r,
        followed,
        (await r.stars.getMany(await r.stars.ids('post', post.id, { limit: 50 }))).map((s) => s.user_id),
      )
    if (options.reposters)
      view.reposters = await sample(
        r,
        followed,
        (await r.posts.getMany(await r.posts.ids('repost_live', post.id, { limit: 50 }))).map((p) => p.user_id),
      )
    if (post.repost_of !== undefined) {
      const original = await r.posts.get(post.repost_of)
      if (original) view.repost_of = await this.view(original, viewer, options, followed)
    }
    return view
  }
}

/** A few of `userIds` (newest first), people the viewer follows before others. */
async function sample(r: Readers, followed: ReadonlySet<number>, userIds: number[]): Promise<UserRow[]> {
  const ordered = [...userIds.filter((id) => followed.has(id)), ...userIds.filter((id) => !followed.has(id))]
  return r.users.getMany(ordered.slice(0, SAMPLE_SIZE))
}
