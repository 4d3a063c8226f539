/** The API shape of a Place (spec: Place); search results add `distance`, in metres. */
import { placeValue, type Place, type PlaceHit } from '../../../data/index.js'

export const presentPlace = (place: Place): Record<string, unknown> => placeValue(place)

export const presentPlaceHit = ({ place, distance }: PlaceHit): Record<string, unknown> => ({ ...placeValue(place), distance })
