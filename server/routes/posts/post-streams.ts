/** Lists of posts: a user's posts and mentions, the personal, unified and global streams, hashtags, threads. */
import Joi from 'joi'
import type { Domain } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { commonQuery, flag, idParam, paginationQuery, postGeneralQuery, userRef } from '../../params.js'
import { cachedAnswer } from '../../present/answer-cache.js'
import { contextOf } from '../../present/context.js'
import { presentPostList } from '../../present/posts/post.js'
import type { SvcRoute } from '../../route.js'
import { answerSubscribing } from '../../streams/subscribe.js'

const listQuery = Joi.object({ ...commonQuery, ...postGeneralQuery, ...paginationQuery })
const personalQuery = listQuery.keys({ has_oembed_photo: flag() })
const userParams = Joi.object({ user_id: userRef().required() })

export const postStreamRoutes = (domain: Domain): SvcRoute[] => [
  {
    method: 'GET',
    path: '/users/{user_id}/posts',
    svc: { token: 'none' },
    options: { validate: { params: userParams, query: listQuery } },
    handler: async (request) => {
      const answer = () =>
        cachedAnswer(request, domain, async (ctx) =>
          presentPostList(ctx, await domain.postStreams.ofUser(viewerOf(request), request.params.user_id as string, request.query)),
        )
      return request.params.user_id === 'me' ? answerSubscribing(request, domain, { endpoint: 'users/me/posts' }, answer) : answer()
    },
  },
  {
    method: 'GET',
    path: '/users/{user_id}/mentions',
    svc: { token: 'any' },
    options: { validate: { params: userParams, query: listQuery } },
    handler: async (request) => {
      const answer = () =>
        cachedAnswer(request, domain, async (ctx) =>
          presentPostList(ctx, await domain.postStreams.mentions(viewerOf(request), request.params.user_id as string, request.query)),
        )
      return request.params.user_id === 'me' ? answerSubscribing(request, domain, { endpoint: 'users/me/mentions' }, answer) : answer()
    },
  },
  {
    method: 'GET',
    path: '/posts/stream',
    svc: { token: 'user', scopes: ['stream'] },
    options: { validate: { query: personalQuery } },
    handler: async (request) =>
      answerSubscribing(request, domain, { endpoint: 'posts/stream' }, () =>
        cachedAnswer(request, domain, async (ctx) => presentPostList(ctx, await domain.postStreams.personal(viewerOf(request), request.query))),
      ),
  },
  {
    method: 'GET',
    path: '/posts/stream/unified',
    svc: { token: 'user', scopes: ['stream'] },
    options: { validate: { query: personalQuery } },
    handler: async (request) =>
      answerSubscribing(request, domain, { endpoint: 'posts/stream/unified' }, () =>
        cachedAnswer(request, domain, async (ctx) => presentPostList(ctx, await domain.postStreams.unified(viewerOf(request), request.query))),
      ),
  },
  {
    method: 'GET',
    path: '/posts/stream/global',
    svc: { token: 'none' },
    options: { validate: { query: listQuery } },
    handler: async (request) => presentPostList(contextOf(request, domain), await domain.postStreams.global(viewerOf(request), request.query)),
  },
  {
    method: 'GET',
    path: '/posts/tag/{hashtag}',
    svc: { token: 'none' },
    options: {
      validate: {
        params: Joi.object({
          hashtag: Joi.string()
            .max(256)
            .pattern(/^#?[\p{L}\p{N}_]+$/u)
            .required(),
        }),
        query: listQuery,
      },
    },
    handler: async (request) =>
      presentPostList(contextOf(request, domain), await domain.postStreams.tag(viewerOf(request), request.params.hashtag as string, request.query)),
  },
  {
    method: 'GET',
    path: '/posts/{post_id}/replies',
    svc: { token: 'any' },
    options: { validate: { params: Joi.object({ post_id: idParam().required() }), query: listQuery } },
    handler: async (request) => {
      const postId = Number(request.params.post_id)
      return answerSubscribing(request, domain, { endpoint: 'posts/replies', target: postId }, async () =>
        presentPostList(contextOf(request, domain), await domain.postStreams.thread(viewerOf(request), postId, request.query)),
      )
    },
  },
]
