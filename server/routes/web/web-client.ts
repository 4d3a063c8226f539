/**
 * svc's own web client (its source in server/web/, built into dist/web/ by
 * `npm install` and `npm run build`): the page at `/` and at each of the
 * client's own paths, and its hashed assets. The page carries what the
 * client cannot learn from the API: the instance's name and description and
 * the client_id svc registered for it (see `AppService.ensureWebClient`).
 */
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import Boom from '@hapi/boom'
import Joi from 'joi'
import type { Request, ResponseToolkit } from '@hapi/hapi'
import type { AuthServices, InstanceConfig } from '../../../data/index.js'
import { baseUrlOf } from '../../request-trust/base-url.js'
import type { SvcRoute } from '../../route.js'
import { esc } from '../../pages/layout.js'

/** The built client, beside the compiled server. */
export const WEB_DIST = fileURLToPath(new URL('../../../web/', import.meta.url))

/** The first segment of every path the client routes itself (server/web/src/paths.ts names the same). */
export const WEB_CLIENT_SECTIONS = [
  'home',
  'mentions',
  'global',
  'explore',
  'interactions',
  'notifications',
  'search',
  'messages',
  'people',
  'thread',
  'settings',
] as const

/** A browser asking for a page (a navigation), not a program asking for JSON. */
const wantsPage = (request: Request): boolean => /\btext\/html\b/.test(String(request.headers.accept ?? ''))

/** A path's first segment, `@` names standing for the server's pages of people (`/@{username}`). */
const firstSegment = (path: string): string => {
  const segment = path.split('/')[1] ?? ''
  return segment.startsWith('@') ? '@' : segment
}

/**
 * The first segments of every path something else on the server answers:
 * the API at the root and under `/stream/0`, OAuth, the server's pages, files.
 * An unknown address in one of those keeps that thing's own 404.
 */
const servedElsewhere = (request: Request): Set<string> =>
  new Set(
    request.server
      .table()
      .filter((route) => route.path !== '/{p*}' && !route.settings.plugins?.svc?.webClient)
      .map((route) => firstSegment(route.path)),
  )

/** What Vite names a built file: a name, its content hash, an extension. */
const ASSET_NAME = /^[\w.-]{1,128}$/

/**
 * The page's policy. Scripts: only those the page itself names, by a nonce
 * new for each answer (and what they load, 'strict-dynamic'): a `<script>`
 * slipped into the page, say one pointing at a JSONP answer of the API
 * (`?callback=`, served as JavaScript from the same origin), is refused.
 * Connections: this origin and its own WebSocket address only.
 */
const cspOf = (nonce: string, base: URL): string =>
  [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    "object-src 'none'",
    "img-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    `connect-src 'self' ${base.protocol === 'https:' ? 'wss' : 'ws'}://${base.host}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ')

/** The built page's own script and preload tags, each given the answer's nonce. */
const withNonce = (html: string, nonce: string): string => html.replace(/<(script|link rel="modulepreload")\b/g, `<$1 nonce="${nonce}"`)

/** JSON safe inside a <script> element. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c')

export const webClientRoutes = (auth: Pick<AuthServices, 'apps' | 'registration'>, config: Pick<InstanceConfig, 'name' | 'description'>): SvcRoute[] => {
  let template: Promise<string> | null = null
  const page = async (request: Request, h: ResponseToolkit) => {
    template ??= readFile(`${WEB_DIST}index.html`, 'utf8').catch(() => {
      template = null
      throw Boom.serverUnavailable('the web client is not built: run `npm run build`')
    })
    const app = await auth.apps.ensureWebClient()
    const { name, description } = config
    const settings = scriptJson({ name, description, client_id: app.client_id, registration: auth.registration.mode })
    const nonce = randomBytes(18).toString('base64')
    const html = withNonce(await template, nonce)
      .replace(/<title>[^<]*<\/title>/, `<title>${esc(name)}</title>`)
      .replace(
        '</head>',
        `<meta name="description" content="${esc(description)}"><script id="svc-settings" type="application/json">${settings}</script></head>`,
      )
    return h
      .response(html)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', cspOf(nonce, new URL(baseUrlOf(request))))
      .header('X-Frame-Options', 'DENY')
      .header('Referrer-Policy', 'no-referrer')
  }
  const pageRoute = (path: string): SvcRoute => ({
    method: 'GET',
    path,
    rootOnly: true,
    svc: { token: 'none', raw: true, rateAs: 'page', webClient: true },
    handler: page,
  })
  let elsewhere: Set<string> | null = null
  return [
    pageRoute('/'),
    ...WEB_CLIENT_SECTIONS.flatMap((section) => [pageRoute(`/${section}`), pageRoute(`/${section}/{rest*}`)]),
    {
      // Before the envelope's catch-all (any method): a browser that lands on an address nobody answers gets the client, which says it found nothing.
      method: 'GET',
      path: '/{p*}',
      rootOnly: true,
      svc: { token: 'none', webClient: true },
      handler: async (request, h) => {
        elsewhere ??= servedElsewhere(request)
        if (!wantsPage(request) || elsewhere.has(firstSegment(request.path))) throw Boom.notFound('Not found')
        return (await page(request, h)).code(404)
      },
    },
    {
      method: 'GET',
      path: '/assets/{file}',
      rootOnly: true,
      // Files, not calls: a page load fetches several, and a person reloading is not an API client.
      svc: { token: 'none', raw: true, unlimited: true },
      options: {
        // Built file names carry a content hash: they never change, so browsers may keep them.
        cache: { privacy: 'public', expiresIn: 365 * 24 * 3600 * 1000 },
        validate: { params: Joi.object({ file: Joi.string().pattern(ASSET_NAME).required() }) },
      },
      handler: (request, h) => h.file(`assets/${request.params.file as string}`, { confine: WEB_DIST }),
    },
  ]
}
