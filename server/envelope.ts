/**
 * The envelope on every answer: `{data, meta}` on success, `{meta}` with
 * `code`, `error_message`, `error_id` (and `error_slug`) on errors, 404 and
 * 405 included. Also pretty printing (`X-SVC-Pretty-JSON`) and JSONP
 * (`callback`, always HTTP 200).
 */
import type { Plugin, Request, ResponseObject, ResponseToolkit, Server } from '@hapi/hapi'
import Boom from '@hapi/boom'
import { randomUUID } from 'node:crypto'
import { isDomainError } from '../data/index.js'
import type { Meta } from './api/index.js'
import { errorStatus } from './error-status.js'
import { API_METHODS } from './route.js'
import { RawJson } from './json-text.js'

/** An answer as a route hands it over: the API's envelope, whose `data` (or items of it) may be JSON text already made. */
export interface Envelope {
  data?: unknown
  meta: Meta
}

/** A success answer: what route handlers return. */
export const ok = (data: unknown, meta: Partial<Meta> = {}): Envelope => ({ data, meta: { code: 200, ...meta } })

const CALLBACK = /^[A-Za-z_$][\w$.]{0,99}$/

/** Methods the server answers for `path`, for 405 and `Allow`. */
const allowedMethods = (server: Server, path: string): string[] =>
  API_METHODS.filter((m) => {
    const route = server.match(m, path)
    return route !== null && route.path !== '/{p*}'
  })

const errorMeta = (err: Boom.Boom, request: Request): Meta => {
  const status = err.output.statusCode
  const meta: Meta = { code: status, error_id: randomUUID().replace(/-/g, '') }
  request.app.errorId = meta.error_id
  if (isDomainError(err)) {
    meta.error_message = status === 400 ? `Bad Request: ${err.message}` : err.message
    if (err.slug) meta.error_slug = err.slug
  } else if (status === 400 && (request.route.method as string) === '_special') {
    // hapi answers a path it cannot percent-decode from its own route, with a Boom that names no cause.
    meta.error_message = 'Bad Request: the path is not valid percent-encoded UTF-8'
  } else if (status === 400) {
    meta.error_message = err.output.payload.message.startsWith('Bad Request') ? err.output.payload.message : `Bad Request: ${err.output.payload.message}`
  } else if (status >= 500) {
    meta.error_message = 'Internal Server Error'
    // The operator finds the cause in the log under the id the caller was shown.
    request.log(['error'], { msg: 'unexpected error', error_id: meta.error_id, err })
  } else {
    meta.error_message = err.output.payload.message || err.output.payload.error
  }
  const slug = (err.data as { slug?: string } | null)?.slug
  if (slug) meta.error_slug = slug
  return meta
}

/** `data` as one JSON text when it is raw (a RawJson, or a non-empty array of them); null when it is not. */
export const rawDataOf = (data: unknown): RawJson | null => {
  if (data instanceof RawJson) return data
  if (Array.isArray(data) && data.length > 0 && data.every((v) => v instanceof RawJson)) return new RawJson(`[${data.map((v: RawJson) => v.json).join(',')}]`)
  return null
}

/** `JSON.stringify(body)`, writing a raw `data` (or raw items of `data`) without parsing them back. */
export const serialize = (body: Envelope): string => {
  const raw = rawDataOf(body.data)
  if (!raw) return JSON.stringify(body)
  const fields = Object.entries(body)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => (name === 'data' ? `"data":${raw.json}` : `${JSON.stringify(name)}:${JSON.stringify(value)}`))
  return `{${fields.join(',')}}`
}

/** Stands for the data while the rest of the envelope is written; JSON text never holds a raw NUL. */
const DATA_MARK = '\u0000'

/**
 * `serialize(body)` as UTF-8. A `data` that is one RawJson is framed from
 * its kept bytes (the same buffer again for the same envelope); either way
 * hapi is handed bytes, not a text it would measure and then encode.
 */
export const serializeToBytes = (body: Envelope): Buffer => {
  if (!(body.data instanceof RawJson)) return Buffer.from(serialize(body))
  const [head, tail] = serialize({ ...body, data: new RawJson(DATA_MARK) }).split(DATA_MARK)
  return body.data.framedIn(head, tail)
}

const render = (request: Request, h: ResponseToolkit, body: Envelope, status: number): ResponseObject => {
  const callback = typeof request.query.callback === 'string' && CALLBACK.test(request.query.callback) ? request.query.callback : undefined
  const pretty = request.headers['x-svc-pretty-json'] !== undefined
  if (!callback && !pretty) return h.response(serializeToBytes(body)).type('application/json; charset=utf-8').code(status)
  const json = pretty ? JSON.stringify(body, null, 2) + '\n' : serialize(body)
  if (callback) return h.response(`${callback}(${json})`).type('application/javascript').code(200)
  return h.response(json).type('application/json; charset=utf-8').code(status)
}

export const envelopePlugin: Plugin<void> = {
  name: 'svc-envelope',
  register(server) {
    // Anything but a plain name would be script of the caller's making in our answer; plain JSON instead would break the page silently.
    server.ext('onPreAuth', (request, h) => {
      const callback = request.query.callback
      if (callback === undefined || request.route.settings.plugins?.svc?.raw || (typeof callback === 'string' && CALLBACK.test(callback))) return h.continue
      throw Boom.badRequest('callback must be a JavaScript function name')
    })
    server.ext('onPreResponse', (request, h) => {
      const response = request.response
      const svc = request.route.settings.plugins?.svc
      if (!Boom.isBoom(response)) {
        if (svc?.raw) return h.continue
        const source = (response as ResponseObject).source as Envelope | null
        if (!source || typeof source !== 'object' || !('meta' in source)) return h.continue
        const res = render(request, h, source, (response as ResponseObject).statusCode)
        for (const [k, v] of Object.entries((response as ResponseObject).headers)) res.header(k, String(v))
        return res
      }
      // A domain error that knows when trying again may succeed says so, whichever body it gets.
      const retry = (res: ResponseObject): ResponseObject =>
        isDomainError(response) && response.retryAfter !== undefined ? res.header('Retry-After', String(response.retryAfter)) : res
      const own = svc?.raw ? svc.errorBody?.(response) : null
      if (own) return retry(h.response(own.body).code(own.status).header('Cache-Control', 'no-store'))
      let err: Boom.Boom = response
      if (isDomainError(err)) err = Boom.boomify(err, { statusCode: errorStatus[err.code] })
      const allow = err.output.statusCode === 404 && request.route.path === '/{p*}' ? allowedMethods(request.server, request.path) : []
      const body: Envelope = { meta: errorMeta(err, request) }
      if (allow.length > 0) body.meta = { ...body.meta, code: 405, error_message: `Method not allowed. Please use: ${allow.join(',')}` }
      if (svc?.raw && request.route.path !== '/{p*}') {
        return retry(h.response(body).code(body.meta.code))
      }
      const res = render(request, h, body, body.meta.code)
      if (allow.length > 0) res.header('Allow', allow.join(','))
      for (const [k, v] of Object.entries(err.output.headers)) res.header(k, String(v))
      return retry(res)
    })
    // A catch-all so that unknown paths and wrong methods get the envelope.
    server.route({
      method: '*',
      path: '/{p*}',
      options: {
        plugins: { svc: { token: 'none' } },
        // Nothing here reads the body, so it is left unread: a multipart, malformed or huge body gets the same quick 404 (or 405), not a parse error.
        payload: { parse: false, output: 'stream', override: 'application/octet-stream', maxBytes: Number.MAX_SAFE_INTEGER },
      },
      handler: () => Boom.notFound('Not found'),
    })
  },
}
