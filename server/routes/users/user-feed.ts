/** A user's public posts as an Atom feed (`/@username.atom`), which their page links to. */
import Joi from 'joi'
import type { Domain, UserServices } from '../../../data/index.js'
import { atomFeed } from '../../pages/atom-feed.js'
import { invalidInputPage, pageHandler } from '../../pages/layout.js'
import type { PageSite } from '../../pages/share-meta.js'
import { baseUrlOf } from '../../request-trust/base-url.js'
import type { SvcRoute } from '../../route.js'
import { LATEST_POSTS, usernameParam } from './user-page.js'

export const userFeedRoutes = (users: UserServices, publicReads: Domain['public'], site: PageSite): SvcRoute[] => [
  {
    method: 'GET',
    path: '/@{username}.atom',
    rootOnly: true,
    svc: { token: 'none', raw: true, rateAs: 'page' },
    options: { validate: { params: Joi.object({ username: usernameParam().required() }), failAction: invalidInputPage } },
    handler: pageHandler(async (request, h) => {
      const user = await users.accounts.resolve(`@${request.params.username as string}`, {})
      const latest = await publicReads.ofUser(user, LATEST_POSTS)
      return h
        .response(atomFeed(user, latest, baseUrlOf(request), site))
        .type('application/atom+xml; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
    }),
  },
]
