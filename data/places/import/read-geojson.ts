/**
 * The places of a GeoJSON FeatureCollection, streamed with stream-json so a
 * file larger than memory reads one feature at a time. Points are places
 * where they are; lines and polygons at the centroid of their coordinates.
 */
import { createReadStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import { centroid } from '@turf/centroid'
import type { Geometry } from 'geojson'
import parserStream from 'stream-json'
import { pick } from 'stream-json/filters/pick.js'
import { streamArray } from 'stream-json/streamers/stream-array.js'
import type { Place } from '../../model/place.js'
import { placeIdOf } from '../place-ids.js'
import { placeFieldsOf } from './geojson-properties.js'
import { formatError, sourceBaseName, type PlaceReader } from './place-reader.js'

interface Feature {
  type?: unknown
  id?: unknown
  geometry?: Geometry | null
  properties?: Record<string, unknown> | null
}

const validPosition = (lon: unknown, lat: unknown): boolean => typeof lat === 'number' && typeof lon === 'number' && Math.abs(lat) <= 90 && Math.abs(lon) <= 180

function positionOf(geometry: Geometry | null | undefined): [number, number] | null {
  if (geometry === null || geometry === undefined || typeof geometry !== 'object') return null
  try {
    const [lon, lat] = geometry.type === 'Point' ? geometry.coordinates : centroid(geometry).geometry.coordinates
    return validPosition(lon, lat) ? [lon, lat] : null
  } catch {
    // A geometry with no coordinates (or broken ones) has no centroid.
    return null
  }
}

function placeOfFeature(feature: Feature, index: number, base: string): Place | null {
  const properties = feature.properties ?? {}
  const position = positionOf(feature.geometry)
  const { name, ...fields } = placeFieldsOf(properties)
  if (position === null || name === undefined) return null
  const ownId = typeof feature.id === 'string' || typeof feature.id === 'number' ? feature.id : properties.id
  const sourceRef = `geojson:${base}:${typeof ownId === 'string' || typeof ownId === 'number' ? ownId : index}`
  const place: Place = { id: placeIdOf(sourceRef), name, ...fields, latitude: position[1], longitude: position[0], source_ref: sourceRef }
  return Object.fromEntries(Object.entries(place).filter(([, v]) => v !== undefined)) as Place
}

const BATCH = 1000

export const readGeoJson: PlaceReader = async function* (path, onProgress) {
  const file = createReadStream(path, { highWaterMark: 1 << 20 })
  const features = streamArray.asStream()
  const done = pipeline(file, parserStream(), pick.asStream({ filter: 'features' }), features)
  // The loop below sees the same failure; this keeps it from going unhandled meanwhile.
  done.catch(() => undefined)
  const base = sourceBaseName(path)
  let index = 0
  let places: (Place | null)[] = []
  try {
    for await (const { value } of features as AsyncIterable<{ value: Feature }>) {
      places.push(typeof value === 'object' && value !== null ? placeOfFeature(value, index, base) : null)
      index++
      if (places.length === BATCH) {
        yield places
        places = []
        onProgress?.(file.bytesRead)
      }
    }
    await done
    if (places.length > 0) yield places
    onProgress?.(file.bytesRead)
  } catch (err) {
    throw formatError(path, 'a GeoJSON FeatureCollection', err)
  } finally {
    file.destroy()
  }
}
