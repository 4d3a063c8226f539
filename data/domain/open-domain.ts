/**
 * The one way in for the server, the CLI and tests: open a data dir's
 * config, bus, store and event log, and wire the services over them.
 * Nothing else happens until `domain.start()`.
 */
import { nanoid } from 'nanoid'
import { loadConfig, type InstanceConfig } from '../config.js'
import { EventLog } from '../events/event-log.js'
import { PASSWORD_COST, PasswordHasher } from '../security/passwords.js'
import { initDataDir, requireCurrentFormat } from '../store/data-dir.js'
import { FileStore, type FileStoreOptions } from '../store/embedded/file-store.js'
import type { Store } from '../store/port.js'
import { DomainBlocks } from '../federation/domain-blocks.js'
import { ModeratedUsers } from '../users/moderated-users.js'
import type { Domain } from './domain.js'
import { wireServices } from './wire-services.js'

export interface OpenDomainOptions extends FileStoreOptions {
  /** Overrides of the instance config (tests, `svc serve` flags). */
  config?: Partial<InstanceConfig>
  /**
   * A `postgres://` URL: the PostgreSQL store instead of the embedded one
   * (default: the config's `store`). Or a store already open on this data
   * dir, which the domain then owns: tests open theirs to write rows no
   * service would and to check what was stored.
   */
  store?: string | Store
  /** A `redis://` URL: the bus linking the nodes of an instance (default: the config's `bus`). */
  bus?: string
  /** Search the bundled GeoNames cities too (default true; tests that need only their own places leave them out, as loading them takes seconds). */
  bundledPlaces?: boolean
  /**
   * scrypt's N for new password hashes (a power of 2; default
   * `PASSWORD_COST.N`, 2^17). Tests lower it: they make hundreds of accounts.
   * Deliberately neither a config key nor an environment variable, so no
   * deployment weakens its hashes by mistake.
   */
  passwordCost?: number
}

/**
 * Opens the domain on `dataDir`, creating the data dir when it is missing,
 * and reads which accounts are moderated (every list of posts asks, so it
 * is known before the first read). Writes nothing: `start` does what has
 * effects. Throws `unavailable` for a data dir of another format (an older
 * one needs `svc migrate`) and `conflict` when another process holds it.
 */
export async function openDomain(dataDir: string, options: OpenDomainOptions = {}): Promise<Domain> {
  await initDataDir(dataDir)
  await requireCurrentFormat(dataDir)
  const config = overlaid(await loadConfig(dataDir), options.config ?? {})
  const given = typeof options.store === 'object' ? options.store : null
  const storeUrl = typeof options.store === 'string' && options.store ? options.store : config.store
  const busUrl = options.bus || config.bus
  // Processes sharing a PostgreSQL store tell their user streams apart by a node id of their own.
  const node = { id: nanoid(12), shared: given ? !(given instanceof FileStore) : Boolean(storeUrl) }
  // The Redis and PostgreSQL drivers are loaded only by an instance that uses them: the embedded store's start does without.
  const bus = busUrl ? await (await import('../bus/bus.js')).Bus.open(busUrl, config.session_secret) : null
  let store: Store
  try {
    store =
      given ??
      (storeUrl
        ? await (await import('../store/postgres/postgres-store.js')).PostgresStore.open(storeUrl, { create: true, bell: bus?.bell('events') })
        : await FileStore.open(dataDir, options))
  } catch (err) {
    await bus?.close()
    throw err
  }
  const events = await EventLog.open(store, config.events)
  const moderated = new ModeratedUsers(events)
  await moderated.load(store.read)
  const domainBlocks = new DomainBlocks(store, events, config.federation.allowed_domains)
  await domainBlocks.load()
  const passwords = new PasswordHasher({ ...PASSWORD_COST, N: options.passwordCost ?? PASSWORD_COST.N })
  return wireServices({
    dataDir,
    config,
    store,
    events,
    moderated,
    domainBlocks,
    node,
    bus,
    passwords,
    bundledPlaces: options.bundledPlaces ?? config.places.bundled,
  })
}

/** `config` with `over`'s keys in place of its own; a section (an object) only in the keys `over` gives for it. */
function overlaid(config: InstanceConfig, over: Partial<InstanceConfig>): InstanceConfig {
  const out: Record<string, unknown> = { ...config }
  for (const [key, value] of Object.entries(over)) {
    const mine = out[key]
    const section = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v)
    out[key] = section(value) && section(mine) ? { ...(mine as object), ...(value as object) } : value
  }
  return out as InstanceConfig
}
