/** The token's own profile: read it, replace it (PUT) or change some keys (PATCH). */
import Joi from 'joi'
import { ProfileInput, type UserServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, entitiesInput, userGeneralQuery } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentUser } from '../../present/users/user.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'

const profileQuery = Joi.object({ ...commonQuery, ...userGeneralQuery })

/**
 * Clients PUT back the whole user they fetched (ids as integers, counts,
 * images, html, output entities), so unknown keys are ignored and echoed
 * mentions and hashtags are not read; the domain checks what is kept.
 */
const profilePayload = Joi.object({
  name: Joi.string().allow('').max(1000),
  locale: Joi.string().max(100),
  timezone: Joi.string().max(100),
  description: Joi.object({
    text: Joi.string().allow('').max(20000),
    entities: entitiesInput().keys({ mentions: Joi.any(), hashtags: Joi.any() }),
  }).unknown(true),
  annotations: Joi.array().max(100).items(Joi.object().unknown(true)),
})
  .unknown(true)
  .allow(null)

export const profileRoutes = (users: UserServices, shared: Shared): SvcRoute[] => [
  {
    method: 'GET',
    path: '/users/me',
    svc: { token: 'user', answer: 'User' },
    options: { validate: { query: profileQuery } },
    handler: async (request) => ok(await presentUser(contextOf(request, shared.views), await users.accounts.resolve('me', viewerOf(request)))),
  },
  ...(['PUT', 'PATCH'] as const).map((method): SvcRoute => ({
    method,
    path: '/users/me',
    svc: { token: 'user', scopes: ['update_profile'], answer: 'User' },
    options: { validate: { query: profileQuery, payload: profilePayload } },
    handler: async (request) => {
      const { name, locale, timezone, description, annotations } = (request.payload ?? {}) as ProfileInput
      const input = { name, locale, timezone, description, annotations }
      const user = method === 'PUT' ? await users.profiles.replace(viewerOf(request), input) : await users.profiles.update(viewerOf(request), input)
      return ok(await presentUser(contextOf(request, shared.views), user))
    },
  })),
]
