/** The API shape of a Place (spec: Place); search results add `distance`, in metres. */
import { placeValue, type Place as PlaceRow, type PlaceHit as PlaceHitRow } from '../../../data/index.js'
import type { Place, PlaceHit } from '../../api/index.js'

export const presentPlace = (place: PlaceRow): Place => placeValue(place)

export const presentPlaceHit = ({ place, distance }: PlaceHitRow): PlaceHit => ({ ...placeValue(place), distance })
