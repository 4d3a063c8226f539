/**
 * Reads of the follow, mute and block relations that posts, stars, reposts
 * and streams all ask: "does a follow b", "is either blocking the other",
 * and the whole set of a user's targets for filtering a stream in one go.
 */
import type { Readers } from '../store/port.js'
import { pair } from '../store/schema.js'
import { relationCacheOf, type RelationTable } from './relation-cache.js'

export type { RelationTable } from './relation-cache.js'

const ALL = Number.MAX_SAFE_INTEGER

/** Does a row `userId → targetId` exist in `table`? */
export const hasRelation = async (r: Readers, table: RelationTable, userId: number, targetId: number): Promise<boolean> =>
  (await r[table].one('pair', pair(userId, targetId))) !== null

/** Has either user blocked the other? */
export const blockedEitherWay = async (r: Readers, a: number, b: number): Promise<boolean> =>
  (await hasRelation(r, 'blocks', a, b)) || (await hasRelation(r, 'blocks', b, a))

/** The target ids of every `table` row of `userId`. */
export async function targetsOf(r: Readers, table: RelationTable, userId: number): Promise<ReadonlySet<number>> {
  const load = async () => new Set((await r[table].getMany(await r[table].ids('user', userId, { limit: ALL }))).map((row) => row.target_id))
  const cache = relationCacheOf(r)
  return cache ? cache.read(table, 'targets', userId, load) : load()
}

/** The user ids that hold a `table` row on `targetId` (followers, blockers). */
export async function holdersOf(r: Readers, table: 'follows' | 'blocks', targetId: number): Promise<ReadonlySet<number>> {
  const load = async () => new Set((await r[table].getMany(await r[table].ids('target', targetId, { limit: ALL }))).map((row) => row.user_id))
  const cache = relationCacheOf(r)
  return cache ? cache.read(table, 'holders', targetId, load) : load()
}
