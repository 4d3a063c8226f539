/** User search: usernames, names and descriptions, best match first. */
import Joi from 'joi'
import type { Domain } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { commonQuery, paginationQuery, userGeneralQuery } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentPage } from '../../present/page.js'
import { presentUsers } from '../../present/users/user.js'
import type { SvcRoute } from '../../route.js'

const searchQuery = Joi.object({ ...commonQuery, ...userGeneralQuery, ...paginationQuery, q: Joi.string().trim().max(1000).required() })

export const userSearchRoutes = (domain: Domain): SvcRoute[] => [
  {
    method: 'GET',
    path: '/users/search',
    svc: { token: 'any' },
    options: { validate: { query: searchQuery } },
    handler: async (request) => {
      const page = await domain.userSearch.search(viewerOf(request), { q: request.query.q as string }, request.query)
      return presentPage(page, (users) => presentUsers(contextOf(request, domain), users))
    },
  },
]
