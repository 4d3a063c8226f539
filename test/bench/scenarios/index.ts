/** Every benchmark scenario, in the order they run. Add a scenario by appending it here. */
import type { Scenario } from '../scenario.js'
import { httpBaseline } from './http-baseline.js'
import { apiAt } from './api-at-scale.js'
import { storeAt } from './store.js'
import { userStreams } from './user-streams.js'
import { appStreams } from './app-streams.js'
import { files } from './files.js'
import { webClient } from './web-client.js'
import { places } from './places.js'
import { cluster } from './cluster.js'
import { placesImport } from './places-import.js'
import { federation } from './federation.js'
import { federationBurst } from './federation-burst.js'

export const scenarios: Scenario[] = [
  httpBaseline,
  storeAt(10_000, '10k'),
  storeAt(1_000_000, '1M'),
  apiAt(1_000_000, '1M', true),
  apiAt(10_000_000, '10M', false),
  userStreams,
  appStreams,
  files,
  webClient,
  places,
  placesImport,
  cluster,
  federation,
  federationBurst,
]
