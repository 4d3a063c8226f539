/**
 * Authentication and token rules per route. The token comes from
 * `Authorization: Bearer`, the `access_token` query parameter, or the body of
 * POST/PUT/PATCH (never GET or DELETE). A header's or query's token is
 * checked before the body is read; one in the body, once it is parsed. Both
 * before validation, so a missing token is reported before bad input.
 */
import type { Plugin, Request } from '@hapi/hapi'
import { DomainError, hasScope, type Domain, type Viewer } from '../data/index.js'
import { setWireHeader } from './wire-headers.js'

const BODY_METHODS = new Set(['post', 'put', 'patch'])

/** The access token a request carries, if any. */
export function tokenOf(request: Request): string | undefined {
  const header = request.headers.authorization
  if (typeof header === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header)
    if (m) return m[1]
  }
  const query = request.query.access_token
  if (typeof query === 'string' && query.length > 0) return query
  if (BODY_METHODS.has(request.method)) {
    const body = request.payload as Record<string, unknown> | null
    if (body && typeof body === 'object' && !Buffer.isBuffer(body) && typeof body.access_token === 'string') return body.access_token
  }
  return undefined
}

const required = (): DomainError =>
  new DomainError('unauthenticated', 'Call requires authentication: This resource requires authentication and no token was provided.')

/** Checks the token kind and scopes a route asks for. */
export function checkAccess(viewer: Viewer, kind: string, scopes: readonly string[] | undefined): void {
  if (kind === 'none' || (kind === 'varies' && !viewer.token)) return
  if (!viewer.token) throw required()
  if (kind === 'user' && viewer.token.kind !== 'user') throw new DomainError('forbidden', 'This endpoint requires a user token.', { slug: 'wrong-token-kind' })
  if (kind === 'app' && viewer.token.kind !== 'app') throw new DomainError('forbidden', 'This endpoint requires an app token.', { slug: 'wrong-token-kind' })
  if (scopes && scopes.length > 0 && viewer.token.kind === 'user' && !scopes.some((s) => hasScope(viewer, s))) {
    throw new DomainError('forbidden', `This endpoint requires one of these scopes: ${scopes.join(', ')}`, { slug: 'insufficient-scope' })
  }
}

export const authPlugin: Plugin<{ domain: Domain }> = {
  name: 'svc-auth',
  register(server, { domain }) {
    // A token in the header or the query is checked before hapi reads a byte of the body: a caller who may not call
    // the route never gets to send one (an avatar, a JSON body). Only a token sent in the body waits for it.
    server.ext('onPreAuth', async (request, h) => {
      const svc = request.route.settings.plugins?.svc
      const token = svc && tokenOf(request)
      if (!svc || !token) return h.continue
      request.app.viewer = await domain.auth.tokens.authenticate(token)
      checkAccess(request.app.viewer, svc.token, svc.scopes)
      return h.continue
    })
    server.ext('onPostAuth', async (request, h) => {
      const svc = request.route.settings.plugins?.svc
      if (!svc || request.app.viewer) return h.continue
      const token = tokenOf(request)
      const viewer: Viewer = token ? await domain.auth.tokens.authenticate(token) : {}
      request.app.viewer = viewer
      checkAccess(viewer, svc.token, svc.scopes)
      return h.continue
    })
    server.ext(
      'onPreResponse',
      (request, h) => {
        const scopes = request.app.viewer?.token?.scopes
        const response = request.response
        if (scopes && response) setWireHeader(response, 'X-OAuth-Scopes', scopes.join(','))
        return h.continue
      },
      { after: ['svc-envelope'] },
    ) // once the envelope has rendered errors too: it rebuilds a domain error's headers
  },
}

/** The viewer of a request (set by the auth plugin on every svc route). */
export const viewerOf = (request: Request): Viewer => request.app.viewer ?? {}
