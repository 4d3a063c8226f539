/**
 * Remote servers' public keys, parsed, by key id: what an inbox POST's
 * signature is verified with. Fedify keeps a fetched key in the key-value
 * store as JSON-LD and, for every request, reads it back, expands it and
 * imports its PEM again: in a burst from servers svc knows, that was most
 * of a signature check's time. This cache holds the keys as Fedify parsed
 * them, in front of the same entries of the store (which survive a
 * restart, are shared by the nodes of a PostgreSQL store, and which
 * Fedify's own cache reads too). A key is used until a signature fails to
 * verify with it; Fedify's `verifyRequest` then fetches it again through
 * `loader` and sets the fresh one here, as Mastodon refetches a key that
 * stopped verifying (a rotated key). That refetch goes to the remote
 * server (`KeyFetchers.again`), but at most once a minute a key: forged
 * signatures under someone's key id must not make svc fetch it for each
 * of them. An unavailable key (`null`) is forgotten.
 */
import { CryptographicKey, Multikey, type Context, type DocumentLoader, type KvKey, type KvStore, type RemoteDocument } from '@fedify/fedify'
import type { Loaders } from '../documents/loaders.js'

type PublicKey = CryptographicKey | Multikey

/** The loaders a stored key's JSON-LD is read and written with. */
export interface KeyLoaders {
  documentLoader: DocumentLoader
  contextLoader: DocumentLoader
}

/** Where keys are fetched from for one request: the first time, and again after a signature failed with the key held (both made only when needed). */
export interface KeyFetchers {
  first: () => Promise<DocumentLoader>
  again: () => Promise<DocumentLoader>
}

/**
 * Where the key of a POST to an inbox is fetched from, as Fedify fetches
 * it: to user `identifier`'s inbox, signed as that user (servers in secure
 * mode answer no other), never from the store's copy; to the shared inbox
 * (`identifier` undefined), unsigned, first from the store's copy, anew
 * after a signature failed with the key held.
 */
export function keyFetchersFor(ctx: Context<void>, identifier: string | undefined, loaders: Loaders): KeyFetchers {
  if (identifier !== undefined) {
    let signed: Promise<DocumentLoader> | undefined
    const fetch = () => (signed ??= ctx.getDocumentLoader({ identifier }))
    return { first: fetch, again: fetch }
  }
  return { first: async () => loaders.documentLoaderFactory(), again: async () => loaders.freshDocumentLoaderFactory() }
}

/** Where Fedify keeps public keys in its key-value store (`kvPrefixes.publicKey`). */
const PUBLIC_KEY_PREFIX = ['_fedify', 'publicKey'] as const

/** Keys held parsed; beyond, the least recently used is dropped (it is still in the store). */
const MOST_KEYS = 10_000

/** A key that stopped verifying is fetched anew from its server at most this often, ms; meanwhile what that fetch answered stands. */
export const REFETCH_INTERVAL_MS = 60_000

export class KeyCache {
  private readonly keys = new Map<string, PublicKey>()
  /** The last fetch of each key held after a signature failed with it: when, and what it answered. */
  private readonly refetched = new Map<string, { at: number; document: Promise<RemoteDocument> }>()

  constructor(
    private readonly kv: KvStore,
    private readonly loaders: KeyLoaders,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The document loader for Fedify's `verifyRequest` to fetch keys with:
   * a key not held here from `fetchers.first`; a key held here is being
   * fetched again because a signature failed with it, from
   * `fetchers.again` unless that was done within the last minute, whose
   * answer then stands.
   */
  loader(fetchers: KeyFetchers): DocumentLoader {
    return async (url) => {
      const id = new URL(url).href
      if (!this.keys.has(id)) return (await fetchers.first())(url)
      const last = this.refetched.get(id)
      if (last && this.now() - last.at < REFETCH_INTERVAL_MS) return last.document
      const document = fetchers.again().then((load) => load(url))
      this.refetched.set(id, { at: this.now(), document })
      return document
    }
  }

  /** Fedify's `KeyCache`: the key of `keyId`, parsed, or undefined when it is to be fetched. */
  async get(keyId: URL): Promise<PublicKey | undefined> {
    const held = this.keys.get(keyId.href)
    if (held) {
      // Most recently used last: the first in the map is the one to drop.
      this.keys.delete(keyId.href)
      this.keys.set(keyId.href, held)
      return held
    }
    const stored = await this.kv.get<unknown>(keyOf(keyId))
    if (stored == null) return undefined
    const key = await parsed(stored, this.loaders).catch(() => null)
    if (!key) return undefined
    this.hold(keyId.href, key)
    return key
  }

  /** Fedify's `KeyCache`: `key` was fetched for `keyId`: kept here and in the store; null (it could not be had): forgotten in both. */
  async set(keyId: URL, key: PublicKey | null): Promise<void> {
    if (key === null) {
      this.keys.delete(keyId.href)
      this.refetched.delete(keyId.href)
      return this.kv.delete(keyOf(keyId))
    }
    this.keys.delete(keyId.href)
    this.hold(keyId.href, key)
    await this.kv.set(keyOf(keyId), await key.toJsonLd(this.loaders))
  }

  private hold(id: string, key: PublicKey): void {
    this.keys.set(id, key)
    if (this.keys.size <= MOST_KEYS) return
    const oldest = this.keys.keys().next().value as string
    this.keys.delete(oldest)
    this.refetched.delete(oldest)
  }
}

const keyOf = (keyId: URL): KvKey => [...PUBLIC_KEY_PREFIX, keyId.href]

/** A stored key, as Fedify's own cache reads it: a CryptographicKey, or else a Multikey. */
async function parsed(json: unknown, loaders: KeyLoaders): Promise<PublicKey> {
  try {
    return await CryptographicKey.fromJsonLd(json, loaders)
  } catch {
    return Multikey.fromJsonLd(json, loaders)
  }
}
