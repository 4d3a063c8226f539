/**
 * The OpenAPI 3 document of every route, made from the route table itself
 * (joi-to-json turns each route's joi schemas into OpenAPI schemas), so it
 * cannot drift from what the server checks: paths (the API's under
 * `/stream/0`, the pages, OAuth and streams at the root), parameters,
 * bodies, who may call each route (token kind and scopes), and what it
 * answers: the API objects' schemas are made from their TypeScript types
 * (server/api/, kept in api-schemas.ts), and each route names its answer.
 */
import joiToJson from 'joi-to-json'
import Joi from 'joi'
import type { RouteOptionsValidate } from '@hapi/hapi'
import type { ApiAnswer } from '../hapi-types.js'
import { API_PREFIX, type SvcRoute } from '../route.js'
import { API_SCHEMAS } from './api-schemas.js'

type Schema = Record<string, unknown>

interface Parameter {
  name: string
  in: 'path' | 'query'
  required: boolean
  schema: Schema
  description?: string
}

// The package is CommonJS whose module.exports is the function its types call `parse`.
const parse = joiToJson as unknown as typeof joiToJson.parse

/** OpenAPI's schema of a joi schema; `null` when the route checks with something else. */
const schemaOf = (schema: unknown): Schema | null => (Joi.isSchema(schema) ? (parse(schema, 'open-api-3.1') as Schema) : null)

const COMPONENTS = '#/components/schemas/'

/** The API objects' schemas with their references pointing into the document's components. */
const componentSchemas = (): Record<string, unknown> =>
  JSON.parse(JSON.stringify(API_SCHEMAS).replaceAll('"#/definitions/', `"${COMPONENTS}`)) as Record<string, unknown>

/**
 * The schema of `data` for a route's answer, or one of its answers (`anyOf`:
 * an empty list is both a `Channel[]` and a `PaginatedChannel[]`), the
 * objects referred to as `refs` + name.
 */
export const answerSchema = (answer: ApiAnswer | readonly ApiAnswer[], refs = COMPONENTS): Schema => {
  if (typeof answer !== 'string') return answer.length === 1 ? answerSchema(answer[0], refs) : { anyOf: answer.map((a) => answerSchema(a, refs)) }
  if (answer === 'string[]') return { type: 'array', items: { type: 'string' } }
  if (answer === 'number') return { type: 'integer' }
  if (answer === 'object') return { type: 'object' }
  return answer.endsWith('[]') ? { type: 'array', items: { $ref: refs + answer.slice(0, -2) } } : { $ref: refs + answer }
}

/** hapi's `{name?}` and `{name*}` are OpenAPI's `{name}`. */
const openApiPath = (path: string): string => path.replace(/\{(\w+)[?*]\d*\}/g, '{$1}')

function parametersOf(validate: RouteOptionsValidate | undefined, path: string): Parameter[] {
  const out: Parameter[] = []
  const names = [...path.matchAll(/\{(\w+)([?*]?)/g)]
  const params = schemaOf(validate?.params)
  const paramProps = (params?.properties ?? {}) as Record<string, Schema>
  for (const [, name] of names) out.push({ name, in: 'path', required: true, schema: paramProps[name] ?? { type: 'string' } })
  const query = schemaOf(validate?.query)
  const required = new Set((query?.required as string[] | undefined) ?? [])
  for (const [name, schema] of Object.entries((query?.properties ?? {}) as Record<string, Schema>)) {
    const { description, ...rest } = schema as Schema & { description?: string }
    out.push({ name, in: 'query', required: required.has(name), schema: rest, ...(typeof description === 'string' ? { description } : {}) })
  }
  return out
}

type Requirement = Record<string, string[]>

/** A user token with any one of `scopes` (OpenAPI asks for all the scopes one requirement names, so each is a requirement of its own). */
const userTokens = (scopes: string[]): Requirement[] => (scopes.length === 0 ? [{ userToken: [] }] : scopes.map((scope) => ({ userToken: [scope] })))

const SECURITY: Record<SvcRoute['svc']['token'], (scopes: string[]) => Requirement[]> = {
  // No token needed; one given is used (a viewer sees what they may).
  none: (): Requirement[] => [{}, { userToken: [] }, { appToken: [] }],
  // No token needed; one given must hold the scopes.
  varies: (scopes): Requirement[] => [{}, ...userTokens(scopes), { appToken: [] }],
  any: (scopes): Requirement[] => [...userTokens(scopes), { appToken: [] }],
  user: (scopes) => userTokens(scopes),
  app: () => [{ appToken: [] }],
}

const META: Schema = { $ref: `${COMPONENTS}Meta` }

/** The envelope around `data` (the answer's schema; absent on an error). */
const envelope = (data?: Schema): Schema => ({
  type: 'object',
  description: 'The envelope: `data` (the answer) and `meta` (`code`, paging markers; `error_message`, `error_id` and `error_slug` on errors)',
  properties: { ...(data ? { data } : {}), meta: META },
  required: data ? ['data', 'meta'] : ['meta'],
})

/** A route's success: its answer in the envelope, or what a route with no envelope does. */
const successOf = (answer: ApiAnswer | readonly ApiAnswer[] | false | undefined): Record<string, Schema> =>
  answer === false
    ? { default: { description: 'Bytes, a redirect, a stream or no content, as the route says; errors in the envelope' } }
    : { '200': { description: 'The answer, in the envelope', content: { 'application/json': { schema: envelope(answer ? answerSchema(answer) : {}) } } } }

function operationOf(route: SvcRoute, method: string, path: string): Schema {
  const validate = route.options?.validate
  const scopes = [...(route.svc.scopes ?? [])]
  const payload = method === 'get' ? null : schemaOf(validate?.payload)
  const raw = route.svc.raw === true
  return {
    operationId: `${method} ${path}`,
    ...(route.options?.description ? { summary: route.options.description } : {}),
    parameters: parametersOf(validate, route.path),
    ...(payload ? { requestBody: { content: { 'application/json': { schema: payload }, 'application/x-www-form-urlencoded': { schema: payload } } } } : {}),
    security: SECURITY[route.svc.token](scopes),
    'x-svc-token': route.svc.token,
    ...(scopes.length > 0 ? { 'x-svc-scopes': scopes } : {}),
    ...(route.svc.answer ? { 'x-svc-answer': route.svc.answer } : {}),
    responses: raw
      ? { default: { description: 'A page, a redirect or the answer of the OAuth protocol, as the route says' } }
      : route.svc.answer === false
        ? successOf(false)
        : { ...successOf(route.svc.answer), default: { description: 'An error, in the envelope', content: { 'application/json': { schema: envelope() } } } },
  }
}

/** The OpenAPI 3.1 document of `routes`, as the server mounts them. */
export function openApiDocument(routes: readonly SvcRoute[], info: { title: string; version: string }): Schema {
  const paths: Record<string, Record<string, Schema>> = {}
  for (const route of routes) {
    if (route.path === '/{p*}') continue
    const path = openApiPath(route.rootOnly ? route.path : `${API_PREFIX}${route.path === '/' ? '' : route.path}`)
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => String(m).toLowerCase())
    for (const method of methods.flatMap((m) => (m === '*' ? ['get', 'post', 'put', 'patch', 'delete'] : [m]))) {
      paths[path] ??= {}
      paths[path][method] = operationOf(route, method, path)
    }
  }
  return {
    openapi: '3.1.0',
    info: { ...info, description: 'The App.net Stream API as svc serves it: every route, its parameters and who may call it.' },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        userToken: { type: 'http', scheme: 'bearer', description: "A user's token (also `?access_token=`); the operation names the scopes it needs" },
        appToken: { type: 'http', scheme: 'bearer', description: "An app's token, from the client credentials grant" },
      },
    },
  }
}
