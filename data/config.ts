/**
 * The instance's small documents, kept with lowdb: `config.json` (what an
 * operator edits, declared and checked at every start by `config-schema.ts`) and
 * `meta.json` (the on-disk format version). Both are written 0600.
 */
import { join } from 'node:path'
import { Low } from 'lowdb'
import { checkConfig, defaultConfig, type InstanceConfig } from './config-schema.js'
import { DomainError } from './errors.js'
import { PrivateJsonFile } from './disk/private-json-file.js'

export { defaultConfig, type InstanceConfig } from './config-schema.js'

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
  const { value, hasSecret, error } = checkConfig(db.data)
  if (error !== null) throw new DomainError('invalid', `${configPath(dataDir)}: ${error}`)
  if (!hasSecret) {
    db.data = { ...(db.data as object), session_secret: value.session_secret }
    await db.write()
  }
  return value
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
