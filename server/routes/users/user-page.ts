/**
 * The page at a user's canonical URL (`/@username`), so that the URL clients
 * show leads somewhere; asked for ActivityStreams, the user's actor instead.
 */
import Joi from 'joi'
import { anonymous, imageOf, type FederationService, type UserServices, type PostServices } from '../../../data/index.js'
import { htmlResponse, invalidInputPage, pageHandler } from '../../pages/layout.js'
import { userPage } from '../../pages/user-page.js'
import { baseUrlOf } from '../../request-trust/base-url.js'
import { imageUrl } from '../../present/users/user.js'
import { postCanonicalUrl } from '../../present/posts/post.js'
import type { SvcRoute } from '../../route.js'
import { answerFederation, wantsActivityStreams } from '../federation/web-request.js'

/** How many of a user's posts their page lists. */
const LATEST_POSTS = 20

/** A username as page paths take it: any case, since usernames are looked up in lower case. */
export const usernameParam = () => Joi.string().pattern(/^\w{1,20}$/)

export const userPageRoutes = (users: UserServices, posts: PostServices, federation: FederationService): SvcRoute[] => [
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
      // What an anonymous API call may read of their posts, as the page is read by anyone.
      const { page: latest } = await posts.streams.ofUser(anonymous, String(user.id), { count: LATEST_POSTS })
      const shown = latest.items.map(({ item }) => ({ post: item, url: postCanonicalUrl(base, item, user) }))
      const clientUrl = `${base}/people/${encodeURIComponent(user.username)}`
      const page = userPage(user, counts, imageUrl(base, imageOf(user, 'avatar').file, { w: 80, h: 80 }), shown, clientUrl)
      return htmlResponse(h, page, 200, base).vary('accept')
    }),
  },
]
