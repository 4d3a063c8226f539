/**
 * The counters behind the rate limits: one rate-limiter-flexible limiter per
 * bucket (a token's calls, a token's writes, an address's unauthenticated
 * calls, an address's HTML pages), every one of them made by a `MakeLimiter`. The default keeps fixed
 * windows in this process's memory: right for one node, and counts restart
 * from zero with the server. Several nodes behind one name share their
 * counters in Redis (the bus): `redisLimiter`, rate-limiter-flexible's Redis
 * limiter with the same points and duration.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import { defaultConfig, type InstanceConfig, type Viewer } from '../../data/index.js'

export type BucketName = 'token' | 'write' | 'ip' | 'page' | 'server'

/** How a route is counted beside its method (see `SvcRouteConfig.rateAs`). */
export type RateAs = 'api' | 'page' | 'read' | 'inbox' | 'heavy'

export interface RateWindow {
  limit: number
  window_s: number
}

/** Builds the limiter of one bucket; the store behind it is this function's choice. */
export type MakeLimiter = (bucket: BucketName, window: RateWindow) => RateLimiterAbstract

/** Counters in this process's memory; a key's window is dropped when it ends. */
export const memoryLimiter: MakeLimiter = (bucket, window) =>
  new RateLimiterMemory({ keyPrefix: `svc-${bucket}`, points: window.limit, duration: window.window_s })

/** Counters in Redis (the bus), shared by every node of the instance: a token gets its limit once, whichever node it reaches. */
export const redisLimiter =
  (bus: { client: object; prefix: string }): MakeLimiter =>
  (bucket, window) =>
    new RateLimiterRedis({ storeClient: bus.client, keyPrefix: `${bus.prefix}:${bucket}`, points: window.limit, duration: window.window_s })

/** The instance's `rate_limits`; config given in code (tests, benchmarks) may leave the pages' and servers' windows out. */
export type RateLimitsGiven = Omit<InstanceConfig['rate_limits'], 'pages' | 'federation'> & Partial<Pick<InstanceConfig['rate_limits'], 'pages' | 'federation'>>

/** Where a request leaves the bucket it is reported against. */
export interface BucketState {
  limit: number
  remaining: number
  /** Whole seconds until the bucket's window ends. */
  reset_s: number
  /** The request was over a limit and was not counted. */
  refused: boolean
}

interface Bucket {
  name: BucketName
  key: string
}

const WRITES = new Set(['post', 'put', 'patch', 'delete'])

const secondsOf = (ms: number): number => Math.max(1, Math.ceil(ms / 1000))

/** The limiters of an instance's four buckets, built once from its `rate_limits`. */
export class RateLimiters {
  private readonly limiters: Record<BucketName, RateLimiterAbstract>

  constructor(limits: RateLimitsGiven, make: MakeLimiter = memoryLimiter) {
    const defaults = defaultConfig().rate_limits
    this.limiters = {
      token: make('token', limits.authenticated),
      write: make('write', limits.write),
      ip: make('ip', limits.unauthenticated),
      page: make('page', limits.pages ?? defaults.pages),
      server: make('server', limits.federation ?? defaults.federation),
    }
  }

  /**
   * Counts one request against each of its buckets (its token's, plus the
   * write bucket for writes but read markers and for heavy reads, else its address's; a page
   * only its address's page bucket, an inbox POST only its remote server's,
   * `server`, else its address's), or against none when one of them is
   * full: a refused call costs nothing. Answers the bucket to report: when
   * refused, the full one that frees up last (`Retry-After` must cover them
   * all); else the one with the fewest calls left.
   */
  async take(method: string, viewer: Viewer, ip: string, rateAs: RateAs = 'api', server?: string): Promise<BucketState> {
    const taken = await Promise.all(
      bucketsOf(method, viewer, ip, rateAs, server).map(async (bucket) => {
        const limiter = this.limiters[bucket.name]
        const answer = await limiter.consume(bucket.key).then(
          (res) => ({ res, over: false }),
          // The limiter rejects with its answer when over the limit; anything else is the store failing.
          (err: unknown) => (err instanceof RateLimiterRes ? { res: err, over: true } : Promise.reject(err)),
        )
        return { bucket, limit: limiter.points, ...answer }
      }),
    )
    const over = taken.filter((t) => t.over)
    if (over.length > 0) {
      // All or nothing: what this call took from the buckets that had room goes back, and so does its point over the full ones.
      await Promise.all(taken.map((t) => this.limiters[t.bucket.name].reward(t.bucket.key)))
      const last = over.reduce((a, b) => (b.res.msBeforeNext > a.res.msBeforeNext ? b : a))
      return { limit: last.limit, remaining: 0, reset_s: secondsOf(last.res.msBeforeNext), refused: true }
    }
    const tightest = taken.reduce((a, b) => {
      const left = (t: typeof a) => t.res.remainingPoints
      return left(b) < left(a) || (left(b) === left(a) && b.limit < a.limit) ? b : a
    })
    return { limit: tightest.limit, remaining: tightest.res.remainingPoints, reset_s: secondsOf(tightest.res.msBeforeNext), refused: false }
  }
}

function bucketsOf(method: string, viewer: Viewer, ip: string, rateAs: RateAs, server: string | undefined): Bucket[] {
  // Pages are a browser's, whoever is signed in: they never spend a token's calls.
  if (rateAs === 'page') return [{ name: 'page', key: ip }]
  // Another server's activities count against that server, from whichever address they come.
  if (rateAs === 'inbox') return [{ name: 'server', key: server ?? ip }]
  const token = viewer.token
  if (!token) return [{ name: 'ip', key: ip }]
  const buckets: Bucket[] = [{ name: 'token', key: String(token.id) }]
  if (rateAs === 'heavy' || (rateAs !== 'read' && WRITES.has(method.toLowerCase()))) buckets.push({ name: 'write', key: String(token.id) })
  return buckets
}
