/** Reads every source of places into a packed index: what the index worker runs (and nothing on the main thread). */
import { bundledIndex } from './bundled-index.js'
import { readSources, sourcePlaces } from './place-files.js'
import { PlaceIndexBuilder, type PackedPlaceIndex } from './place-index.js'

export interface IndexSources {
  placesDir: string
  bundled: boolean
}

export async function buildPackedIndex({ placesDir, bundled }: IndexSources): Promise<PackedPlaceIndex> {
  const sources = await readSources(placesDir)
  const cities = bundled ? await bundledIndex() : null
  if (cities && sources.length === 0) return cities.packed
  const builder = new PlaceIndexBuilder()
  if (cities) builder.addIndexed(cities.packed, cities.columns)
  for (const source of sources) {
    for await (const batch of sourcePlaces(placesDir, source)) for (const { place, line } of batch) builder.add(place, line)
  }
  return { ...builder.finish(), bundledCount: cities?.packed.count ?? 0 }
}
