/**
 * Which authors a viewer does not see in curated and searched lists: the
 * users they muted, the users they blocked and the users who blocked them.
 */
import type { PostRow } from '../model/post.js'
import type { Readers, Store } from '../store/port.js'
import type { Viewer } from '../viewer.js'
import { holdersOf, targetsOf } from './relation-reads.js'

/** Ids of the authors hidden from `viewer` (none for anonymous viewers and app tokens). */
export async function hiddenAuthors(store: Store, viewer: Viewer): Promise<Set<number>> {
  const me = viewer.user
  if (!me) return new Set()
  const r = store.read
  const sets = await Promise.all([targetsOf(r, 'mutes', me.id), targetsOf(r, 'blocks', me.id), holdersOf(r, 'blocks', me.id)])
  return new Set(sets.flatMap((s) => [...s]))
}

/** A test of posts for `viewer`: false for posts by hidden authors. */
export const postVisibility =
  (store: Store) =>
  async (viewer: Viewer): Promise<(post: PostRow) => boolean> => {
    const hidden = await hiddenAuthors(store, viewer)
    return (post) => !hidden.has(post.user_id)
  }

/** Loads post rows for ids in the order asked, `null` where one is gone: the loader `paginate` wants. */
export const postsInOrder =
  (read: Readers) =>
  async (ids: readonly number[]): Promise<(PostRow | null)[]> => {
    const rows = new Map((await read.posts.getMany(ids)).map((p) => [p.id, p]))
    return ids.map((id) => rows.get(id) ?? null)
  }
