/**
 * What a post row shows about itself, read from its annotations and entities:
 * the questions explore rules and post search both ask; and the loader of
 * their candidate rows.
 */
import type { Annotation } from '../model/entities.js'
import type { PostRow } from '../model/post.js'
import type { Range, Readers } from '../store/port.js'
import { scanMatching } from '../store/scan-rows.js'
import { isDirected } from '../text/process.js'

type FileItem = { kind?: unknown; mime_type?: unknown; type?: unknown }

/** A remote post its author addressed to their followers only (and the accounts it mentions). */
export const isFollowersOnly = (post: PostRow): boolean => post.remote?.followers_only === true

/**
 * Who sees a followers-only post (see `isFollowersOnly`): its author, the
 * accounts it mentions, and those who follow its author (`follows`, asked
 * only when the others do not settle it). Any other post: everyone.
 */
export async function shownTo(
  post: PostRow,
  userId: number | undefined,
  follows: (userId: number, authorId: number) => boolean | Promise<boolean>,
): Promise<boolean> {
  if (!isFollowersOnly(post)) return true
  if (userId === undefined) return false
  if (post.user_id === userId || post.entities.mentions.some((m) => Number(m.id) === userId)) return true
  return follows(userId, post.user_id)
}

/** Posts that explore and search may ever show: live, original, human-readable, public. */
export const isListedPost = (post: PostRow): boolean => !post.is_deleted && !post.machine_only && post.repost_of === undefined && !isFollowersOnly(post)

export const hasAnnotationType = (post: Pick<PostRow, 'annotations'>, type: string): boolean => post.annotations.some((a) => a.type === type)

// Attachments are stored after file replacement (`svc.core.file_list`); the
// `+` form is read too in case a post kept its input shape.
const attachedFiles = (a: Annotation): FileItem[] => {
  const list = a.value['svc.core.file_list'] ?? a.value['+svc.core.file_list']
  return Array.isArray(list) ? (list as FileItem[]) : []
}

const isImage = (file: FileItem): boolean =>
  file.kind === 'image' ||
  (typeof file.mime_type === 'string' && file.mime_type.startsWith('image/')) ||
  (typeof file.type === 'string' && file.type.startsWith('image'))

/** An oEmbed photo or an attached image. */
export const hasPhoto = (post: PostRow): boolean =>
  post.annotations.some(
    (a) => (a.type === 'svc.core.oembed' && a.value.type === 'photo') || (a.type === 'svc.core.attachments' && attachedFiles(a).some(isImage)),
  )

/** A checkin or a geolocation. */
export const hasPlace = (post: PostRow): boolean => post.annotations.some((a) => a.type === 'svc.core.checkin' || a.type === 'svc.core.geolocation')

export const hasLocation = (post: Pick<PostRow, 'annotations'>): boolean => hasAnnotationType(post, 'svc.core.geolocation')

/** Starts with a mention: the text rule of `isDirected`, on a post. */
export const isDirectedPost = (post: Pick<PostRow, 'entities'>): boolean => isDirected(post.entities)

/** Loads post rows for ids in the order asked, `null` where one is gone: the loader `paginate` wants. */
export const postsInOrder =
  (read: Readers) =>
  async (ids: readonly number[]): Promise<(PostRow | null)[]> => {
    const rows = new Map((await read.posts.getMany(ids)).map((p) => [p.id, p]))
    return ids.map((id) => rows.get(id) ?? null)
  }

/**
 * An id source over the posts that `match` accepts, taken from `candidates`
 * (default: every post), read in chunks with a yield between them (see
 * `scanMatching`).
 */
export const scanPosts = (read: Readers, match: (post: PostRow) => boolean, candidates?: (range: Range) => Promise<number[]>) =>
  scanMatching(read.posts, match, candidates)
