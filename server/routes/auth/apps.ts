/** An app's view of its users: the tokens they granted it, and their ids. */
import Joi from 'joi'
import type { AuthServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, paginationQuery, userGeneralQuery } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentPage } from '../../present/page.js'
import { presentTokens } from '../../present/auth/token.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'

// Token lists page by token id; the stream-marker names of other lists mean nothing here.
const tokenPageQuery = {
  ...paginationQuery,
  since_id: Joi.number().integer().min(0).max(1e15),
  before_id: Joi.number().integer().min(0).max(1e15),
}

export const appRoutes = (auth: AuthServices, shared: Shared): SvcRoute[] => [
  {
    method: 'GET',
    path: '/apps/me/tokens',
    svc: { token: 'app', answer: 'PaginatedToken[]' },
    options: { validate: { query: Joi.object({ ...commonQuery, ...userGeneralQuery, ...tokenPageQuery }) } },
    handler: async (request) => {
      const { since_id, before_id, count } = request.query as { since_id?: number; before_id?: number; count: number }
      const page = await auth.tokens.listForApp(viewerOf(request), { since_id, before_id, count })
      const ctx = contextOf(request, shared.views)
      return presentPage(page, (infos) => presentTokens(ctx, infos))
    },
  },
  {
    method: 'GET',
    path: '/apps/me/tokens/user_ids',
    svc: { token: 'app', answer: 'string[]' },
    options: { validate: { query: Joi.object(commonQuery) } },
    handler: async (request) => ok((await auth.tokens.userIdsForApp(viewerOf(request))).map(String)),
  },
]
