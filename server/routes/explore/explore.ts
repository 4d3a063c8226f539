/** Explore streams: the list the instance's admins curate, and each stream's posts. */
import Joi from 'joi'
import { EXPLORE_SLUG_PATTERN, type Domain } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, paginationQuery, postGeneralQuery } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentExplorePosts, presentExploreStream } from '../../present/explore/explore.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'

export const exploreRoutes = (explore: Domain['explore'], shared: Shared): SvcRoute[] => [
  {
    method: 'GET',
    path: '/posts/stream/explore',
    svc: { token: 'none', answer: 'ExploreStream[]' },
    options: { validate: { query: Joi.object(commonQuery) } },
    handler: async (request) => {
      const ctx = contextOf(request, shared.views)
      return ok((await explore.list()).map((s) => presentExploreStream(ctx, s)))
    },
  },
  {
    method: 'GET',
    path: '/posts/stream/explore/{slug}',
    svc: { token: 'none', answer: 'PaginatedPost[]' },
    options: {
      validate: {
        params: Joi.object({
          slug: Joi.string().pattern(EXPLORE_SLUG_PATTERN).required().messages({ 'string.pattern.base': '{{#label}} must be a-z, 0-9 and -' }),
        }),
        query: Joi.object({ ...commonQuery, ...postGeneralQuery, ...paginationQuery }),
      },
    },
    handler: async (request) =>
      presentExplorePosts(contextOf(request, shared.views), await explore.posts(viewerOf(request), request.params.slug as string, request.query)),
  },
]
