/** Places: one by id (any token), and a search around a point (user token; every search must come from a user's action). */
import Joi from 'joi'
import {
  PLACE_COUNT_DEFAULT,
  PLACE_COUNT_MAX,
  PLACE_QUERY_MAX_LENGTH,
  PLACE_RADIUS_DEFAULT,
  PLACE_RADIUS_MAX,
  PLACE_RADIUS_MIN,
  type Domain,
} from '../../../data/index.js'
import { ok } from '../../envelope.js'
import { commonQuery, flag } from '../../params.js'
import { presentPlace, presentPlaceHit } from '../../present/places/place.js'
import type { SvcRoute } from '../../route.js'

// The original API's own words for a missing coordinate.
const coordinate = (key: 'latitude' | 'longitude', max: number) =>
  Joi.number()
    .min(-max)
    .max(max)
    .required()
    .messages({
      'any.required': `You must supply a ${key} parameter.`,
      'number.base': `${key} must be a number from -${max} to ${max}`,
      'number.min': `${key} must be a number from -${max} to ${max}`,
      'number.max': `${key} must be a number from -${max} to ${max}`,
    })

const radiusMessage = `radius must be from ${PLACE_RADIUS_MIN} to ${PLACE_RADIUS_MAX} metres`
const countMessage = `count must be an integer from 1 to ${PLACE_COUNT_MAX}`

const searchQuery = Joi.object({
  ...commonQuery,
  latitude: coordinate('latitude', 90),
  longitude: coordinate('longitude', 180),
  q: Joi.string()
    .allow('')
    .max(PLACE_QUERY_MAX_LENGTH)
    .messages({ 'string.max': `q must be at most ${PLACE_QUERY_MAX_LENGTH} characters` }),
  radius: Joi.number()
    .min(PLACE_RADIUS_MIN)
    .max(PLACE_RADIUS_MAX)
    .default(PLACE_RADIUS_DEFAULT)
    .messages({ 'number.base': radiusMessage, 'number.min': radiusMessage, 'number.max': radiusMessage }),
  count: Joi.number()
    .integer()
    .min(1)
    .max(PLACE_COUNT_MAX)
    .default(PLACE_COUNT_DEFAULT)
    .messages({ 'number.base': countMessage, 'number.integer': countMessage, 'number.min': countMessage, 'number.max': countMessage }),
  remove_closed: flag().default(true).messages({ 'boolean.base': 'remove_closed must be 0 or 1' }),
  // Accepted as the original API did, and not used.
  altitude: Joi.number(),
  horizontal_accuracy: Joi.number().min(0),
  vertical_accuracy: Joi.number().min(0),
})

export const placeRoutes = (places: Domain['places']): SvcRoute[] => [
  {
    method: 'GET',
    path: '/places/search',
    svc: { token: 'user', answer: 'PlaceHit[]' },
    options: { validate: { query: searchQuery } },
    handler: async (request) => {
      const { latitude, longitude, q, radius, count, remove_closed } = request.query as Record<string, never>
      return ok((await places.search({ latitude, longitude, q, radius, count, remove_closed })).map(presentPlaceHit))
    },
  },
  {
    method: 'GET',
    path: '/places/{factual_id}',
    svc: { token: 'any', answer: 'Place' },
    options: {
      validate: {
        params: Joi.object({ factual_id: Joi.string().max(100).required() }),
        query: Joi.object(commonQuery),
      },
    },
    handler: async (request) => ok(presentPlace(await places.get(request.params.factual_id as string))),
  },
]
