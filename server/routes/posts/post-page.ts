/**
 * The page at a post's canonical URL (`/@username/post/id`), so that a shared
 * link leads somewhere; asked for ActivityStreams, the post's Note instead.
 */
import Joi from 'joi'
import type { Domain, FederationService } from '../../../data/index.js'
import { htmlResponse, invalidInputPage, pageHandler } from '../../pages/layout.js'
import { postPage } from '../../pages/post-page.js'
import type { PageSite } from '../../pages/share-meta.js'
import { idParam } from '../../params.js'
import { baseUrlOf } from '../../request-trust/base-url.js'
import { postCanonicalUrl } from '../../present/posts/post.js'
import type { SvcRoute } from '../../route.js'
import { usernameParam } from '../users/user-page.js'
import { answerFederation, wantsActivityStreams } from '../federation/web-request.js'

export const postPageRoutes = (publicReads: Domain['public'], federation: FederationService, site: PageSite): SvcRoute[] => [
  {
    method: 'GET',
    path: '/@{username}/post/{post_id}',
    rootOnly: true,
    svc: { token: 'none', raw: true, rateAs: 'page' },
    options: { validate: { params: Joi.object({ username: usernameParam().required(), post_id: idParam().required() }), failAction: invalidInputPage } },
    handler: pageHandler(async (request, h) => {
      const { username, post_id } = request.params as { username: string; post_id: string }
      const found = await publicReads.post(Number(post_id))
      const { post, user } = found.view
      const base = baseUrlOf(request)
      // The id alone names the post: a link naming someone else (a mistyped or former username)
      // or a repost (whose page is its original's) is sent on to the post's own address, not refused.
      if (post.id !== Number(post_id) || user?.username !== username.toLowerCase()) return h.redirect(postCanonicalUrl(base, post, user))
      if (federation.site && wantsActivityStreams(request)) return answerFederation(federation, request, h, federation.notePath(post.id))
      return htmlResponse(h, postPage(found, base, site), 200, base).vary('accept')
    }),
  },
]
