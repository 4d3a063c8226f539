/**
 * svc's route shape: a hapi route plus its token rules. Every route is
 * mounted under `/stream/0` and at the root, as the original API did.
 */
import type { RouteOptionsValidate, ServerRoute } from '@hapi/hapi'
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

/** The hapi routes of `routes`, each under the API prefix and at the root. */
export function mount(routes: readonly SvcRoute[]): ServerRoute[] {
  return routes.flatMap(({ svc, options, rootOnly, ...route }) => {
    const withPlugins = { ...route, options: { ...options, validate: remembering(options?.validate), plugins: { ...options?.plugins, svc } } } as ServerRoute
    if (rootOnly) return [withPlugins]
    return [{ ...withPlugins, path: `${API_PREFIX}${route.path}` }, withPlugins]
  })
}
