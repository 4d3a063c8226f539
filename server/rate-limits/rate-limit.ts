/**
 * Rate limits as App.net had them: every authenticated call counts against
 * its token, writes (POST/PUT/PATCH/DELETE, but read markers) also against
 * the token's smaller write bucket, and unauthenticated calls against the
 * client's address (`clientAddressOf`). Every response of a limited API
 * route reports the most restrictive bucket in `X-RateLimit-Limit`,
 * `-Remaining` and `-Reset` (seconds until the window ends, not an epoch); a
 * call over a limit is a 429 with `Retry-After`, refused before its handler
 * runs. HTML pages are not API calls: they count in the address's own page
 * bucket, report no API bucket, and a refused one is an HTML 429 page with
 * `Retry-After`. The web client's built files are never counted.
 *
 * The counting itself is rate-limiter-flexible's, one limiter per bucket
 * (see rate-limiters.ts). Not a hapi rate-limit plugin: hapi-rate-limit keys
 * users by hapi's auth credentials (svc authenticates in its own
 * onPostAuth), has no method-dependent bucket and reports the reset as a
 * timestamp; hapi-rate-limitor needs Redis.
 */
import type { Plugin, Request, ResponseToolkit } from '@hapi/hapi'
import { DomainError, isDomainError, type Domain, type Viewer } from '../../data/index.js'
import { tokenOf } from '../auth.js'
import { clientAddressOf } from '../request-trust/client-address.js'
import { errorPage, htmlResponse } from '../pages/layout.js'
import { RateLimiters, type BucketState, type MakeLimiter, type RateAs } from './rate-limiters.js'
import { setWireHeader } from '../wire-headers.js'

/**
 * Avatar, cover and image routes and the web client's files opt out with
 * `svc.unlimited`. The OAuth pages are pages (their password checks have a
 * guard of their own); the token endpoint stays limited per address.
 */
const limited = (request: Request): boolean => {
  const svc = request.route.settings.plugins?.svc
  return svc !== undefined && !svc.unlimited
}

const rateAsOf = (request: Request): RateAs => request.route.settings.plugins?.svc?.rateAs ?? 'api'

/**
 * The remote server an inbox POST comes from: the authority of the key
 * that signed it (draft-cavage `keyId`, RFC 9421 `keyid`), lower-cased;
 * undefined for an unsigned one, which counts against its address.
 */
function remoteServerOf(request: Request): string | undefined {
  const signature = `${String(request.headers.signature ?? '')} ${String(request.headers['signature-input'] ?? '')}`
  const keyId = /keyid="([^"]{1,2048})"/i.exec(signature)?.[1]
  if (!keyId || !URL.canParse(keyId)) return undefined
  return new URL(keyId).host.toLowerCase() || undefined
}

const tooManyPages = (h: ResponseToolkit, state: BucketState) =>
  htmlResponse(h, errorPage('Too many requests', `Pages were asked for too quickly from your address. Please try again in ${state.reset_s} seconds.`), 429)
    .header('Retry-After', String(state.reset_s))
    .takeover()

export const rateLimitPlugin: Plugin<{ domain: Domain; makeLimiter?: MakeLimiter }> = {
  name: 'svc-rate-limit',
  register(server, { domain, makeLimiter }) {
    const limits = domain.config.rate_limits
    if (!limits.enabled) return
    const limiters = new RateLimiters(limits, makeLimiter)
    const counted = new WeakMap<Request, BucketState>()
    const ipOf = clientAddressOf

    // After the auth plugin's onPostAuth has set the viewer, before validation and the handler.
    server.ext(
      'onPostAuth',
      async (request, h) => {
        if (!limited(request)) return h.continue
        const rateAs = rateAsOf(request)
        const state = await limiters.take(request.method, request.app.viewer ?? {}, ipOf(request), rateAs, remoteServerOf(request))
        counted.set(request, state)
        if (state.refused && rateAs === 'page') return tooManyPages(h, state)
        if (state.refused) throw new DomainError('rate_limited', `Too Many Requests: rate limit exceeded, retry in ${state.reset_s} seconds.`)
        return h.continue
      },
      { after: ['svc-auth'] },
    )

    /**
     * The viewer of a request that failed before the onPostAuth above (a bad
     * token, a missing one, a body that did not parse): such calls still
     * count, against the token when it is good, else the IP.
     */
    const viewerOfEarlyFailure = async (request: Request): Promise<Viewer> => {
      if (request.app.viewer) return request.app.viewer
      const token = tokenOf(request)
      if (!token) return {}
      return domain.auth.tokens.authenticate(token).catch((err: unknown) => {
        if (isDomainError(err)) return {}
        throw err
      })
    }

    // After the envelope has rendered the answer, so every status, errors and raw routes included, gets the headers.
    server.ext(
      'onPreResponse',
      async (request, h) => {
        if (!limited(request)) return h.continue
        const rateAs = rateAsOf(request)
        // A request refused before onPostAuth is counted here but keeps its own error: it never reached a handler.
        const state =
          counted.get(request) ?? (await limiters.take(request.method, await viewerOfEarlyFailure(request), ipOf(request), rateAs, remoteServerOf(request)))
        // The X-RateLimit headers tell API clients of their API buckets; a page's bucket is no API client's business.
        if (rateAs === 'page') return h.continue
        const headers: Record<string, string> = {
          'X-RateLimit-Limit': String(state.limit),
          'X-RateLimit-Remaining': String(state.remaining),
          'X-RateLimit-Reset': String(state.reset_s),
        }
        if (state.refused) headers['Retry-After'] = String(state.reset_s)
        const response = request.response
        if (response) for (const [name, value] of Object.entries(headers)) setWireHeader(response, name, value)
        return h.continue
      },
      { after: ['svc-envelope', 'svc-auth'] },
    )
  },
}
