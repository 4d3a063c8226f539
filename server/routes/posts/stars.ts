/** Stars: star and unstar a post, who starred a post, what a user starred. */
import Joi from 'joi'
import type { Domain } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, idParam, paginationQuery, postGeneralQuery, userGeneralQuery, userRef } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentPage } from '../../present/page.js'
import { presentPost, presentPosts } from '../../present/posts/post.js'
import { presentUsers } from '../../present/users/user.js'
import type { SvcRoute } from '../../route.js'

const postParams = Joi.object({ post_id: idParam().required() })

export const starRoutes = (domain: Domain): SvcRoute[] => [
  ...(['POST', 'DELETE'] as const).map((method): SvcRoute => ({
    method,
    path: '/posts/{post_id}/star',
    svc: { token: 'user', scopes: ['write_post'] },
    options: { validate: { params: postParams, query: Joi.object({ ...commonQuery, ...postGeneralQuery }) } },
    handler: async (request) => {
      const post = await domain.stars[method === 'POST' ? 'star' : 'unstar'](viewerOf(request), Number(request.params.post_id))
      return ok(await presentPost(contextOf(request, domain), post))
    },
  })),
  {
    method: 'GET',
    path: '/posts/{post_id}/stars',
    svc: { token: 'any' },
    options: { validate: { params: postParams, query: Joi.object({ ...commonQuery, ...userGeneralQuery, ...paginationQuery }) } },
    handler: async (request) => {
      const page = await domain.stars.starrers(viewerOf(request), Number(request.params.post_id), request.query)
      return presentPage(page, (users) => presentUsers(contextOf(request, domain), users))
    },
  },
  {
    method: 'GET',
    path: '/users/{user_id}/stars',
    svc: { token: 'none' },
    options: {
      validate: { params: Joi.object({ user_id: userRef().required() }), query: Joi.object({ ...commonQuery, ...postGeneralQuery, ...paginationQuery }) },
    },
    handler: async (request) => {
      const page = await domain.stars.ofUser(viewerOf(request), request.params.user_id as string, request.query)
      return presentPage(page, (posts) => presentPosts(contextOf(request, domain), posts))
    },
  },
]
