/** Filters: the current user's saved filters, for use in streams. */
import Joi from 'joi'
import type { Domain, FilterInput } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, idParam, userGeneralQuery } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentFilter, presentFilters } from '../../present/filters/filter.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'

const query = Joi.object({ ...commonQuery, ...userGeneralQuery })
const params = Joi.object({ filter_id: idParam().required() })

const scalar = () => Joi.alternatives(Joi.string().allow(''), Joi.number())

/**
 * Shapes only: the domain checks the policies, object types, operators and
 * values, and names the clause. A string value stays a string (`"5"` is kept
 * as `"5"`; form bodies send every number that way and lt/gt read it as one).
 */
const clause = Joi.object({
  object_type: Joi.string().required(),
  operator: Joi.string().required(),
  field: Joi.string().allow('').required(),
  value: Joi.alternatives(scalar(), Joi.boolean(), Joi.array().items(scalar())).required(),
}).unknown(true)

/** Only `name`, `match_policy` and `clauses` are read; `id`, `owner` and the rest of a filter sent back are ignored. */
const filterBody = Joi.object({
  name: Joi.string().allow('', null),
  match_policy: Joi.string().required(),
  clauses: Joi.array().items(clause).required(),
})
  .unknown(true)
  .required()

const inputOf = (payload: unknown): FilterInput => {
  const { name, match_policy, clauses } = payload as FilterInput
  return { name, match_policy, clauses }
}

const filterId = (request: { params: Record<string, unknown> }): number => Number(request.params.filter_id)

export const filterRoutes = (filters: Domain['filters'], shared: Shared): SvcRoute[] => [
  {
    method: 'POST',
    path: '/filters',
    svc: { token: 'user', answer: 'Filter' },
    options: { validate: { query, payload: filterBody } },
    handler: async (request) => {
      const viewer = viewerOf(request)
      return ok(await presentFilter(contextOf(request, shared.views), await filters.create(viewer, inputOf(request.payload)), viewer.user ?? null))
    },
  },
  {
    method: 'GET',
    path: '/filters',
    svc: { token: 'user', answer: 'Filter[]' },
    options: { validate: { query } },
    handler: async (request) => {
      const viewer = viewerOf(request)
      return ok(await presentFilters(contextOf(request, shared.views), await filters.list(viewer), viewer.user ?? null))
    },
  },
  {
    method: 'DELETE',
    path: '/filters',
    svc: { token: 'user', answer: 'Filter[]' },
    options: { validate: { query } },
    handler: async (request) => {
      const viewer = viewerOf(request)
      return ok(await presentFilters(contextOf(request, shared.views), await filters.removeAll(viewer), viewer.user ?? null))
    },
  },
  {
    method: 'GET',
    path: '/filters/{filter_id}',
    svc: { token: 'user', answer: 'Filter' },
    options: { validate: { params, query } },
    handler: async (request) => {
      const viewer = viewerOf(request)
      return ok(await presentFilter(contextOf(request, shared.views), await filters.get(viewer, filterId(request)), viewer.user ?? null))
    },
  },
  {
    method: 'PUT',
    path: '/filters/{filter_id}',
    svc: { token: 'user', answer: 'Filter' },
    options: { validate: { params, query, payload: filterBody } },
    handler: async (request) => {
      const viewer = viewerOf(request)
      const filter = await filters.replace(viewer, filterId(request), inputOf(request.payload))
      return ok(await presentFilter(contextOf(request, shared.views), filter, viewer.user ?? null))
    },
  },
  {
    method: 'DELETE',
    path: '/filters/{filter_id}',
    svc: { token: 'user', answer: 'Filter' },
    options: { validate: { params, query } },
    handler: async (request) => {
      const viewer = viewerOf(request)
      return ok(await presentFilter(contextOf(request, shared.views), await filters.remove(viewer, filterId(request)), viewer.user ?? null))
    },
  },
]
