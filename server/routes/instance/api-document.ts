/**
 * `GET /openapi.json` (the operator contract names it): the OpenAPI 3
 * document of every route, made once from the route table; `GET /openapi`,
 * the same as a page to read.
 */
import { packageVersion, type InstanceConfig } from '../../../data/index.js'
import { openApiDocument } from '../../api-document/openapi.js'
import { openApiPage, type ApiDocument } from '../../api-document/openapi-page.js'
import { htmlResponse } from '../../pages/layout.js'
import type { SvcRoute } from '../../route.js'

export const apiDocumentRoutes = (routes: readonly SvcRoute[], config: InstanceConfig): SvcRoute[] => {
  let document: ReturnType<typeof openApiDocument> | null = null
  let json: string | null = null
  let page: string | null = null
  // Made once, at the first call of either, when `routes` holds every route (these included).
  const made = () => (document ??= openApiDocument(routes, { title: `${config.name} (svc)`, version: packageVersion() }))
  return [
    {
      method: 'GET',
      path: '/openapi.json',
      rootOnly: true,
      svc: { token: 'none', raw: true },
      handler: (_request, h) => {
        json ??= JSON.stringify(made())
        return h.response(json).type('application/json; charset=utf-8')
      },
    },
    {
      method: 'GET',
      path: '/openapi',
      rootOnly: true,
      svc: { token: 'none', raw: true, rateAs: 'page' },
      handler: (_request, h) => {
        // The document's schemas are joi-to-json's output; the page reads the fields it shows of them.
        page ??= openApiPage(made() as unknown as ApiDocument)
        return htmlResponse(h, page)
      },
    },
  ]
}
