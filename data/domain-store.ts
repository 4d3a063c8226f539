/**
 * Which store each open domain runs on. The store is no part of `Domain`:
 * server/, admin/ and bin/ reach data only through the services, and
 * data/index.ts does not export this module. Tests' fixtures and the
 * benchmark seeder use `storeOf` to write rows no service would write.
 */
import type { Domain } from './domain.js'
import type { Store } from './store/port.js'

const stores = new WeakMap<Domain, Store>()

/** Records that `domain` runs on `store` (the wiring does, once). */
export function rememberStore(domain: Domain, store: Store): void {
  stores.set(domain, store)
}

/** The store under `domain`. For tests and the benchmark only; throws for an object no wiring made. */
export function storeOf(domain: Domain): Store {
  const store = stores.get(domain)
  if (!store) throw new Error('not a domain made by wireDomain')
  return store
}
