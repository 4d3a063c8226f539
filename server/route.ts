/**
 * svc's route shape: a hapi route plus its token rules. Every route
 * answers under `/stream/0` and at the root, as the original API did.
 */
import type { RouteOptionsValidate, Server, ServerRoute } from '@hapi/hapi'
import Joi from 'joi'
import type { SvcRouteConfig } from './hapi-types.js'
import { rememberingValidator } from './validation.js'

export type SvcRoute = Omit<ServerRoute, 'options'> & {
  svc: SvcRouteConfig
  options?: Exclude<ServerRoute['options'], ((...args: never[]) => unknown) | undefined>
  /** Mount only at this exact path (OAuth, pages, streams). */
  rootOnly?: boolean
}

export const API_PREFIX = '/stream/0'

/** The methods the API's routes answer. */
export const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/** Path and query schemas as validators that check each distinct input once (bodies vary too much to be worth it). */
const remembering = (validate: RouteOptionsValidate | undefined): RouteOptionsValidate | undefined => {
  if (!validate) return validate
  const out = { ...validate }
  for (const source of ['params', 'query'] as const) {
    const schema = validate[source]
    if (Joi.isSchema(schema)) out[source] = rememberingValidator(schema)
  }
  return out
}

/**
 * The hapi routes of `routes`, each mounted once, at the root; `apiPrefix`
 * makes them answer under the API prefix too. hapi builds each route with
 * a deep merge and a check of its options (about a millisecond), so a
 * second copy of every route would double what building a server costs.
 */
export function mount(routes: readonly SvcRoute[]): ServerRoute[] {
  return routes.map(
    ({ svc, options, rootOnly, ...route }) =>
      ({
        ...route,
        options: { ...options, validate: remembering(options?.validate), plugins: { ...options?.plugins, svc: { ...svc, rootOnly } } },
      }) as ServerRoute,
  )
}

/**
 * Answers under the API prefix what the root answers, but for the routes
 * mounted at the root only (pages, OAuth, file content, the user stream):
 * `/stream/0/posts` is served as `/posts`; a path under the prefix that no
 * API route serves stays as it is, for the catch-all's 404 or 405.
 */
export function apiPrefix(server: Server): void {
  const servedAt = (path: string) => (method: string) => {
    let route: ReturnType<Server['match']>
    try {
      route = server.match(method as 'GET', path)
    } catch {
      return false // a path that is not valid percent-encoded UTF-8: left for hapi's own 400
    }
    return route !== null && route.path !== '/{p*}' && !route.settings.plugins?.svc?.rootOnly
  }
  server.ext('onRequest', (request, h) => {
    const path = request.path
    if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) return h.continue
    const inner = path.slice(API_PREFIX.length) || '/'
    // Any method: a wrong one is answered from the API's path too, a 405 naming the right ones.
    if (API_METHODS.some(servedAt(inner))) request.setUrl(`${inner}${request.url.search}`)
    return h.continue
  })
}
