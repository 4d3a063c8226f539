/**
 * The instance's small documents, kept with lowdb: `config.json` (what an
 * operator edits) and `meta.json` (the on-disk format version).
 */
import { randomBytes } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { JSONFilePreset } from 'lowdb/node'

export interface InstanceConfig {
  /** Display name of the instance. */
  name: string
  /** Anyone may create an account at /signup. */
  open_registration: boolean
  /** Public base URL (for canonical URLs and image links); empty: derived from each request. */
  public_url: string
  rate_limits: {
    enabled: boolean
    authenticated: { limit: number; window_s: number }
    write: { limit: number; window_s: number }
    unauthenticated: { limit: number; window_s: number }
  }
  limits: { following: number; max_file_size: number; storage: number }
  /** Seals (iron) the web sign-in cookie of the OAuth pages; generated at first start and kept. */
  session_secret: string
}

export const defaultConfig = (): InstanceConfig => ({
  name: 'svc',
  open_registration: true,
  public_url: '',
  rate_limits: {
    enabled: true,
    authenticated: { limit: 5000, window_s: 3600 },
    write: { limit: 20, window_s: 60 },
    unauthenticated: { limit: 50, window_s: 60 },
  },
  limits: { following: 40000, max_file_size: 10_000_000, storage: 500_000_000 },
  session_secret: randomBytes(32).toString('base64url'),
})

export interface MetaDoc {
  /** On-disk format version of the data dir. */
  format: number
  created_at: string
}

/** Reads (creating with defaults) the config document of `dataDir`. */
export async function loadConfig(dataDir: string): Promise<InstanceConfig> {
  await mkdir(dataDir, { recursive: true })
  const db = await JSONFilePreset<InstanceConfig>(join(dataDir, 'config.json'), defaultConfig())
  // Keys added by later versions get their defaults; the operator's values win.
  const merged = {
    ...defaultConfig(),
    ...db.data,
    rate_limits: { ...defaultConfig().rate_limits, ...db.data.rate_limits },
    limits: { ...defaultConfig().limits, ...db.data.limits },
  }
  db.data = merged
  await db.write()
  return merged
}

export async function readMeta(dataDir: string): Promise<MetaDoc | null> {
  const db = await JSONFilePreset<MetaDoc | null>(join(dataDir, 'meta.json'), null)
  return db.data
}

export async function writeMeta(dataDir: string, meta: MetaDoc): Promise<void> {
  await mkdir(dataDir, { recursive: true })
  const db = await JSONFilePreset<MetaDoc>(join(dataDir, 'meta.json'), meta)
  db.data = meta
  await db.write()
}
