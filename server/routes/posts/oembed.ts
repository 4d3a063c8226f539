/**
 * The oEmbed endpoint (oEmbed 1.0, `GET /oembed?url=...&format=json`) for
 * svc's public pages, which name it in their `<link rel="alternate">`: a
 * post's page answers a `rich` embed, a user's page a `link`. Only what those
 * pages show anyone is answered, as JSON or XML (the spec's two formats);
 * any other address is a 404, any other format a 400.
 */
import Joi from 'joi'
import type { Domain, UserServices } from '../../../data/index.js'
import { notFound } from '../../../data/index.js'
import { oembedXml, postOEmbed, userOEmbed, type OEmbed } from '../../pages/oembed.js'
import type { PageSite } from '../../pages/share-meta.js'
import { baseUrlOf } from '../../request-trust/base-url.js'
import type { SvcRoute } from '../../route.js'

const POST_PATH = /^\/@(\w{1,20})\/post\/(\d{1,15})\/?$/
const USER_PATH = /^\/@(\w{1,20})\/?$/

/** The page `url` names on this server: a post's id or a username; null for any other address. */
function pageOf(url: string, baseUrl: string): { post: number } | { username: string } | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.origin !== new URL(baseUrl).origin) return null
  const post = POST_PATH.exec(parsed.pathname)
  if (post) return { post: Number(post[2]) }
  const user = USER_PATH.exec(parsed.pathname)
  return user ? { username: user[1] } : null
}

export const oembedRoutes = (users: UserServices, publicReads: Domain['public'], site: PageSite): SvcRoute[] => [
  {
    method: 'GET',
    path: '/oembed',
    rootOnly: true,
    svc: { token: 'none', raw: true, rateAs: 'page' },
    options: {
      validate: {
        query: Joi.object({
          url: Joi.string().max(2000).required(),
          format: Joi.string().valid('json', 'xml').default('json'),
          maxwidth: Joi.number().integer().min(1).max(10_000),
          maxheight: Joi.number().integer().min(1).max(10_000),
        }),
      },
    },
    handler: async (request, h) => {
      const { url, format, maxwidth } = request.query as { url: string; format: string; maxwidth?: number }
      const base = baseUrlOf(request)
      const page = pageOf(url, base)
      if (!page) throw notFound('no public page of this server at that url')
      let answer: OEmbed
      if ('post' in page) {
        const { view } = await publicReads.post(page.post)
        if (!view.user) throw notFound('no public page of this server at that url')
        answer = postOEmbed({ ...view, user: view.user }, base, site.name, maxwidth)
      } else {
        answer = userOEmbed(await users.accounts.resolve(`@${page.username}`, {}), base, site.name)
      }
      const body = format === 'xml' ? h.response(oembedXml(answer)).type('text/xml; charset=utf-8') : h.response(answer).type('application/json; charset=utf-8')
      return body.header('Access-Control-Allow-Origin', '*')
    },
  },
]
