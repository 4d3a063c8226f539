/** Users: retrieve one or many. */
import Joi from 'joi'
import type { UserServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, idList, userGeneralQuery, userRef } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentUser, presentUsers } from '../../present/users/user.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'

export const userRoutes = (users: UserServices, shared: Shared): SvcRoute[] => [
  {
    method: 'GET',
    path: '/users/{user_id}',
    svc: { token: 'none', answer: 'User' },
    options: { validate: { params: Joi.object({ user_id: userRef().required() }), query: Joi.object({ ...commonQuery, ...userGeneralQuery }) } },
    handler: async (request) => {
      const user = await users.accounts.resolve(request.params.user_id as string, viewerOf(request))
      return ok(await presentUser(contextOf(request, shared.views), user))
    },
  },
  {
    method: 'GET',
    path: '/users',
    svc: { token: 'any', answer: 'User[]' },
    options: { validate: { query: Joi.object({ ...commonQuery, ...userGeneralQuery, ids: idList(200).required() }) } },
    handler: async (request) => {
      const ids = (request.query.ids as string[]).map(Number)
      const found = await users.accounts.getMany(ids)
      return ok(await presentUsers(contextOf(request, shared.views), found))
    },
  },
]
