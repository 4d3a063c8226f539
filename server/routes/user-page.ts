/** The page at a user's canonical URL (`/@username`), so that the URL clients show leads somewhere. */
import Joi from 'joi'
import { imageOf, type Domain } from '../../data/index.js'
import { errorResponse, htmlResponse, invalidInputPage } from '../pages/layout.js'
import { userPage } from '../pages/user-page.js'
import { baseUrlOf } from '../present/context.js'
import { imageUrl } from '../present/user.js'
import type { SvcRoute } from '../route.js'

export const userPageRoutes = (domain: Domain): SvcRoute[] => [
  {
    method: 'GET',
    path: '/@{username}',
    rootOnly: true,
    svc: { token: 'none', raw: true },
    options: { validate: { params: Joi.object({ username: Joi.string().pattern(/^\w{1,20}$/).required() }), failAction: invalidInputPage } },
    handler: async (request, h) => {
      try {
        const { user, counts } = await domain.userViews.view(await domain.users.resolve(`@${request.params.username as string}`, {}), {})
        const base = baseUrlOf(request, domain)
        const page = userPage(user, counts, imageUrl(base, imageOf(user, 'avatar').file, { w: 80, h: 80 }))
        // The layout allows no images; the avatar comes from this server.
        return htmlResponse(h, page).header('Content-Security-Policy', `default-src 'none'; img-src ${new URL(base).origin}; style-src 'unsafe-inline'; frame-ancestors 'none'`)
      } catch (err) {
        return errorResponse(h, err) ?? Promise.reject(err)
      }
    },
  },
]
