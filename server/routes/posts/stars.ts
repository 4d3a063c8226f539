/** Stars: star and unstar a post, who starred a post, what a user starred. */
import Joi from 'joi'
import type { PostServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, idParam, paginationQuery, postGeneralQuery, userGeneralQuery, userRef } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentPage } from '../../present/page.js'
import { presentPost, presentPosts } from '../../present/posts/post.js'
import { presentUsers } from '../../present/users/user.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'

const postParams = Joi.object({ post_id: idParam().required() })

export const starRoutes = (posts: PostServices, shared: Shared): SvcRoute[] => [
  ...(['POST', 'DELETE'] as const).map((method): SvcRoute => ({
    method,
    path: '/posts/{post_id}/star',
    svc: { token: 'user', scopes: ['write_post'], answer: 'Post' },
    options: { validate: { params: postParams, query: Joi.object({ ...commonQuery, ...postGeneralQuery }) } },
    handler: async (request) => {
      const post = await posts.stars[method === 'POST' ? 'star' : 'unstar'](viewerOf(request), Number(request.params.post_id))
      return ok(await presentPost(contextOf(request, shared.views), post))
    },
  })),
  {
    method: 'GET',
    path: '/posts/{post_id}/stars',
    svc: { token: 'any', answer: 'PaginatedUser[]' },
    options: { validate: { params: postParams, query: Joi.object({ ...commonQuery, ...userGeneralQuery, ...paginationQuery }) } },
    handler: async (request) => {
      const page = await posts.stars.starrers(viewerOf(request), Number(request.params.post_id), request.query)
      return presentPage(page, (users) => presentUsers(contextOf(request, shared.views), users))
    },
  },
  {
    method: 'GET',
    path: '/users/{user_id}/stars',
    svc: { token: 'none', answer: 'PaginatedPost[]' },
    options: {
      validate: { params: Joi.object({ user_id: userRef().required() }), query: Joi.object({ ...commonQuery, ...postGeneralQuery, ...paginationQuery }) },
    },
    handler: async (request) => {
      const page = await posts.stars.ofUser(viewerOf(request), request.params.user_id as string, request.query)
      return presentPage(page, (posts) => presentPosts(contextOf(request, shared.views), posts))
    },
  },
]
