/**
 * Explore rules: checking what an admin wrote, and turning a rule into an id
 * source plus the tests a post must pass. The source is the narrowest index
 * the rule allows (recent stars, chosen users, a hashtag, annotation types),
 * else a scan of all posts newest first.
 */
import { invalid } from '../errors.js'
import type { ExploreRule } from '../model/explore.js'
import type { PostRow } from '../model/post.js'
import type { Range, Readers } from '../store/port.js'
import { windowIds } from '../store/sorted-ids.js'
import { hasPhoto, hasPlace, isDirectedPost, isListedPost, scanPosts } from '../posts/post-traits.js'

/** A rule as given by an admin: `null` clears a criterion on update. */
export type ExploreRulePatch = { [K in keyof ExploreRule]?: ExploreRule[K] | null }

const BOOLEAN_KEYS = ['has_photo', 'has_place', 'has_replies', 'not_directed', 'is_thread_root'] as const
const RULE_KEYS = new Set<string>([...BOOLEAN_KEYS, 'min_stars', 'star_window_hours', 'hashtag', 'user_ids'])

export const DEFAULT_STAR_WINDOW_HOURS = 24

/** Annotation types a photo or a place can come in (the rows are then checked by `hasPhoto`, `hasPlace`). */
const PHOTO_TYPES = ['svc.core.oembed', 'svc.core.attachments']
const PLACE_TYPES = ['svc.core.checkin', 'svc.core.geolocation']

/**
 * Applies `patch` to `base` and checks the result. User ids must exist.
 * Errors: `invalid` naming the bad criterion.
 */
export async function checkRule(base: ExploreRule, patch: ExploreRulePatch, read: Readers): Promise<ExploreRule> {
  const rule: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(patch)) {
    if (!RULE_KEYS.has(key)) throw invalid(`unknown explore rule criterion ${key}`)
    if (value === null || value === undefined || value === false) delete rule[key]
    else rule[key] = value
  }
  for (const key of BOOLEAN_KEYS) if (key in rule && rule[key] !== true) throw invalid(`${key} must be true or false`)
  if ('min_stars' in rule && !(Number.isInteger(rule.min_stars) && (rule.min_stars as number) >= 1 && (rule.min_stars as number) <= 1_000_000)) {
    throw invalid('min_stars must be a whole number from 1 to 1000000')
  }
  if ('star_window_hours' in rule) {
    if (!(Number.isInteger(rule.star_window_hours) && (rule.star_window_hours as number) >= 1 && (rule.star_window_hours as number) <= 720)) {
      throw invalid('star_window_hours must be a whole number from 1 to 720')
    }
    if (!('min_stars' in rule)) throw invalid('star_window_hours needs min_stars')
  }
  if ('hashtag' in rule) {
    const tag = typeof rule.hashtag === 'string' ? rule.hashtag.replace(/^#/, '').toLowerCase() : ''
    if (!/^[\p{L}\p{N}_]{1,100}$/u.test(tag)) throw invalid('hashtag must be letters, digits or _ (without #)')
    rule.hashtag = tag
  }
  if ('user_ids' in rule) {
    const ids = rule.user_ids
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > 200 || !ids.every((id) => Number.isInteger(id) && id > 0)) {
      throw invalid('user_ids must be a list of 1 to 200 user ids')
    }
    const unique = [...new Set(ids as number[])]
    const found = await read.users.getMany(unique)
    if (found.length !== unique.length) {
      const missing = unique.filter((id) => !found.some((u) => u.id === id))
      throw invalid(`no user with id ${missing.join(', ')}`)
    }
    rule.user_ids = unique
  }
  return rule as ExploreRule
}

/** The criteria a post row answers by itself, without another read. */
export const matchesRow =
  (rule: ExploreRule) =>
  (post: PostRow): boolean =>
    isListedPost(post) &&
    (!rule.has_photo || hasPhoto(post)) &&
    (!rule.has_place || hasPlace(post)) &&
    (!rule.not_directed || !isDirectedPost(post)) &&
    (!rule.is_thread_root || post.reply_to === undefined) &&
    (rule.hashtag === undefined || post.entities.hashtags.some((h) => h.name.toLowerCase() === rule.hashtag)) &&
    (rule.user_ids === undefined || rule.user_ids.includes(post.user_id))

/** Does `post` pass the rule, including the criteria that need reads? */
export async function matchesRule(rule: ExploreRule, post: PostRow, read: Readers, trending?: ReadonlySet<number>): Promise<boolean> {
  if (!matchesRow(rule)(post)) return false
  if (rule.has_replies && (await read.posts.count('reply_to_live', post.id)) === 0) return false
  if (rule.min_stars !== undefined && !(trending ?? new Set(await starredRecently(rule, read))).has(post.id)) return false
  return true
}

/**
 * Ids (ascending) of posts starred at least `min_stars` times within the
 * rule's window. Star ids grow with time, so the walk goes from the newest
 * star back until the window closes.
 */
export async function starredRecently(rule: ExploreRule, read: Readers, now = Date.now()): Promise<number[]> {
  const cutoff = now - (rule.star_window_hours ?? DEFAULT_STAR_WINDOW_HOURS) * 3_600_000
  const counts = new Map<number, number>()
  let before: number | undefined
  for (;;) {
    const ids = await read.stars.scan({ before, limit: 1000, order: 'desc' })
    if (ids.length === 0) break
    const stars = await read.stars.getMany(ids)
    const recent = stars.filter((s) => Date.parse(s.created_at) >= cutoff)
    for (const s of recent) counts.set(s.post_id, (counts.get(s.post_id) ?? 0) + 1)
    if (recent.length < stars.length || ids.length < 1000) break
    before = ids[ids.length - 1]
  }
  const min = rule.min_stars ?? 1
  return [...counts]
    .filter(([, n]) => n >= min)
    .map(([id]) => id)
    .sort((a, b) => a - b)
}

/** Where a rule's candidate ids come from, newest first within `range`. */
export function ruleSource(rule: ExploreRule, read: Readers, trending: readonly number[] | null): (range: Range) => Promise<number[]> {
  if (trending) return async (range) => windowIds(trending, range)
  if (rule.user_ids) return (range) => read.posts.idsAny('user', rule.user_ids as number[], range)
  if (rule.hashtag) return (range) => read.posts.ids('hashtag', rule.hashtag as string, range)
  if (rule.has_photo) return (range) => read.posts.idsAny('annotation_type', PHOTO_TYPES, range)
  if (rule.has_place) return (range) => read.posts.idsAny('annotation_type', PLACE_TYPES, range)
  return scanPosts(read, matchesRow(rule))
}
