/** Stored and default images by file name, resized on request (to standard sizes, a budget of new ones per address). */
import Joi from 'joi'
import { MAX_IMAGE_SIDE, type UserServices } from '../../../data/index.js'
import { clientAddressOf } from '../../request-trust/client-address.js'
import { commonQuery } from '../../params.js'
import type { SvcRoute } from '../../route.js'
import { asUserContent } from '../../user-content.js'

/** `w` and `h` on image URLs. */
export const imageSizeQuery = {
  w: Joi.number().integer().min(1).max(MAX_IMAGE_SIDE),
  h: Joi.number().integer().min(1).max(MAX_IMAGE_SIDE),
}

const FOREVER = 'public, max-age=31536000, immutable'
const A_DAY = 'public, max-age=86400'

export const imageRoutes = (users: UserServices): SvcRoute[] => [
  {
    method: 'GET',
    path: '/images/{file}',
    // Every avatar on a timeline is one of these, as the avatar redirects are.
    svc: { token: 'none', unlimited: true, answer: false },
    options: {
      validate: {
        params: Joi.object({
          file: Joi.string()
            .max(100)
            .pattern(/^[\w.-]+$/)
            .required(),
        }),
        query: Joi.object({ ...commonQuery, ...imageSizeQuery }).unknown(true),
      },
    },
    handler: async (request, h) => {
      const { w, h: height } = request.query as { w?: number; h?: number }
      const image = await users.images.serve(request.params.file as string, { w, h: height }, clientAddressOf(request))
      return asUserContent(
        h
          .response(image.data)
          .type(image.mime)
          .header('cache-control', image.immutable ? FOREVER : A_DAY),
      )
    },
  },
]
