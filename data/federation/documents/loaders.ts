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

/** The User-Agent svc fetches remote documents with. */
export const userAgentOf = (version: string, origin: string): string => `svc/${version} (+${origin}/)`

export interface LoaderOptions {
  kv: KvStore
  allowPrivateAddress: boolean
  userAgent: string
}

export interface Loaders {
  /** Fedify's `documentLoaderFactory`: documents fetched and kept in the store for five minutes. */
  documentLoaderFactory: DocumentLoaderFactory
  /** Fedify's `contextLoaderFactory`: the static contexts from Fedify's copies, any other as a document. */
  contextLoaderFactory: DocumentLoaderFactory
  /** Documents fetched anew whatever the store keeps, and kept there in place of what it had (a key that stopped verifying). */
  freshDocumentLoaderFactory: DocumentLoaderFactory
}

/** The loaders described above. */
export function loaderFactories({ kv, allowPrivateAddress, userAgent }: LoaderOptions): Loaders {
  const built = new Map<string, { kept: DocumentLoader; fresh: DocumentLoader }>()
  const loadersFor = (options?: DocumentLoaderFactoryOptions) => {
    const fetching = { allowPrivateAddress: options?.allowPrivateAddress ?? allowPrivateAddress, userAgent: options?.userAgent ?? userAgent }
    const key = JSON.stringify(fetching)
    let loaders = built.get(key)
    if (!loaders) {
      const fetch = getDocumentLoader(fetching)
      built.set(key, (loaders = { kept: keptInStore(kv, fetch), fresh: (url) => fetchedAndKept(kv, fetch, url) }))
    }
    return loaders
  }
  const documentLoaderFactory = (options?: DocumentLoaderFactoryOptions): DocumentLoader => loadersFor(options).kept
  const preloaded = getDocumentLoader()
  const contextLoaderFactory = (options?: DocumentLoaderFactoryOptions): DocumentLoader => {
    const other = documentLoaderFactory(options)
    return async (url) => (STATIC_CONTEXTS.has(url) ? { ...(await preloaded(url)), tag: 'static' } : other(url))
  }
  return { documentLoaderFactory, contextLoaderFactory, freshDocumentLoaderFactory: (options) => loadersFor(options).fresh }
}

/** `load`, with what it loaded kept in `kv` for a while and answered from there meanwhile (Fedify's `kvCache`, for every URL). */
function keptInStore(kv: KvStore, load: DocumentLoader): DocumentLoader {
  return async (url) => (await kv.get<RemoteDocument>(keyOf(url)).catch(() => undefined)) ?? fetchedAndKept(kv, load, url)
}

/** The document at `url`, loaded now and kept in `kv` (in place of any kept before). */
async function fetchedAndKept(kv: KvStore, load: DocumentLoader, url: string): Promise<RemoteDocument> {
  const loaded = await load(url)
  await kv.set(keyOf(url), loaded, { ttl: KEPT_FOR }).catch((err: unknown) => {
    process.emitWarning(`svc: keeping the document of ${url} failed: ${(err as Error).message}`)
  })
  return loaded
}

const keyOf = (url: string): KvKey => [...REMOTE_DOCUMENT_PREFIX, url]
