/**
 * The page at a user's canonical URL (`/@username`), so that the URL clients
 * show leads somewhere; asked for ActivityStreams, the user's actor instead.
 */
import Joi from 'joi'
import type { Domain, FederationService, UserServices } from '../../../data/index.js'
import { htmlResponse, invalidInputPage, pageHandler } from '../../pages/layout.js'
import type { PageSite } from '../../pages/share-meta.js'
import { userPage } from '../../pages/user-page.js'
import { baseUrlOf } from '../../request-trust/base-url.js'
import type { SvcRoute } from '../../route.js'
import { answerFederation, wantsActivityStreams } from '../federation/web-request.js'

/** How many of a user's posts their page and their feed list. */
export const LATEST_POSTS = 20

/** A username as page paths take it: any case, since usernames are looked up in lower case. */
export const usernameParam = () => Joi.string().pattern(/^\w{1,20}$/)

export const userPageRoutes = (users: UserServices, publicReads: Domain['public'], federation: FederationService, site: PageSite): SvcRoute[] => [
  {
    method: 'GET',
    path: '/@{username}',
    rootOnly: true,
    svc: { token: 'none', raw: true, rateAs: 'page' },
    options: { validate: { params: Joi.object({ username: usernameParam().required() }), failAction: invalidInputPage } },
    handler: pageHandler(async (request, h) => {
      const found = await users.accounts.resolve(`@${request.params.username as string}`, {})
      if (federation.site && wantsActivityStreams(request)) return answerFederation(federation, request, h, federation.actorPath(found.id))
      const { user, counts } = await users.views.view(found, {})
      const base = baseUrlOf(request)
      const latest = await publicReads.ofUser(user, LATEST_POSTS)
      return htmlResponse(h, userPage(user, counts, latest, base, site), 200, base).vary('accept')
    }),
  },
]
