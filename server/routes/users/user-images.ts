/** Avatars and covers: upload one (multipart), or be redirected to the current one. */
import Boom from '@hapi/boom'
import Joi from 'joi'
import {
  IMAGE_KINDS,
  IMAGE_UPLOAD_LIMITS,
  imageOf,
  imageTooLarge,
  snapImageSize,
  type ImageKind,
  type UserRow,
  type UserServices,
} from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, userGeneralQuery, userRef } from '../../params.js'
import { baseUrlOf } from '../../request-trust/base-url.js'
import { contextOf } from '../../present/context.js'
import { imageUrl, presentUser } from '../../present/users/user.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'
import { imageSizeQuery } from '../images/images.js'

// Room for the multipart framing and other fields around the file itself.
const MULTIPART_OVERHEAD = 64 * 1024

const upload = (users: UserServices, shared: Shared, kind: ImageKind): SvcRoute => ({
  method: 'POST',
  path: `/users/me/${kind}`,
  svc: { token: 'user', scopes: ['update_profile'], answer: 'User' },
  options: {
    payload: {
      parse: true,
      output: 'data',
      multipart: { output: 'data' },
      allow: 'multipart/form-data',
      maxBytes: IMAGE_UPLOAD_LIMITS[kind].maxBytes + MULTIPART_OVERHEAD,
      failAction: async (_request, _h, err) => {
        throw Boom.isBoom(err) && err.output.statusCode === 413 ? imageTooLarge(kind) : Boom.badRequest(err instanceof Error ? err.message : 'invalid body')
      },
    },
    validate: {
      payload: Joi.object({ [kind]: Joi.binary().required() }).unknown(true),
      query: Joi.object({ ...commonQuery, ...userGeneralQuery }),
    },
  },
  handler: async (request) => {
    const user = viewerOf(request).user as UserRow
    const updated = await users.images.upload(user, kind, (request.payload as Record<ImageKind, Buffer>)[kind])
    return ok(await presentUser(contextOf(request, shared.views), updated))
  },
})

const redirect = (users: UserServices, kind: ImageKind): SvcRoute => ({
  method: 'GET',
  path: `/users/{user_id}/${kind}`,
  svc: { token: 'none', unlimited: true, answer: false },
  options: {
    validate: {
      params: Joi.object({ user_id: userRef().required() }),
      // Cache busters and other keys are tolerated; only the size travels on.
      query: Joi.object({ ...commonQuery, ...imageSizeQuery }).unknown(true),
    },
  },
  handler: async (request, h) => {
    const user = await users.accounts.resolve(request.params.user_id as string, viewerOf(request))
    const { w, h: height } = request.query as { w?: number; h?: number }
    // The snapped size, so every client asking near it shares one URL (and the caches along the way).
    return h.redirect(imageUrl(baseUrlOf(request), imageOf(user, kind).file, snapImageSize({ w, h: height })))
  },
})

export const userImageRoutes = (users: UserServices, shared: Shared): SvcRoute[] =>
  IMAGE_KINDS.flatMap((kind) => [upload(users, shared, kind), redirect(users, kind)])
