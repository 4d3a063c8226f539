/** Users: retrieve one or many. */
import Joi from 'joi'
import type { Domain } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, idList, userGeneralQuery, userRef } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentUser, presentUsers } from '../../present/users/user.js'
import type { SvcRoute } from '../../route.js'

export const userRoutes = (domain: Domain): SvcRoute[] => [
  {
    method: 'GET',
    path: '/users/{user_id}',
    svc: { token: 'none' },
    options: { validate: { params: Joi.object({ user_id: userRef().required() }), query: Joi.object({ ...commonQuery, ...userGeneralQuery }) } },
    handler: async (request) => {
      const user = await domain.users.resolve(request.params.user_id as string, viewerOf(request))
      return ok(await presentUser(contextOf(request, domain), user))
    },
  },
  {
    method: 'GET',
    path: '/users',
    svc: { token: 'any' },
    options: { validate: { query: Joi.object({ ...commonQuery, ...userGeneralQuery, ids: idList(200).required() }) } },
    handler: async (request) => {
      const ids = (request.query.ids as string[]).map(Number)
      const users = await domain.users.getMany(ids)
      return ok(await presentUsers(contextOf(request, domain), users))
    },
  },
]
