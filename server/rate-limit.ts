/**
 * Rate limits as App.net had them: every authenticated call counts against
 * its token, writes (POST/PUT/PATCH/DELETE) also against the token's smaller
 * write bucket, and unauthenticated calls against the client's IP. Every
 * response of a limited route reports the most restrictive bucket in
 * `X-RateLimit-Limit`, `-Remaining` and `-Reset` (seconds until the window
 * ends, not an epoch); a call over a limit is a 429 with `Retry-After`,
 * refused before its handler runs.
 *
 * The counting itself is rate-limiter-flexible's, one limiter per bucket
 * (see rate-limiters.ts). Not a hapi rate-limit plugin: hapi-rate-limit keys
 * users by hapi's auth credentials (svc authenticates in its own
 * onPostAuth), has no method-dependent bucket and reports the reset as a
 * timestamp; hapi-rate-limitor needs Redis.
 */
import type { Plugin, Request } from '@hapi/hapi'
import { DomainError, isDomainError, type Domain, type Viewer } from '../data/index.js'
import { tokenOf } from './auth.js'
import { clientAddressOf } from './client-address.js'
import { RateLimiters, type BucketState, type MakeLimiter } from './rate-limiters.js'
import { setWireHeader } from './wire-headers.js'

/** Does the environment turn rate limiting off? `SVC_RATE_LIMIT=off` does, for test and benchmark runs. */
export const rateLimitOffIn = (env: Record<string, string | undefined>): boolean =>
  ['off', '0', 'false'].includes((env.SVC_RATE_LIMIT ?? '').trim().toLowerCase())

/**
 * Avatar, cover and image routes opt out with `svc.unlimited`. The OAuth
 * pages and the token endpoint stay limited per IP: they check passwords and
 * create accounts, and 50 a minute is far above a person's pace.
 */
const limited = (request: Request): boolean => {
  const svc = request.route.settings.plugins?.svc
  return svc !== undefined && !svc.unlimited
}

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
        const state = await limiters.take(request.method, request.app.viewer ?? {}, ipOf(request))
        counted.set(request, state)
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
      return domain.tokens.authenticate(token).catch((err: unknown) => {
        if (isDomainError(err)) return {}
        throw err
      })
    }

    // After the envelope has rendered the answer, so every status, errors and raw routes included, gets the headers.
    server.ext(
      'onPreResponse',
      async (request, h) => {
        if (!limited(request)) return h.continue
        // A request refused before onPostAuth is counted here but keeps its own error: it never reached a handler.
        const state = counted.get(request) ?? (await limiters.take(request.method, await viewerOfEarlyFailure(request), ipOf(request)))
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
