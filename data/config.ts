/**
 * The instance's small documents, kept with lowdb: `config.json` (what an
 * operator edits, checked at every start against `config-schema.ts`) and
 * `meta.json` (the on-disk format version). Both are written 0600.
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { Low } from 'lowdb'
import { checkConfig } from './config-schema.js'
import { DomainError } from './errors.js'
import { PrivateJsonFile } from './disk/private-json-file.js'

export interface InstanceConfig {
  /** Display name of the instance. */
  name: string
  /** A line or two about the instance, shown on the web client's landing page. */
  description: string
  /** Anyone may create an account at /signup. */
  open_registration: boolean
  /** Public base URL (for canonical URLs and image links); empty: derived from each request whose Host is this machine's or allowed. */
  public_url: string
  /** Host names (`host` or `host:port`) svc answers as when `public_url` is empty, beside this machine's own (localhost, its addresses). */
  allowed_hosts: string[]
  /** Proxies whose X-Forwarded-For, -Proto and -Host are believed: addresses, CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`. */
  trusted_proxies: string[]
  rate_limits: {
    enabled: boolean
    authenticated: { limit: number; window_s: number }
    write: { limit: number; window_s: number }
    unauthenticated: { limit: number; window_s: number }
    /** HTML pages (the web client's page, user and post pages, the OAuth pages), per address. */
    pages: { limit: number; window_s: number }
  }
  limits: { following: number; max_file_size: number; storage: number }
  /** The event log: events are kept `retention_seconds` (clients resume within about 600 s), at most `max_events` of them. */
  events: { retention_seconds: number; max_events: number }
  /** Searches that scan: post search looks at the newest `window_posts` posts; at most `concurrent_scans` searches run at once (more get a 429). */
  search: { window_posts: number; concurrent_scans: number }
  /** Where the data lives: "" for the embedded store in the data dir, or a `postgres://` URL (`--store` and `SVC_STORE_URL` take precedence). */
  store: string
  /** A `redis://` URL linking several nodes (`--bus` and `SVC_BUS_URL` take precedence); "" for none. */
  bus: string
  /** Seals (iron) the web sign-in cookie of the OAuth pages; generated at first start and kept. */
  session_secret: string
}

export const defaultConfig = (): InstanceConfig => ({
  name: 'svc',
  description: 'A small social network. Sign up to post, follow people and message friends.',
  open_registration: true,
  public_url: '',
  allowed_hosts: [],
  trusted_proxies: [],
  rate_limits: {
    enabled: true,
    authenticated: { limit: 5000, window_s: 3600 },
    write: { limit: 20, window_s: 60 },
    unauthenticated: { limit: 50, window_s: 60 },
    pages: { limit: 300, window_s: 60 },
  },
  limits: { following: 40000, max_file_size: 10_000_000, storage: 500_000_000 },
  events: { retention_seconds: 900, max_events: 200_000 },
  search: { window_posts: 100_000, concurrent_scans: 2 },
  store: '',
  bus: '',
  session_secret: randomBytes(32).toString('base64url'),
})

export interface MetaDoc {
  /** On-disk format version of the data dir. */
  format: number
  created_at: string
}

export const configPath = (dataDir: string): string => join(dataDir, 'config.json')

/**
 * Reads and checks the config document of `dataDir`, writing the defaults
 * (with `initial` over them) when there is none. Keys the file leaves out
 * take their defaults. Throws `invalid`, in one line naming the file and the
 * key, for broken JSON, an unknown key, a wrong type or an out-of-range
 * value. The operator's file is rewritten only to add a missing
 * `session_secret`, which must outlive a restart.
 */
export async function loadConfig(dataDir: string, initial: Partial<InstanceConfig> = {}): Promise<InstanceConfig> {
  const db = new Low<unknown>(new PrivateJsonFile(configPath(dataDir)), null)
  await db.read()
  if (db.data === null) {
    db.data = { ...defaultConfig(), ...initial }
    await db.write()
    return db.data as InstanceConfig
  }
  const defaults = defaultConfig()
  const { value, error } = checkConfig(db.data, defaults)
  if (error !== null) throw new DomainError('invalid', `${configPath(dataDir)}: ${error}`)
  if (value.session_secret === undefined) {
    value.session_secret = defaults.session_secret
    db.data = { ...(db.data as object), session_secret: value.session_secret }
    await db.write()
  }
  return value as InstanceConfig
}

const metaDb = <T>(dataDir: string, initial: T) => new Low<T>(new PrivateJsonFile(join(dataDir, 'meta.json')), initial)

/** The data dir's meta document; `null` when there is none. Throws `invalid` when it is not JSON. */
export async function readMeta(dataDir: string): Promise<MetaDoc | null> {
  const db = metaDb<MetaDoc | null>(dataDir, null)
  await db.read()
  return db.data
}

export async function writeMeta(dataDir: string, meta: MetaDoc): Promise<void> {
  await metaDb(dataDir, meta).write()
}
