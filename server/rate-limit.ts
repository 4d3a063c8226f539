/**
 * Rate limits as App.net had them: every authenticated call counts against
 * its token, writes (POST/PUT/PATCH/DELETE) also against the token's smaller
 * write bucket, and unauthenticated calls against the client's IP. Every
 * response of a limited route reports the most restrictive bucket in
 * `X-RateLimit-Limit`, `-Remaining` and `-Reset` (seconds until the window
 * ends, not an epoch); a call over a limit is a 429 with `Retry-After`,
 * refused before its handler runs.
 *
 * Counts live in this process's memory (fixed windows in a Map): right for
 * one node, and they restart from zero with the server. Several nodes behind
 * one name would need a shared counter store.
 *
 * Written here rather than taken from npm: hapi-rate-limit keys users by
 * hapi's auth credentials (svc authenticates in its own onPostAuth), has no
 * method-dependent bucket and reports the reset as a timestamp;
 * hapi-rate-limitor needs Redis.
 */
import type { Plugin, Request } from '@hapi/hapi'
import Boom from '@hapi/boom'
import { DomainError, isDomainError, type Domain, type InstanceConfig, type Viewer } from '../data/index.js'
import { tokenOf } from './auth.js'

export interface RateWindow {
  limit: number
  window_s: number
}

export interface Bucket {
  key: string
  window: RateWindow
}

/** Where a request leaves the bucket it is reported against. */
export interface BucketState {
  limit: number
  remaining: number
  /** Whole seconds until the bucket's window ends. */
  reset_s: number
  /** The request was over a limit and was not counted. */
  refused: boolean
}

/** Fixed windows per key, bounded: expired windows are pruned, and past `maxKeys` the oldest go. */
export class FixedWindows {
  private readonly windows = new Map<string, { count: number; ends: number }>()

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  get size(): number {
    return this.windows.size
  }

  /**
   * Counts one request against every bucket, or against none when one of
   * them is full (a refused call costs nothing). Answers the bucket to
   * report: when refused, the full one that frees up last (`Retry-After`
   * must cover them all); else the one with the fewest calls left.
   */
  take(buckets: readonly Bucket[]): BucketState {
    const now = this.now()
    const current = buckets.map((b) => ({ limit: b.window.limit, entry: this.current(b, now) }))
    const full = current.filter((c) => c.entry.count >= c.limit)
    if (full.length > 0) {
      const last = full.reduce((a, b) => (b.entry.ends > a.entry.ends ? b : a))
      return { limit: last.limit, remaining: 0, reset_s: secondsUntil(last.entry.ends, now), refused: true }
    }
    for (const c of current) c.entry.count++
    const tightest = current.reduce((a, b) => {
      const left = (c: typeof a) => c.limit - c.entry.count
      return left(b) < left(a) || (left(b) === left(a) && b.limit < a.limit) ? b : a
    })
    return { limit: tightest.limit, remaining: tightest.limit - tightest.entry.count, reset_s: secondsUntil(tightest.entry.ends, now), refused: false }
  }

  /** Drops the windows that have ended. */
  prune(): void {
    const now = this.now()
    for (const [key, entry] of this.windows) if (entry.ends <= now) this.windows.delete(key)
  }

  private current(bucket: Bucket, now: number): { count: number; ends: number } {
    const entry = this.windows.get(bucket.key)
    if (entry && entry.ends > now) return entry
    // Deleting first keeps the Map in order of window start, so the cap below evicts the oldest windows.
    this.windows.delete(bucket.key)
    if (this.windows.size >= this.maxKeys) this.prune()
    if (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value as string)
    const fresh = { count: 0, ends: now + bucket.window.window_s * 1000 }
    this.windows.set(bucket.key, fresh)
    return fresh
  }
}

const secondsUntil = (ends: number, now: number): number => Math.max(1, Math.ceil((ends - now) / 1000))

const WRITES = new Set(['post', 'put', 'patch', 'delete'])

/** The buckets a request counts against: its token's (and the write bucket for writes), else its IP's. */
export function bucketsOf(method: string, viewer: Viewer, ip: string, limits: InstanceConfig['rate_limits']): Bucket[] {
  const token = viewer.token
  // Only the client's own address: X-Forwarded-For is anyone's to write.
  if (!token) return [{ key: `ip:${ip}`, window: limits.unauthenticated }]
  const buckets = [{ key: `token:${token.id}`, window: limits.authenticated }]
  if (WRITES.has(method.toLowerCase())) buckets.push({ key: `write:${token.id}`, window: limits.write })
  return buckets
}

/** Does the environment turn rate limiting off? `SVC_RATE_LIMIT=off` does, for test and benchmark runs. */
export const rateLimitOffIn = (env: Record<string, string | undefined>): boolean =>
  ['off', '0', 'false'].includes((env.SVC_RATE_LIMIT ?? '').trim().toLowerCase())

const PRUNE_EVERY_MS = 60_000

/**
 * Avatar, cover and image routes opt out with `svc.unlimited`. The OAuth
 * pages and the token endpoint stay limited per IP: they check passwords and
 * create accounts, and 50 a minute is far above a person's pace.
 */
const limited = (request: Request): boolean => {
  const svc = request.route.settings.plugins?.svc
  return svc !== undefined && !svc.unlimited
}

export const rateLimitPlugin: Plugin<{ domain: Domain; windows?: FixedWindows }> = {
  name: 'svc-rate-limit',
  register(server, { domain, windows = new FixedWindows() }) {
    const limits = domain.config.rate_limits
    if (!limits.enabled) return
    const counted = new WeakMap<Request, BucketState>()
    const ipOf = (request: Request) => request.info.remoteAddress || 'unknown'

    const timer = setInterval(() => windows.prune(), PRUNE_EVERY_MS)
    timer.unref()
    server.events.on('stop', () => clearInterval(timer))

    // After the auth plugin's onPostAuth has set the viewer, before validation and the handler.
    server.ext(
      'onPostAuth',
      (request, h) => {
        if (!limited(request)) return h.continue
        const state = windows.take(bucketsOf(request.method, request.app.viewer ?? {}, ipOf(request), limits))
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
        const state = counted.get(request) ?? windows.take(bucketsOf(request.method, await viewerOfEarlyFailure(request), ipOf(request), limits))
        const headers: Record<string, string> = {
          'X-RateLimit-Limit': String(state.limit),
          'X-RateLimit-Remaining': String(state.remaining),
          'X-RateLimit-Reset': String(state.reset_s),
        }
        if (state.refused) headers['Retry-After'] = String(state.reset_s)
        const response = request.response
        if (Boom.isBoom(response)) Object.assign(response.output.headers, headers)
        else if (response) for (const [k, v] of Object.entries(headers)) response.header(k, v)
        return h.continue
      },
      { after: ['svc-envelope', 'svc-auth'] },
    )
  },
}
