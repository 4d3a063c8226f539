/**
 * The shell of every HTML page: escaping, one small inline stylesheet, no
 * external assets, and headers that keep the pages out of frames and caches.
 */
import type { Request, ResponseObject, ResponseToolkit } from '@hapi/hapi'
import { isDomainError } from '../../data/index.js'
import { errorStatus } from '../error-status.js'

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text made safe for both element content and quoted attribute values. */
export const esc = (value: string | number): string => String(value).replace(/[&<>"']/g, (c) => ENTITIES[c])

/** Hidden inputs carrying `fields` through a form. */
export const hidden = (fields: Record<string, string | undefined>): string =>
  Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`)
    .join('')

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;background:#f4f5f7;color:#1d2329;margin:0}
main{max-width:26rem;margin:3rem auto;background:#fff;padding:1.5rem 2rem;border-radius:10px;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin:0 0 1rem}
label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input[type=text],input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #bbc;border-radius:6px;font:inherit}
button{font:inherit;padding:.5rem 1.1rem;border-radius:6px;border:1px solid #2a62c9;background:#2a62c9;color:#fff;cursor:pointer;margin:1rem .5rem 0 0}
button.secondary{background:#fff;color:#2a62c9}
.error{background:#fde8e8;color:#8a1c1c;padding:.5rem .8rem;border-radius:6px}
ul.scopes{padding-left:1.2rem}
.muted{color:#667;font-size:.9rem}
.instance{margin:0 0 1rem}
a.onward{display:inline-block;padding:.5rem 1.1rem;border-radius:6px;background:#2a62c9;color:#fff;text-decoration:none;font-weight:600}
.text{white-space:pre-line;overflow-wrap:anywhere}
ul.messages,ul.posts{list-style:none;padding:0}ul.messages li,ul.posts li{border-top:1px solid #dde;padding:.6rem 0}
.photos img{max-width:100%;height:auto;max-height:30rem;border-radius:6px;display:block;margin:.4rem 0}
`

/** A whole page around `body` (already escaped HTML); `head` adds its own tags (already escaped) to the head. */
export const layout = (title: string, body: string, head = ''): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<title>${esc(title)}</title>${head}<style>${STYLE}</style></head><body><main>${body}</main></body></html>`

/** `n` things in words: "1 follower", "2 followers", "0 followers". */
export const counted = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`

/**
 * Answers `html` with the page headers: no framing (the consent form must not
 * be clickjacked), no caching, no scripts, and images only from `imagesFrom`'s
 * origin when given (avatars this server serves), none otherwise.
 */
export const htmlResponse = (h: ResponseToolkit, html: string, status = 200, imagesFrom?: string): ResponseObject =>
  h
    .response(html)
    .type('text/html; charset=utf-8')
    .code(status)
    .header('Cache-Control', 'no-store')
    .header('X-Frame-Options', 'DENY')
    .header('Referrer-Policy', 'no-referrer')
    .header(
      'Content-Security-Policy',
      `default-src 'none';${imagesFrom ? ` img-src ${new URL(imagesFrom).origin};` : ''} style-src 'unsafe-inline'; frame-ancestors 'none'`,
    )

/** A page that only says what went wrong. */
export const errorPage = (title: string, message: string): string => layout(title, `<h1>${esc(title)}</h1><p class="error">${esc(message)}</p>`)

/** The error page's title for a status. */
const TITLES: Record<number, string> = { 401: 'Sign-in needed', 403: 'Not allowed', 404: 'Not found', 429: 'Too many tries' }

/**
 * A domain error as a page: the client-safe message under a title that fits
 * its status. Answers null for errors that are not the visitor's (500 path).
 */
export function errorResponse(h: ResponseToolkit, err: unknown): ResponseObject | null {
  if (!isDomainError(err)) return null
  const status = errorStatus[err.code]
  const title = TITLES[status] ?? 'Something is wrong with this request'
  const response = htmlResponse(h, errorPage(title, err.message), status)
  return err.retryAfter === undefined ? response : response.header('Retry-After', String(err.retryAfter))
}

/** A page route's handler: a domain error answers its error page (see `errorResponse`), others take the 500 path. */
export const pageHandler =
  (handle: (request: Request, h: ResponseToolkit) => Promise<ResponseObject>) =>
  async (request: Request, h: ResponseToolkit): Promise<ResponseObject> => {
    try {
      return await handle(request, h)
    } catch (err) {
      return errorResponse(h, err) ?? Promise.reject(err)
    }
  }

/** A route's joi `failAction` for pages: the validation message on a 400 page. */
export const invalidInputPage = (_request: Request, h: ResponseToolkit, err: Error | undefined): ResponseObject =>
  htmlResponse(h, errorPage('Something is wrong with this request', (err?.message ?? 'invalid request').replace(/"/g, '')), 400).takeover()

/** The answer to a form posted without the CSRF token of a valid session. */
export const expiredSessionPage = (h: ResponseToolkit): ResponseObject =>
  htmlResponse(h, errorPage('Your session expired', 'Please go back, reload the page and try again.'), 403)
