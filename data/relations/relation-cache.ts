/**
 * The follow, mute and block sets of recently active users, kept between
 * requests. Every timeline read asks for the viewer's follows, mutes and
 * blocks (and who blocks them), and on a large instance those rows are
 * seldom in the store's row cache: a random reader's home timeline read
 * dozens of relation rows from disk, a parse each, before its first post.
 *
 * Only where this process alone writes the store (not where nodes share
 * it): each follow, mute or block event drops the two sets it changes, as
 * the event log hands it over, before the write is acknowledged. A read
 * that began before such an event is not kept after it.
 */
import { LRUCache } from 'lru-cache'
import type { DomainEvent } from '../model/event.js'
import type { Readers } from '../store/port.js'

export type RelationTable = 'follows' | 'mutes' | 'blocks'
export type RelationSide = 'targets' | 'holders'

/** Sets kept at most: a user's three tables, both sides, for the most recently active few thousand. */
const MAX_SETS = 30_000

const RELATION_TABLE: Readonly<Record<string, RelationTable>> = {
  'follow.added': 'follows',
  'follow.removed': 'follows',
  'mute.added': 'mutes',
  'mute.removed': 'mutes',
  'block.added': 'blocks',
  'block.removed': 'blocks',
}

const keyOf = (table: RelationTable, side: RelationSide, id: number): string => `${table}:${side}:${id}`

export class RelationCache {
  private readonly kept = new LRUCache<string, ReadonlySet<number>>({ max: MAX_SETS })
  private clock = 0
  /** When each set was last changed, by the clock: a read older than that is not kept. */
  private readonly changedAt = new Map<string, number>()

  /** What the event log calls for each event, in order. */
  changed(event: DomainEvent): void {
    const table = RELATION_TABLE[event.name]
    if (!table) return
    const { user, target } = (event as DomainEvent<'follow.added'>).payload
    const at = ++this.clock
    for (const key of [keyOf(table, 'targets', user.id), keyOf(table, 'holders', target.id)]) {
      this.kept.delete(key)
      this.changedAt.set(key, at)
    }
  }

  async read(table: RelationTable, side: RelationSide, id: number, load: () => Promise<Set<number>>): Promise<ReadonlySet<number>> {
    const key = keyOf(table, side, id)
    const hit = this.kept.get(key)
    if (hit) return hit
    const since = this.clock
    const set = await load()
    if ((this.changedAt.get(key) ?? 0) <= since) this.kept.set(key, set)
    return set
  }
}

const caches = new WeakMap<Readers, RelationCache>()

/** Keeps relation sets read through `read` (a store's committed view, never a transaction's), dropped by `onAny`'s events. */
export function cacheRelations(read: Readers, onAny: (listener: (event: DomainEvent) => void) => unknown): void {
  const cache = new RelationCache()
  onAny((event) => cache.changed(event))
  caches.set(read, cache)
}

/** The cache of `r`, when it is a store's committed view that keeps one. */
export const relationCacheOf = (r: Readers): RelationCache | undefined => caches.get(r)
