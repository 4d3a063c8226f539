/**
 * Limits on guessing credentials: passwords at the password grant and the
 * sign-in page, client secrets wherever a client proves itself. Counted per
 * address and per account, whatever else the request carries (a valid token
 * buys no extra guesses), and whether or not the API's rate limits are on.
 * The shape is rate-limiter-flexible's "login endpoint protection": failed
 * guesses per address per minute and per day, consecutive failures per
 * account from one address, and consecutive failures per account from
 * anywhere with a back-off that doubles after each further failure. A
 * successful sign-in clears the account's counts.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import { DomainError } from '../errors.js'
import { usernameKey } from '../users/users.js'

type CounterName = 'address-minute' | 'address-day' | 'account-address' | 'account'

export interface GuardWindow {
  points: number
  duration_s: number
}

/** Builds one of the guard's counters; the store behind them is this function's choice. */
export type MakeGuardCounter = (name: CounterName | 'account-backoff', window: GuardWindow) => RateLimiterAbstract

/** The guard's counters in this process's memory: right for one node; they start from zero with the process. */
export const memoryGuardCounters: MakeGuardCounter = (name, window) =>
  new RateLimiterMemory({ keyPrefix: `svc-sign-in-${name}`, points: window.points, duration: window.duration_s })

/** The guard's counters in Redis (the bus), shared by every node; while Redis fails, each node counts in memory. */
export const redisGuardCounters =
  (bus: { client: object; prefix: string }): MakeGuardCounter =>
  (name, window) =>
    new RateLimiterRedis({
      storeClient: bus.client,
      keyPrefix: `${bus.prefix}:sign-in-${name}`,
      points: window.points,
      duration: window.duration_s,
      insuranceLimiter: memoryGuardCounters(name, window),
    })

/** How many failed guesses each counter allows, and over what window. */
export const SIGN_IN_LIMITS = {
  /** Failed guesses from one address in a minute. */
  perAddressPerMinute: { points: 30, duration_s: 60 },
  /** Failed guesses from one address in a day. */
  perAddressPerDay: { points: 100, duration_s: 24 * 3600 },
  /** Failures in a row at one account from one address, within an hour. */
  perAccountAndAddress: { points: 10, duration_s: 3600 },
  /** Failures in a row at one account from anywhere (within a day) before each further one makes it wait. */
  perAccountFree: 5,
  /** The first wait, doubled by each failure after it, up to `maxBackoff_s`. */
  firstBackoff_s: 1,
  maxBackoff_s: 15 * 60,
} as const

/** A credential guess: where it came from, and the account whose password it tries (none for a client secret). */
export interface Guess {
  address: string
  account?: string
}

const secondsOf = (ms: number): number => Math.max(1, Math.ceil(ms / 1000))

const wait = (s: number): string => (s < 120 ? `${s} seconds` : `${Math.ceil(s / 60)} minutes`)

/** The refusal of a guess over a limit: a 429 with `Retry-After`. */
const tooMany = (ms: number): DomainError => {
  const s = secondsOf(ms)
  return new DomainError('rate_limited', `Too many failed sign-in attempts. Try again in ${wait(s)}.`, { retryAfter: s })
}

export class SignInGuard {
  private readonly minute: RateLimiterAbstract
  private readonly day: RateLimiterAbstract
  private readonly accountAddress: RateLimiterAbstract
  private readonly account: RateLimiterAbstract
  private readonly backoff: RateLimiterAbstract

  constructor(make: MakeGuardCounter = memoryGuardCounters) {
    this.minute = make('address-minute', SIGN_IN_LIMITS.perAddressPerMinute)
    this.day = make('address-day', SIGN_IN_LIMITS.perAddressPerDay)
    this.accountAddress = make('account-address', SIGN_IN_LIMITS.perAccountAndAddress)
    // Counts without refusing (the back-off does that); it forgets a day after the first failure.
    this.account = make('account', { points: Number.MAX_SAFE_INTEGER, duration_s: 24 * 3600 })
    this.backoff = make('account-backoff', { points: 1, duration_s: 1 })
  }

  /**
   * Runs `check`, which answers null for wrong credentials, as one guess.
   * Answers what `check` answered. Refused before `check` runs while the
   * address or the account is over a limit. The address's counts are taken
   * before `check` (so a burst of guesses in flight at once is counted too)
   * and given back when it succeeds.
   * Errors: `rate_limited` (with `retryAfter`), or what `check` throws.
   */
  async attempt<T>(guess: Guess, check: () => Promise<T | null>): Promise<T | null> {
    const account = guess.account === undefined ? undefined : usernameKey(guess.account)
    const pair = account === undefined ? undefined : `${guess.address} ${account}`
    if (account !== undefined && pair !== undefined) await this.refuseWhileAccountOver(account, pair)
    await this.takeAddress(guess.address)
    let result: T | null
    try {
      result = await check()
    } catch (err) {
      await this.giveBackAddress(guess.address)
      throw err
    }
    if (result !== null) {
      await this.giveBackAddress(guess.address)
      if (account !== undefined && pair !== undefined)
        await Promise.all([this.account.delete(account), this.backoff.delete(account), this.accountAddress.delete(pair)])
    } else if (account !== undefined && pair !== undefined) {
      await this.accountFailed(account, pair)
    }
    return result
  }

  /**
   * Counts a request that costs its address what a failed guess does
   * (asking for a password-reset mail), whatever it leads to.
   * Errors: `rate_limited` (with `retryAfter`).
   */
  async charge(address: string): Promise<void> {
    await this.takeAddress(address)
  }

  private async refuseWhileAccountOver(account: string, pair: string): Promise<void> {
    const [fromHere, blocked] = await Promise.all([this.accountAddress.get(pair), this.backoff.get(account)])
    const over = [
      fromHere && fromHere.consumedPoints >= SIGN_IN_LIMITS.perAccountAndAddress.points ? fromHere.msBeforeNext : 0,
      blocked && blocked.consumedPoints > 1 ? blocked.msBeforeNext : 0,
    ]
    const ms = Math.max(...over)
    if (ms > 0) throw tooMany(ms)
  }

  private async takeAddress(address: string): Promise<void> {
    const taken = await Promise.all(
      [this.minute, this.day].map((limiter) =>
        limiter.consume(address).then(
          () => ({ limiter, over: 0 }),
          // The limiter rejects with its answer when over; anything else is the store failing.
          (err: unknown) => (err instanceof RateLimiterRes ? { limiter, over: err.msBeforeNext } : Promise.reject(err)),
        ),
      ),
    )
    const over = Math.max(...taken.map((t) => t.over))
    if (over === 0) return
    // A refused guess costs nothing: what it took from a counter with room goes back.
    await Promise.all(taken.filter((t) => t.over === 0).map((t) => t.limiter.reward(address)))
    throw tooMany(over)
  }

  private async giveBackAddress(address: string): Promise<void> {
    await Promise.all([this.minute.reward(address), this.day.reward(address)])
  }

  private async accountFailed(account: string, pair: string): Promise<void> {
    const [failures] = await Promise.all([this.account.consume(account), this.accountAddress.consume(pair).catch(ignoreOver)])
    const beyond = failures.consumedPoints - SIGN_IN_LIMITS.perAccountFree
    if (beyond < 0) return
    const seconds = Math.min(SIGN_IN_LIMITS.maxBackoff_s, SIGN_IN_LIMITS.firstBackoff_s * 2 ** Math.min(beyond, 30))
    await this.backoff.block(account, seconds)
  }
}

/** A count that went over its limit was still counted; the refusal comes at the next guess. */
const ignoreOver = (err: unknown): null => {
  if (err instanceof RateLimiterRes) return null
  throw err
}
