/** `GET /openapi.json` (the operator contract names it): the OpenAPI 3 document of every route, made once from the route table. */
import { packageVersion, type InstanceConfig } from '../../../data/index.js'
import { openApiDocument } from '../../api-document/openapi.js'
import type { SvcRoute } from '../../route.js'

export const apiDocumentRoutes = (routes: readonly SvcRoute[], config: InstanceConfig): SvcRoute[] => {
  let document: string | null = null
  return [
    {
      method: 'GET',
      path: '/openapi.json',
      rootOnly: true,
      svc: { token: 'none', raw: true },
      handler: (_request, h) => {
        // Made at the first call, when `routes` holds every route (this one included).
        document ??= JSON.stringify(openApiDocument(routes, { title: `${config.name} (svc)`, version: packageVersion() }))
        return h.response(document).type('application/json; charset=utf-8')
      },
    },
  ]
}
