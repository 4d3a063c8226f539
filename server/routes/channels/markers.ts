/** Stream markers: `POST /posts/marker` sets one marker or a list of them (counted as a read by the rate limits). */
import Joi from 'joi'
import type { ChannelServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, flag, idParam } from '../../params.js'
import { presentMarker } from '../../present/channels/marker.js'
import type { SvcRoute } from '../../route.js'

/** Only `name`, `id` and `percentage` are read; the rest of a marker sent back is ignored. */
const markerInput = Joi.object({
  name: Joi.string().max(128).required(),
  id: Joi.alternatives(idParam(), Joi.number().integer().min(1)),
  percentage: Joi.number().min(0).max(100),
}).unknown(true)

export const markerRoutes = (channels: ChannelServices): SvcRoute[] => [
  {
    method: 'POST',
    path: '/posts/marker',
    // Where a person has read to moves as they read: a write to the store, but not one the write limit is for.
    svc: { token: 'user', rateAs: 'read', answer: ['Marker', 'Marker[]'] },
    options: {
      validate: {
        query: Joi.object({ ...commonQuery, reset_read_id: flag().default(false) }),
        payload: Joi.alternatives(markerInput, Joi.array().min(1).max(50).items(markerInput)).required(),
      },
    },
    handler: async (request) => {
      const body = request.payload as
        { name: string; id?: string | number; percentage?: number } | { name: string; id?: string | number; percentage?: number }[]
      const list = Array.isArray(body) ? body : [body]
      const inputs = list.map(({ name, id, percentage }) => ({ name, id: id === undefined ? undefined : Number(id), percentage }))
      const rows = await channels.markers.set(viewerOf(request), inputs, { resetReadId: request.query.reset_read_id as boolean })
      const shaped = rows.map((row) => presentMarker(row.name, row))
      return ok(Array.isArray(body) ? shaped : shaped[0])
    },
  },
]
