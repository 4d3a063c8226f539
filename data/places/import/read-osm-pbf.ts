/**
 * The places of an OpenStreetMap extract (`.osm.pbf`), streamed with
 * osm-pbf-parser-node: named nodes and ways with a point-of-interest key.
 * Ways are placed at the centroid of their nodes. Relations (multipolygon
 * shops, a few per cent of such objects) are not read.
 */
import { createReadStream } from 'node:fs'
import type { TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { centroid } from '@turf/centroid'
import { OSMTransform } from 'osm-pbf-parser-node'
import type { Place } from '../../model/place.js'
import { NodeCoordinates } from './node-coordinates.js'
import { isPoiCandidate, placeOfOsm, type OsmTags } from './osm-tags.js'
import { formatError, type PlaceReader } from './place-reader.js'

interface OsmNode {
  type: 'node'
  id: number
  lat: number
  lon: number
  tags?: OsmTags
}

interface OsmWay {
  type: 'way'
  id: number
  refs: number[]
  tags?: OsmTags
}

/**
 * osm-pbf-parser-node throws from inside its transform when a block is
 * corrupt (a bad zlib stream, a cut file), which would escape the stream as
 * an uncaught exception: here it fails the stream instead.
 */
class CheckedOsmTransform extends OSMTransform {
  override _transform(chunk: Buffer, encoding: BufferEncoding, next: TransformCallback): void {
    try {
      super._transform(chunk, encoding, next)
    } catch (err) {
      next(err as Error)
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      super._flush(done)
    } catch (err) {
      done(err as Error)
    }
  }
}

type OsmEntity = OsmNode | OsmWay | { type: 'relation' } | { type?: undefined }

function placeOfWay(way: OsmWay, tags: OsmTags, nodes: NodeCoordinates): Place | null {
  const points = way.refs.map((ref) => nodes.get(ref)).filter((p) => p !== undefined)
  if (points.length === 0) return null
  const closed = points.length >= 4 && way.refs[0] === way.refs[way.refs.length - 1]
  // A closed way's repeated first node must not weigh twice: turf leaves a polygon's closing point out.
  const geometry = closed ? { type: 'Polygon' as const, coordinates: [points] } : { type: 'MultiPoint' as const, coordinates: points }
  const [longitude, latitude] = centroid(geometry).geometry.coordinates
  return placeOfOsm('way', way.id, tags, latitude, longitude)
}

export const readOsmPbf: PlaceReader = async function* (path, onProgress) {
  const file = createReadStream(path, { highWaterMark: 1 << 20 })
  const parser = new CheckedOsmTransform({ withTags: true, withInfo: false })
  const done = pipeline(file, parser)
  // The loop below sees the same failure; this keeps it from going unhandled meanwhile.
  done.catch(() => undefined)
  const nodes = new NodeCoordinates()
  try {
    for await (const batch of parser as AsyncIterable<OsmEntity[]>) {
      const places: (Place | null)[] = []
      for (const entity of batch) {
        if (entity.type === 'node') {
          nodes.add(entity.id, entity.lat, entity.lon)
          if (entity.tags === undefined || !isPoiCandidate(entity.tags)) continue
          places.push(placeOfOsm('node', entity.id, entity.tags, entity.lat, entity.lon))
        } else if (entity.type === 'way') {
          if (entity.tags === undefined || !isPoiCandidate(entity.tags)) continue
          places.push(placeOfWay(entity, entity.tags, nodes))
        }
      }
      if (places.length > 0) yield places
      onProgress?.(file.bytesRead)
    }
    await done
  } catch (err) {
    throw formatError(path, 'an OpenStreetMap PBF extract', err)
  } finally {
    file.destroy()
  }
}
