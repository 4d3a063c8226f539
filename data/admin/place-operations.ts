/**
 * The admin operations of places. `svc places import` writes the files
 * itself (places are not rows of the store) and then asks a running server
 * for `places.reload`, so its next search reads them.
 */
import type { AdminOperation } from './admin-operation.js'

export const placeOperations = {
  /** `{}` → the places stats (`{total, sources}`), the bundled source first. */
  'places.stats': async (domain) => domain.places.stats(),
  /** `{}` → the stats after forgetting the index: the next search or lookup reads the places again. */
  'places.reload': async (domain) => domain.places.reload(),
} satisfies Record<string, AdminOperation>
