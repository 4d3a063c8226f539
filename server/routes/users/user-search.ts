/** User search: usernames, names and descriptions, best match first. */
import Joi from 'joi'
import type { UserServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { commonQuery, paginationQuery, userGeneralQuery } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentPage } from '../../present/page.js'
import { presentUsers } from '../../present/users/user.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'

const searchQuery = Joi.object({ ...commonQuery, ...userGeneralQuery, ...paginationQuery, q: Joi.string().trim().max(1000).required() })

export const userSearchRoutes = (users: UserServices, shared: Shared): SvcRoute[] => [
  {
    method: 'GET',
    path: '/users/search',
    svc: { token: 'any', answer: 'PaginatedUser[]' },
    options: { validate: { query: searchQuery } },
    handler: async (request) => {
      const page = await users.search.search(viewerOf(request), { q: request.query.q as string }, request.query)
      return presentPage(page, (users) => presentUsers(contextOf(request, shared.views), users))
    },
  },
]
