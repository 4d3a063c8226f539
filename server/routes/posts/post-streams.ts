/** Lists of posts: a user's posts and mentions, the personal, unified and global streams, hashtags, threads. */
import Joi from 'joi'
import type { PostServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { commonQuery, flag, idParam, paginationQuery, postGeneralQuery, userRef } from '../../params.js'
import { cachedAnswer } from '../../present/answer-cache.js'
import { contextOf } from '../../present/context.js'
import { presentPostList } from '../../present/posts/post.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'
import { answerSubscribing } from '../../streams/subscribe.js'

const listQuery = Joi.object({ ...commonQuery, ...postGeneralQuery, ...paginationQuery })
const personalQuery = listQuery.keys({ has_oembed_photo: flag() })
const userParams = Joi.object({ user_id: userRef().required() })

export const postStreamRoutes = (posts: PostServices, shared: Shared): SvcRoute[] => [
  {
    method: 'GET',
    path: '/users/{user_id}/posts',
    svc: { token: 'none', answer: 'PaginatedPost[]' },
    options: { validate: { params: userParams, query: listQuery } },
    handler: async (request) => {
      const answer = () =>
        cachedAnswer(request, shared, async (ctx) =>
          presentPostList(ctx, await posts.streams.ofUser(viewerOf(request), request.params.user_id as string, request.query)),
        )
      return request.params.user_id === 'me' ? answerSubscribing(request, shared.userStreams, { endpoint: 'users/me/posts' }, answer) : answer()
    },
  },
  {
    method: 'GET',
    path: '/users/{user_id}/mentions',
    svc: { token: 'any', answer: 'PaginatedPost[]' },
    options: { validate: { params: userParams, query: listQuery } },
    handler: async (request) => {
      const answer = () =>
        cachedAnswer(request, shared, async (ctx) =>
          presentPostList(ctx, await posts.streams.mentions(viewerOf(request), request.params.user_id as string, request.query)),
        )
      return request.params.user_id === 'me' ? answerSubscribing(request, shared.userStreams, { endpoint: 'users/me/mentions' }, answer) : answer()
    },
  },
  {
    method: 'GET',
    path: '/posts/stream',
    svc: { token: 'user', scopes: ['stream'], answer: 'PaginatedPost[]' },
    options: { validate: { query: personalQuery } },
    handler: async (request) =>
      answerSubscribing(request, shared.userStreams, { endpoint: 'posts/stream' }, () =>
        cachedAnswer(request, shared, async (ctx) => presentPostList(ctx, await posts.streams.personal(viewerOf(request), request.query))),
      ),
  },
  {
    method: 'GET',
    path: '/posts/stream/unified',
    svc: { token: 'user', scopes: ['stream'], answer: 'PaginatedPost[]' },
    options: { validate: { query: personalQuery } },
    handler: async (request) =>
      answerSubscribing(request, shared.userStreams, { endpoint: 'posts/stream/unified' }, () =>
        cachedAnswer(request, shared, async (ctx) => presentPostList(ctx, await posts.streams.unified(viewerOf(request), request.query))),
      ),
  },
  {
    method: 'GET',
    path: '/posts/stream/global',
    svc: { token: 'none', answer: 'PaginatedPost[]' },
    options: { validate: { query: listQuery } },
    handler: async (request) => presentPostList(contextOf(request, shared.views), await posts.streams.global(viewerOf(request), request.query)),
  },
  {
    method: 'GET',
    path: '/posts/tag/{hashtag}',
    svc: { token: 'none', answer: 'PaginatedPost[]' },
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
      presentPostList(contextOf(request, shared.views), await posts.streams.tag(viewerOf(request), request.params.hashtag as string, request.query)),
  },
  {
    method: 'GET',
    path: '/posts/{post_id}/replies',
    svc: { token: 'any', answer: 'PaginatedPost[]' },
    options: { validate: { params: Joi.object({ post_id: idParam().required() }), query: listQuery } },
    handler: async (request) => {
      const postId = Number(request.params.post_id)
      return answerSubscribing(request, shared.userStreams, { endpoint: 'posts/replies', target: postId }, async () =>
        presentPostList(contextOf(request, shared.views), await posts.streams.thread(viewerOf(request), postId, request.query)),
      )
    },
  },
]
