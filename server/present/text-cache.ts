/**
 * The presenters' caches of JSON text kept per row id (a post, a user): one
 * per domain, made on first use and dropped with it, so two instances in one
 * process never share rows. lru-cache bounds each by count and by the
 * characters it holds, so a run of very long posts cannot pin more memory
 * than the same number of short ones.
 */
import { LRUCache } from 'lru-cache'

export interface TextCacheLimits<V> {
  /** Rows kept at most. */
  max: number
  /** Characters of kept text at most, over all rows. */
  maxChars: number
  /** The characters of text one kept value holds. */
  charsOf: (value: V) => number
}

/** A getter of the domain's cache, keyed by row id; the value holds the rows it was made from, so a replaced row is a miss. */
export function textCachePerDomain<V extends object>(limits: TextCacheLimits<V>): (domain: object) => LRUCache<number, V> {
  const caches = new WeakMap<object, LRUCache<number, V>>()
  return (domain) => {
    let cache = caches.get(domain)
    if (!cache) {
      // lru-cache wants a positive size: an entry of no text still takes a slot.
      cache = new LRUCache<number, V>({ max: limits.max, maxSize: limits.maxChars, sizeCalculation: (value) => Math.max(1, limits.charsOf(value)) })
      caches.set(domain, cache)
    }
    return cache
  }
}
