/** Posts: create (JSON or form), retrieve one or many, delete. */
import Joi from 'joi'
import { CreatePostInput, type PostServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, entitiesInput, flag, idList, idParam, postGeneralQuery } from '../../params.js'
import { cachedAnswer } from '../../present/answer-cache.js'
import { contextOf } from '../../present/context.js'
import { presentPost, presentPosts } from '../../present/posts/post.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'

const postParams = Joi.object({ post_id: idParam().required() })
const postQuery = Joi.object({ ...commonQuery, ...postGeneralQuery })

/** Only these keys of a post body are read; others (an access token, say) are ignored. */
const createPayload = Joi.object({
  text: Joi.string().allow('').max(20000),
  reply_to: Joi.alternatives(idParam(), Joi.number().integer().min(1)),
  machine_only: flag(),
  annotations: Joi.array().max(100).items(Joi.object().unknown(true)),
  entities: entitiesInput(),
})
  .unknown(true)
  .allow(null)

export const postRoutes = (posts: PostServices, shared: Shared): SvcRoute[] => [
  {
    method: 'POST',
    path: '/posts',
    svc: { token: 'user', scopes: ['write_post'], answer: 'Post' },
    options: { validate: { query: postQuery, payload: createPayload } },
    handler: async (request) => {
      const { text, reply_to, machine_only, annotations, entities } = (request.payload ?? {}) as CreatePostInput
      const post = await posts.core.create(viewerOf(request), { text, reply_to, machine_only, annotations, entities })
      return ok(await presentPost(contextOf(request, shared.views), post))
    },
  },
  {
    method: 'GET',
    path: '/posts/{post_id}',
    svc: { token: 'none', answer: 'Post' },
    options: { validate: { params: postParams, query: postQuery } },
    handler: async (request) =>
      cachedAnswer(request, shared, async (ctx) => ok(await presentPost(ctx, await posts.core.find(viewerOf(request), Number(request.params.post_id))))),
  },
  {
    method: 'GET',
    path: '/posts',
    svc: { token: 'any', answer: 'Post[]' },
    options: { validate: { query: postQuery.keys({ ids: idList(200).required() }) } },
    handler: async (request) => {
      const found = await posts.core.findMany(viewerOf(request), (request.query.ids as string[]).map(Number))
      return ok(await presentPosts(contextOf(request, shared.views), found))
    },
  },
  {
    method: 'DELETE',
    path: '/posts/{post_id}',
    svc: { token: 'user', scopes: ['write_post'], answer: 'Post' },
    options: { validate: { params: postParams, query: postQuery } },
    handler: async (request) => {
      const post = await posts.core.delete(viewerOf(request), Number(request.params.post_id))
      return ok(await presentPost(contextOf(request, shared.views), post))
    },
  },
]
