/**
 * svc's own web client (its source in server/web/, built into dist/web/ by
 * `npm install` and `npm run build`): the page at `/` and at each of the
 * client's own paths, and its hashed assets. The page carries what the
 * client cannot learn from the API: the instance's name and description and
 * the client_id svc registered for it (see `AppService.ensureWebClient`).
 */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import Boom from '@hapi/boom'
import Joi from 'joi'
import type { Request, ResponseToolkit } from '@hapi/hapi'
import type { Domain } from '../../../data/index.js'
import type { SvcRoute } from '../../route.js'
import { esc } from '../../pages/layout.js'

/** The built client, beside the compiled server. */
export const WEB_DIST = fileURLToPath(new URL('../../../web/', import.meta.url))

/** The first segment of every path the client routes itself (server/web/src/paths.ts names the same). */
export const WEB_CLIENT_SECTIONS = ['home', 'mentions', 'global', 'explore', 'interactions', 'messages', 'people', 'thread', 'settings'] as const

/** What Vite names a built file: a name, its content hash, an extension. */
const ASSET_NAME = /^[\w.-]{1,128}$/

const CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self' ws: wss:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ')

/** JSON safe inside a <script> element. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c')

export const webClientRoutes = (domain: Domain): SvcRoute[] => {
  let template: Promise<string> | null = null
  const page = async (_request: Request, h: ResponseToolkit) => {
    template ??= readFile(`${WEB_DIST}index.html`, 'utf8').catch(() => {
      template = null
      throw Boom.serverUnavailable('the web client is not built: run `npm run build`')
    })
    const app = await domain.apps.ensureWebClient()
    const { name, description, open_registration } = domain.config
    const settings = scriptJson({ name, description, client_id: app.client_id, open_registration })
    const html = (await template)
      .replace(/<title>[^<]*<\/title>/, `<title>${esc(name)}</title>`)
      .replace(
        '</head>',
        `<meta name="description" content="${esc(description)}"><script id="svc-settings" type="application/json">${settings}</script></head>`,
      )
    return h
      .response(html)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', CSP)
      .header('X-Frame-Options', 'DENY')
  }
  const pageRoute = (path: string): SvcRoute => ({ method: 'GET', path, rootOnly: true, svc: { token: 'none', raw: true }, handler: page })
  return [
    pageRoute('/'),
    ...WEB_CLIENT_SECTIONS.flatMap((section) => [pageRoute(`/${section}`), pageRoute(`/${section}/{rest*}`)]),
    {
      method: 'GET',
      path: '/assets/{file}',
      rootOnly: true,
      svc: { token: 'none', raw: true },
      options: {
        // Built file names carry a content hash: they never change, so browsers may keep them.
        cache: { privacy: 'public', expiresIn: 365 * 24 * 3600 * 1000 },
        validate: { params: Joi.object({ file: Joi.string().pattern(ASSET_NAME).required() }) },
      },
      handler: (request, h) => h.file(`assets/${request.params.file as string}`, { confine: WEB_DIST }),
    },
  ]
}
