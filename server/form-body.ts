/**
 * Form-encoded bodies with nested keys. Client libraries built on PHP's
 * `http_build_query` (AppDotNetPHP) send objects and lists as bracketed keys:
 * `clauses[0][field]=/data/text`, `object_types[]=post`. hapi parses a form
 * body flat, one key per bracketed name; this rebuilds the nesting with `qs`,
 * for every route at once, so a route's joi schema sees the same object a
 * JSON body would give it. Bodies without a bracket in any key are left as
 * hapi parsed them, so plain forms (OAuth, posts) read exactly as before.
 */
import type { Plugin, Request } from '@hapi/hapi'
import qs from 'qs'

const FORM = 'application/x-www-form-urlencoded'

/**
 * A hostile body cannot grow the rebuilt object beyond what it sent: nesting
 * past `depth` stays a literal key, an index past `arrayLimit` (the longest
 * list a route reads: 200 ids, recipients or `one_of` values) makes an object
 * rather than a sparse array, and `__proto__`-style keys are dropped. The key
 * count is bounded before this by hapi (node's querystring keeps 1000 keys)
 * and the size of the body by its byte limit.
 */
const PARSE_OPTIONS: qs.IParseOptions = { depth: 5, arrayLimit: 200, allowPrototypes: false, parseArrays: true }

const isFlatForm = (request: Request): request is Request & { payload: Record<string, unknown> } =>
  request.mime === FORM && typeof request.payload === 'object' && request.payload !== null && !Buffer.isBuffer(request.payload)

/** The body's nested object, or `null` when no key has a bracket to unfold. */
export function nestedForm(flat: Record<string, unknown>): Record<string, unknown> | null {
  if (!Object.keys(flat).some((key) => key.includes('['))) return null
  return qs.parse(flat as Record<string, string>, PARSE_OPTIONS) as Record<string, unknown>
}

export const formBodyPlugin: Plugin<void> = {
  name: 'svc-form-body',
  register(server) {
    // After the payload is parsed and before validation reads it.
    server.ext(
      'onPostAuth',
      (request, h) => {
        if (!isFlatForm(request)) return h.continue
        const nested = nestedForm(request.payload)
        if (nested) request.payload = nested
        return h.continue
      },
      { before: ['svc-auth'] },
    )
  },
}
