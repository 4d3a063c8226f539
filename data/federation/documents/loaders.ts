/**
 * The loaders Fedify reads remote documents with: actors and keys (its
 * document loader) and JSON-LD `@context`s (its context loader), as Fedify
 * builds them by default (fetched under the private-address rule, kept in
 * the key-value store for five minutes) but built once, not again for every
 * context Fedify creates (each build parsed durations and a URL pattern,
 * and each load matched the URL against it), and with the contexts below
 * kept by jsonld.js. Every activity, actor and key svc reads is expanded,
 * and jsonld.js keeps a context it has processed across expansions only
 * when its loader tags it `static`; Fedify's loader tags none, so each
 * expansion took the activity streams and security contexts (tens of
 * kilobytes) from the store again, walked and serialized them and looked
 * the result up: most of an expansion's time in an incoming burst. The
 * contexts named here are the W3C and vocabulary contexts Fedify ships
 * (preloaded, never fetched), which never change: they are answered from
 * Fedify's copies and tagged `static`.
 */
import {
  getDocumentLoader,
  type DocumentLoader,
  type DocumentLoaderFactory,
  type DocumentLoaderFactoryOptions,
  type KvKey,
  type KvStore,
  type RemoteDocument,
} from '@fedify/fedify'
import { Temporal } from '@js-temporal/polyfill'

/** The contexts Fedify 1.5 preloads (its runtime/contexts.js); a test checks each is still answered without a fetch. */
export const STATIC_CONTEXTS: ReadonlySet<string> = new Set([
  'https://www.w3.org/ns/activitystreams',
  'https://w3id.org/security/v1',
  'https://w3id.org/security/data-integrity/v1',
  'https://www.w3.org/ns/did/v1',
  'https://w3id.org/security/multikey/v1',
  'https://w3id.org/identity/v1',
  'https://purl.archive.org/socialweb/webfinger',
  'http://schema.org/',
  'https://gotosocial.org/ns',
])

/** Where Fedify's default loaders keep remote documents in its key-value store (`kvPrefixes.remoteDocument`), and for how long. */
const REMOTE_DOCUMENT_PREFIX = ['_fedify', 'remoteDocument'] as const
const KEPT_FOR = Temporal.Duration.from({ minutes: 5 })

export interface LoaderOptions {
  kv: KvStore
  allowPrivateAddress: boolean
  userAgent: string
}

/** Fedify's `documentLoaderFactory` and `contextLoaderFactory`, as described above. */
export function loaderFactories({ kv, allowPrivateAddress, userAgent }: LoaderOptions): {
  documentLoaderFactory: DocumentLoaderFactory
  contextLoaderFactory: DocumentLoaderFactory
} {
  const built = new Map<string, DocumentLoader>()
  const documentLoaderFactory = (options?: DocumentLoaderFactoryOptions): DocumentLoader => {
    const fetching = { allowPrivateAddress: options?.allowPrivateAddress ?? allowPrivateAddress, userAgent: options?.userAgent ?? userAgent }
    const key = JSON.stringify(fetching)
    let loader = built.get(key)
    if (!loader) built.set(key, (loader = keptInStore(kv, getDocumentLoader(fetching))))
    return loader
  }
  const preloaded = getDocumentLoader()
  const contextLoaderFactory = (options?: DocumentLoaderFactoryOptions): DocumentLoader => {
    const other = documentLoaderFactory(options)
    return async (url) => (STATIC_CONTEXTS.has(url) ? { ...(await preloaded(url)), tag: 'static' } : other(url))
  }
  return { documentLoaderFactory, contextLoaderFactory }
}

/** `load`, with what it loaded kept in `kv` for a while and answered from there meanwhile (Fedify's `kvCache`, for every URL). */
function keptInStore(kv: KvStore, load: DocumentLoader): DocumentLoader {
  return async (url) => {
    const key: KvKey = [...REMOTE_DOCUMENT_PREFIX, url]
    const kept = await kv.get<RemoteDocument>(key).catch(() => undefined)
    if (kept != null) return kept
    const loaded = await load(url)
    await kv.set(key, loaded, { ttl: KEPT_FOR }).catch((err: unknown) => {
      process.emitWarning(`svc: keeping the document of ${url} failed: ${(err as Error).message}`)
    })
    return loaded
  }
}
