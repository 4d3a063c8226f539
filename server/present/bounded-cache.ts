/**
 * A cache of at most about `2 × size` entries that keeps what was used
 * recently: two generations of Maps; a hit in the older one moves the entry
 * to the newer, and when the newer fills up the older is dropped whole. No
 * per-entry bookkeeping, so a hit costs one or two Map lookups.
 */
export class BoundedCache<K, V> {
  private recent = new Map<K, V>()
  private older = new Map<K, V>()

  constructor(private readonly size: number) {}

  get(key: K): V | undefined {
    const hit = this.recent.get(key)
    if (hit !== undefined) return hit
    const old = this.older.get(key)
    if (old !== undefined) this.set(key, old)
    return old
  }

  set(key: K, value: V): void {
    if (this.recent.size >= this.size && !this.recent.has(key)) {
      this.older = this.recent
      this.recent = new Map()
    }
    this.recent.set(key, value)
  }
}

/** One cache per owner (a domain), made on first use, dropped with its owner. */
export function cachePerOwner<O extends object, C>(make: () => C): (owner: O) => C {
  const caches = new WeakMap<O, C>()
  return (owner) => {
    let cache = caches.get(owner)
    if (!cache) caches.set(owner, (cache = make()))
    return cache
  }
}
