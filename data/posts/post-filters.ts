/**
 * The post general parameters as one test per request: the viewer's follows,
 * mutes and blocks are read once, then every candidate post of a page is
 * checked against them without further lookups of the viewer's relations.
 */
import type { PostRow } from '../model/post.js'
import type { Readers } from '../store/port.js'
import type { Viewer } from '../viewer.js'
import { isDirectedPost, shownTo } from './post-traits.js'
import { holdersOf, targetsOf } from '../relations/relation-reads.js'
import type { HiddenAuthors } from '../users/moderated-users.js'

export interface PostFilterFlags {
  include_deleted?: boolean
  include_directed_posts?: boolean
  include_machine?: boolean
  include_muted?: boolean
}

/** The defaults a stream gives the flags a request leaves out. */
export type PostFilterDefaults = Partial<PostFilterFlags>

const ORIGINAL_DEFAULTS: Required<PostFilterFlags> = {
  include_deleted: true,
  include_directed_posts: true,
  include_machine: false,
  include_muted: false,
}

/**
 * Addressed to particular users, which `include_directed_posts=0` hides from
 * others: a post that starts with a mention, or a machine-only post with
 * user-given mentions.
 */
const isAddressed = (post: PostRow): boolean => isDirectedPost(post) || (post.machine_only && post.entities.mentions.length > 0)

/** The users an addressed post is addressed to. */
const addressees = (post: PostRow): number[] =>
  (post.machine_only ? post.entities.mentions : post.entities.mentions.filter((m) => m.is_leading === true)).map((m) => Number(m.id))

export type PostTest = (post: PostRow) => Promise<boolean>

/**
 * The test of `flags` (over the stream's `defaults`, over the original API's)
 * for `viewer`. Blocks hide posts both ways whatever the flags say, the
 * posts of suspended and deleted accounts (`hidden`) from everyone, and a
 * followers-only post from all but those it is shown to; a repost is also
 * judged by its original.
 */
export async function postVisibilityTest(
  r: Readers,
  hidden: HiddenAuthors,
  viewer: Viewer,
  flags: PostFilterFlags,
  defaults: PostFilterDefaults = {},
): Promise<PostTest> {
  const f = { ...ORIGINAL_DEFAULTS, ...defaults, ...definedOnly(flags) }
  const me = viewer.user
  const [followed, muted, blocked, blockers] = me
    ? await Promise.all([targetsOf(r, 'follows', me.id), targetsOf(r, 'mutes', me.id), targetsOf(r, 'blocks', me.id), holdersOf(r, 'blocks', me.id)])
    : [new Set<number>(), new Set<number>(), new Set<number>(), new Set<number>()]
  const hiddenAuthor = (userId: number): boolean => {
    if (hidden.has(userId)) return true
    if (userId === me?.id) return false
    return blocked.has(userId) || blockers.has(userId) || (!f.include_muted && muted.has(userId))
  }
  const addressedElsewhere = (post: PostRow): boolean =>
    post.user_id !== me?.id && isAddressed(post) && !addressees(post).some((id) => id === me?.id || followed.has(id))
  const follows = (_me: number, author: number) => followed.has(author)
  return async (post) => {
    if (post.is_deleted && !f.include_deleted) return false
    if (post.machine_only && !f.include_machine) return false
    if (hiddenAuthor(post.user_id)) return false
    if (!(await shownTo(post, me?.id, follows))) return false
    if (!f.include_directed_posts && addressedElsewhere(post)) return false
    if (post.repost_of === undefined) return true
    const original = await r.posts.get(post.repost_of)
    return original !== null && !hiddenAuthor(original.user_id) && (await shownTo(original, me?.id, follows))
  }
}

const definedOnly = (flags: PostFilterFlags): PostFilterFlags => Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)) as PostFilterFlags
