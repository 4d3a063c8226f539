/**
 * Which authors a viewer does not see in lists: the users they muted, the
 * users they blocked and the users who blocked them.
 */
import type { PostRow } from '../model/post.js'
import type { Store } from '../store/port.js'
import type { Viewer } from '../viewer.js'

/** Ids of the authors hidden from `viewer` (none for anonymous viewers and app tokens). */
export async function hiddenAuthors(store: Store, viewer: Viewer): Promise<Set<number>> {
  const me = viewer.user
  if (!me) return new Set()
  const r = store.read
  const all = { limit: 100_000 }
  const [muted, blocked, blockers] = await Promise.all([r.mutes.ids('user', me.id, all), r.blocks.ids('user', me.id, all), r.blocks.ids('target', me.id, all)])
  const [m, b, bb] = await Promise.all([r.mutes.getMany(muted), r.blocks.getMany(blocked), r.blocks.getMany(blockers)])
  return new Set([...m.map((x) => x.target_id), ...b.map((x) => x.target_id), ...bb.map((x) => x.user_id)])
}

/** A test of posts for `viewer`: false for posts by hidden authors. */
export const postVisibility =
  (store: Store) =>
  async (viewer: Viewer): Promise<(post: PostRow) => boolean> => {
    const hidden = await hiddenAuthors(store, viewer)
    return (post) => !hidden.has(post.user_id)
  }
