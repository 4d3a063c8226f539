/**
 * The lists of posts: a user's posts and mentions, the personal and unified
 * streams, the global stream, hashtags and threads. Each reads ids newest
 * first from an index, then `paginate` drops, batch by batch, what the post
 * general parameters hide. Lists with a stream marker answer it too.
 */
import type { MarkerRow } from '../model/channel.js'
import type { PostRow } from '../model/post.js'
import type { UserType } from '../model/user.js'
import { paginate, resolvePage, type Page, type PageInput } from '../pagination/pagination.js'
import type { Range, Readers, Store } from '../store/port.js'
import type { Viewer } from '../viewer.js'
import { actingUser } from '../users/acting-user.js'
import type { MarkerService } from '../channels/markers.js'
import { hasPhoto, isFollowersOnly } from './post-traits.js'
import { postVisibilityTest, type PostFilterDefaults, type PostFilterFlags, type PostTest } from './post-filters.js'
import type { PostService } from './posts.js'
import { targetsOf } from '../relations/relation-reads.js'
import type { UserService } from '../users/users.js'
import type { HiddenAuthors } from '../users/moderated-users.js'
import { TOUCH, type Touch } from '../events/touches.js'

export type PostListInput = PageInput &
  PostFilterFlags & {
    /** Facet of the personal and unified streams: only posts with a photo. */
    has_oembed_photo?: boolean
  }

/** The lists of posts a user stream can subscribe to. */
export type SubscribablePostList = 'ofUser' | 'mentions' | 'thread' | 'personal' | 'unified'

/** Where a list's posts come from: its ids newest first, the same membership for one post, and the list's own tests. */
interface ListSource {
  markerName: string | null
  ids: (range: Range) => Promise<number[]>
  has: (post: PostRow) => Promise<boolean>
  defaults?: PostFilterDefaults
  extra?: PostTest
  /** Keeps what the tests above drop: another source's own test. */
  orElse?: PostTest
  /** Whose new and deleted posts change which ids it reads (see `PostList.feeds`). */
  feeds?: Touch[]
}

const mentionsUser = (post: PostRow, userId: number): boolean => post.repost_of === undefined && post.entities.mentions.some((m) => Number(m.id) === userId)

export interface PostList {
  page: Page<PostRow>
  /** The list's stream marker: its name, and the viewer's row once set. */
  marker?: { name: string; row: MarkerRow | null }
  /**
   * What decides which posts the list holds, besides the viewer's own
   * relations: whose posts, or whose mentions, it reads. Unset for lists
   * that any post may join (the global stream, hashtags, threads).
   */
  feeds?: Touch[]
}

/** A repost of a post seen within this long before it is not shown again in the personal stream. */
const REPOST_REPEAT_MS = 7 * 24 * 3_600_000

/**
 * Whether a post's author belongs in a public stream for `viewer`: not a
 * bot (`noBots`), and not an account of a silenced server (`limited`)
 * unless the viewer follows it. Authors are read once per list.
 */
function publicAuthorTest(r: Readers, viewer: Viewer, noBots: boolean): PostTest {
  const authors = new Map<number, { type?: UserType; limited: boolean }>()
  let followed: Promise<ReadonlySet<number>> | null = null
  return async (post) => {
    let author = authors.get(post.user_id)
    if (!author) {
      const user = await r.users.get(post.user_id)
      authors.set(post.user_id, (author = { type: user?.type, limited: user?.remote?.limited === true }))
    }
    if (noBots && author.type === 'bot') return false
    if (!author.limited) return true
    if (!viewer.user) return false
    followed ??= targetsOf(r, 'follows', viewer.user.id)
    return (await followed).has(post.user_id)
  }
}

export class PostStreamService {
  constructor(
    private readonly store: Store,
    private readonly posts: PostService,
    private readonly users: UserService,
    private readonly markers: MarkerService,
    private readonly hidden: HiddenAuthors,
  ) {}

  /** Posts created by a user, reposts included; muted users shown (it is an explicit request). Errors: `not_found`, `invalid`. */
  async ofUser(viewer: Viewer, ref: string, input: PostListInput): Promise<PostList> {
    const user = await this.users.resolve(ref, viewer)
    return this.list(viewer, input, this.ofUserSource(user.id))
  }

  /** Posts mentioning a user (never reposts). Errors: `not_found`, `invalid`. */
  async mentions(viewer: Viewer, ref: string, input: PostListInput): Promise<PostList> {
    const user = await this.users.resolve(ref, viewer)
    return this.list(viewer, input, this.mentionsSource(user.id))
  }

  /**
   * The viewer's personal stream: their posts and those of the people they
   * follow, reposts by them included, directed posts to strangers left out
   * by default. Errors: `invalid`, `forbidden` (no user).
   */
  async personal(viewer: Viewer, input: PostListInput): Promise<PostList> {
    return this.list(viewer, input, await this.personalSource(viewer, input))
  }

  /**
   * The personal stream merged with the viewer's mentions, each part through
   * its own defaults: a mention directed at someone else still shows, as it
   * does among the mentions. Errors: `invalid`, `forbidden`.
   */
  async unified(viewer: Viewer, input: PostListInput): Promise<PostList> {
    return this.list(viewer, input, await this.unifiedSource(viewer, input))
  }

  /** Every public post except reposts and posts by bots (and by a silenced server's accounts the viewer does not follow). Errors: `invalid`. */
  async global(viewer: Viewer, input: PostListInput): Promise<PostList> {
    const r = this.store.read
    const inGlobal = (p: PostRow) => p.repost_of === undefined && !isFollowersOnly(p)
    const ids = (range: Range) => r.posts.scan(range, inGlobal)
    return this.list(viewer, input, { markerName: 'global', ids, has: async (p) => inGlobal(p), extra: publicAuthorTest(r, viewer, true) })
  }

  /** Posts carrying a hashtag, any case, never reposts (nor a silenced server's the viewer does not follow). Errors: `invalid`. */
  async tag(viewer: Viewer, hashtag: string, input: PostListInput): Promise<PostList> {
    const name = hashtag.replace(/^#/, '').toLowerCase()
    const ids = (range: Range) => this.store.read.posts.ids('hashtag', name, range)
    // A hashtag stream is public: a followers-only post stays out, even for its author's followers.
    const has = async (p: PostRow) => !isFollowersOnly(p)
    return this.list(viewer, input, { markerName: `tag:${name}`, ids, has, extra: publicAuthorTest(this.store.read, viewer, false) })
  }

  /** Every post of the thread of any of its posts. Errors: `not_found`, `invalid`. */
  async thread(viewer: Viewer, postId: number, input: PostListInput): Promise<PostList> {
    const post = await this.posts.find(viewer, postId)
    const list = await this.list(viewer, input, this.threadSource(post.thread_id))
    return { page: list.page }
  }

  /**
   * Would `post` be in the list `name` of `viewer` (with `input`'s flags) if
   * it were read now? The same source and tests as the list itself, asked of
   * one post: what a user stream subscription to that list delivers.
   * `target` is the list's user (`ofUser`, `mentions`) or thread (`thread`).
   */
  async contains(viewer: Viewer, name: SubscribablePostList, target: number, input: PostListInput, post: PostRow): Promise<boolean> {
    return (await this.membership(viewer, name, target, input))(post)
  }

  /**
   * `contains` compiled once for many posts: the viewer's follows, mutes and
   * blocks are read now, so the test holds only until those change (a user
   * stream keeps one per subscription and drops it when they do).
   */
  async membership(viewer: Viewer, name: SubscribablePostList, target: number, input: PostListInput): Promise<PostTest> {
    const source =
      name === 'ofUser'
        ? this.ofUserSource(target)
        : name === 'mentions'
          ? this.mentionsSource(target)
          : name === 'thread'
            ? this.threadSource(target)
            : name === 'personal'
              ? await this.personalSource(viewer, input)
              : await this.unifiedSource(viewer, input)
    const keep = await this.keepTest(viewer, input, source)
    return async (post) => (await source.has(post)) && (await keep(post))
  }

  private ofUserSource(userId: number): ListSource {
    const ids = (range: Range) => this.store.read.posts.ids('user', userId, range)
    return {
      markerName: `posts:${userId}`,
      ids,
      has: async (p) => p.user_id === userId,
      defaults: { include_muted: true },
      feeds: [{ kind: TOUCH.author, id: userId }],
    }
  }

  private mentionsSource(userId: number): ListSource {
    const ids = (range: Range) => this.store.read.posts.ids('mention', userId, range)
    return { markerName: `mentions:${userId}`, ids, has: async (p) => mentionsUser(p, userId), feeds: [{ kind: TOUCH.mentions, id: userId }] }
  }

  private threadSource(threadId: number): ListSource {
    const ids = (range: Range) => this.store.read.posts.ids('thread', threadId, range)
    return { markerName: null, ids, has: async (p) => p.thread_id === threadId }
  }

  private async personalSource(viewer: Viewer, input: PostListInput): Promise<ListSource> {
    const authors = await this.authorsOf(viewer)
    const r = this.store.read
    const inStream = new Set(authors)
    return {
      markerName: 'my_stream',
      ids: (range) => r.posts.idsAny('user', authors, range),
      has: async (p) => inStream.has(p.user_id),
      defaults: { include_directed_posts: false },
      extra: this.personalTest(authors, input),
      feeds: authors.map((id) => ({ kind: TOUCH.author, id })),
    }
  }

  private async unifiedSource(viewer: Viewer, input: PostListInput): Promise<ListSource> {
    const me = actingUser(viewer)
    const personal = await this.personalSource(viewer, input)
    const r = this.store.read
    const ids = async (range: Range) => mergeNewest(await personal.ids(range), await r.posts.ids('mention', me.id, range), range)
    const asMention = await postVisibilityTest(r, this.hidden, viewer, input)
    const photo = this.photoFacet(input)
    const mention: PostTest = async (p) => mentionsUser(p, me.id) && (await asMention(p)) && (await photo(p))
    return {
      ...personal,
      markerName: 'unified',
      ids,
      has: async (p) => (await personal.has(p)) || mentionsUser(p, me.id),
      orElse: mention,
      feeds: [...(personal.feeds ?? []), { kind: TOUCH.mentions, id: me.id }],
    }
  }

  private async list(viewer: Viewer, input: PostListInput, source: ListSource): Promise<PostList> {
    const r = this.store.read
    const { markerName } = source
    const row = markerName && viewer.user ? await this.markers.find(viewer.user.id, markerName) : null
    const keep = await this.keepTest(viewer, input, source)
    const page = await paginate(resolvePage(input, markerName ? row : undefined), source.ids, (list) => loadPosts(r, list), keep)
    const feeds = source.feeds ? { feeds: source.feeds } : {}
    return markerName ? { page, marker: { name: markerName, row }, ...feeds } : { page, ...feeds }
  }

  /** The post general parameters over the list's defaults, and the list's own tests. */
  private async keepTest(viewer: Viewer, input: PostListInput, source: ListSource): Promise<PostTest> {
    const base = await postVisibilityTest(this.store.read, this.hidden, viewer, input, source.defaults)
    const { extra, orElse } = source
    const both: PostTest = extra ? async (p) => (await base(p)) && (await extra(p)) : base
    return orElse ? async (p) => (await both(p)) || (await orElse(p)) : both
  }

  /** The viewer and everyone they follow. */
  private async authorsOf(viewer: Viewer): Promise<number[]> {
    const me = actingUser(viewer)
    return [me.id, ...(await targetsOf(this.store.read, 'follows', me.id))]
  }

  /** The personal stream's own tests: the repost rule and the photo facet. */
  private personalTest(authors: number[], input: PostListInput): PostTest {
    const once = this.repostOnce(authors)
    if (!input.has_oembed_photo) return once
    const photo = this.photoFacet(input)
    return async (p) => (await photo(p)) && (await once(p))
  }

  /** The `has_oembed_photo` facet (everything passes without it); a repost shows its original's photo. */
  private photoFacet(input: PostListInput): PostTest {
    if (!input.has_oembed_photo) return async () => true
    return async (p) => hasPhoto(p.repost_of === undefined ? p : ((await this.store.read.posts.get(p.repost_of)) ?? p))
  }

  /**
   * In the personal stream a repost is shown only when the viewer was not
   * shown its original, or an earlier repost of it, in the week before it:
   * the original by the viewer or someone they follow, or a live repost of it
   * by one of them. So the first repost of a post shows and later ones within
   * a week do not, each judged on its own, so every page agrees.
   */
  private repostOnce(authors: number[]): PostTest {
    const inStream = new Set(authors)
    return async (post) => {
      if (post.repost_of === undefined) return true
      const original = await this.store.read.posts.get(post.repost_of)
      if (!original) return false
      const weekBefore = Date.parse(post.created_at) - REPOST_REPEAT_MS
      if (inStream.has(original.user_id) && Date.parse(original.created_at) > weekBefore) return false
      return !(await this.repostedBefore(original.id, post.id, inStream, weekBefore))
    }
  }

  /** Is there a live repost of `originalId` older than `repostId`, by one of `authors`, made after `after`? */
  private async repostedBefore(originalId: number, repostId: number, authors: Set<number>, after: number): Promise<boolean> {
    const r = this.store.read
    let before = repostId
    for (;;) {
      const ids = await r.posts.ids('repost_live', originalId, { before, limit: 50, order: 'desc' })
      for (const earlier of await r.posts.getMany(ids)) {
        if (Date.parse(earlier.created_at) <= after) return false
        if (authors.has(earlier.user_id)) return true
      }
      if (ids.length < 50) return false
      before = ids[ids.length - 1]
    }
  }
}

const loadPosts = async (r: Readers, ids: number[]): Promise<(PostRow | null)[]> => {
  const found = new Map((await r.posts.getMany(ids)).map((p) => [p.id, p]))
  return ids.map((id) => found.get(id) ?? null)
}

/** Two windows of ids merged in the range's order, without repeats, to the range's limit. */
function mergeNewest(a: number[], b: number[], range: Range): number[] {
  const all = [...new Set([...a, ...b])].sort((x, y) => (range.order === 'asc' ? x - y : y - x))
  return all.slice(0, range.limit)
}
