/**
 * Fedify's key-value store over svc's store: what Fedify caches (remote
 * public keys, JSON-LD documents) and remembers (activities already
 * processed) survives a restart, and nodes sharing a PostgreSQL store share
 * it. Each `set` is one transaction, durable when it resolves. An expired
 * entry reads as absent at once and is removed by `sweep`.
 */
import { createHash } from 'node:crypto'
import type { KvKey, KvStore, KvStoreSetOptions } from '@fedify/fedify'
import type { Store } from '../store/port.js'

/** Longer keys (a remote document's URL can be kilobytes) are stored by their hash: an index key stays short. */
const LONGEST_KEY = 200

/** Expired entries removed per sweep transaction. */
const SWEEP_BATCH = 500

const keyOf = (key: KvKey): string => {
  const json = JSON.stringify(key)
  return json.length <= LONGEST_KEY ? json : `sha256:${createHash('sha256').update(json).digest('hex')}`
}

export class StoreKvStore implements KvStore {
  constructor(private readonly store: Store) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const row = await this.store.read.federation_kv.one('key', keyOf(key))
    if (!row || (row.expires_at !== undefined && row.expires_at <= Date.now())) return undefined
    return row.value as T
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const k = keyOf(key)
    const ttl = options?.ttl?.total({ unit: 'millisecond' })
    // JSON in and out: the store keeps JSON, and Fedify hands plain data.
    const row = { key: k, value: JSON.parse(JSON.stringify(value ?? null)) as unknown, ...(ttl === undefined ? {} : { expires_at: Date.now() + ttl }) }
    await this.store.transact(async (tx) => {
      const found = await tx.federation_kv.one('key', k)
      if (found) tx.federation_kv.put({ ...row, id: found.id })
      else tx.federation_kv.insert(row)
    })
  }

  async delete(key: KvKey): Promise<void> {
    const k = keyOf(key)
    await this.store.transact(async (tx) => {
      const found = await tx.federation_kv.one('key', k)
      if (found) tx.federation_kv.remove(found.id)
    })
  }

  /** Removes entries expired at `now` (ms); answers how many went. */
  async sweep(now: number = Date.now()): Promise<number> {
    let gone = 0
    let after = 0
    for (;;) {
      const ids = await this.store.read.federation_kv.ids('expiring', 1, { since: after, limit: SWEEP_BATCH, order: 'asc' })
      if (ids.length === 0) return gone
      after = ids[ids.length - 1]
      gone += await this.store.transact(async (tx) => {
        const expired = (await tx.federation_kv.getMany(ids)).filter((row) => row.expires_at !== undefined && row.expires_at <= now)
        for (const row of expired) tx.federation_kv.remove(row.id)
        return expired.length
      })
    }
  }
}
