/** Reposts: repost and unrepost a post, who reposted a post. */
import Joi from 'joi'
import type { PostServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, idParam, paginationQuery, postGeneralQuery, userGeneralQuery } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentPage } from '../../present/page.js'
import { presentPost } from '../../present/posts/post.js'
import { presentUsers } from '../../present/users/user.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'

const postParams = Joi.object({ post_id: idParam().required() })

export const repostRoutes = (posts: PostServices, shared: Shared): SvcRoute[] => [
  ...(['POST', 'DELETE'] as const).map((method): SvcRoute => ({
    method,
    path: '/posts/{post_id}/repost',
    svc: { token: 'user', scopes: ['write_post'], answer: 'Post' },
    options: { validate: { params: postParams, query: Joi.object({ ...commonQuery, ...postGeneralQuery }) } },
    handler: async (request) => {
      const post = await posts.reposts[method === 'POST' ? 'repost' : 'unrepost'](viewerOf(request), Number(request.params.post_id))
      return ok(await presentPost(contextOf(request, shared.views), post))
    },
  })),
  {
    method: 'GET',
    path: '/posts/{post_id}/reposters',
    svc: { token: 'any', answer: 'PaginatedUser[]' },
    options: { validate: { params: postParams, query: Joi.object({ ...commonQuery, ...userGeneralQuery, ...paginationQuery }) } },
    handler: async (request) => {
      const page = await posts.reposts.reposters(viewerOf(request), Number(request.params.post_id), request.query)
      return presentPage(page, (users) => presentUsers(contextOf(request, shared.views), users))
    },
  },
]
