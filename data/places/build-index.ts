/** Reads every source of places into a packed index: what the index worker runs (and nothing on the main thread). */
import { bundledPlaces } from './bundled-places.js'
import { readSources, sourcePlaces } from './place-files.js'
import { PlaceIndexBuilder, type PackedPlaceIndex } from './place-index.js'

export interface IndexSources {
  placesDir: string
  bundled: boolean
}

export async function buildPackedIndex({ placesDir, bundled }: IndexSources): Promise<PackedPlaceIndex> {
  const builder = new PlaceIndexBuilder()
  const cities = bundled ? bundledPlaces() : []
  for (const place of cities) builder.add(place, JSON.stringify(place))
  for (const source of await readSources(placesDir)) {
    for await (const batch of sourcePlaces(placesDir, source)) for (const { place, line } of batch) builder.add(place, line)
  }
  return { ...builder.finish(), bundledCount: cities.length }
}
