/**
 * The sign-in page's second step for an account with two-factor sign-in:
 * after the right password the visitor is half signed in (the page's
 * session holds who, under which credential generation, until when) and
 * is asked for a code; the password is not asked again. A wrong code is a
 * failed guess at the account, as a wrong password is (see `SignInGuard`).
 */
import { isDomainError } from '../../errors.js'
import type { UserRow } from '../../model/user.js'
import { sessionEpochOf, type UserService } from '../../users/users.js'
import type { SignInGuard } from '../sign-in-guard.js'
import type { TwoFactorService } from './two-factor.js'

/** How long the half-signed-in state lasts: time to open the app and type a code, no more. */
export const SECOND_STEP_TTL_MS = 5 * 60 * 1000

/** A visitor who gave the right password and owes a code: the account, its credential generation then, and the time (ms) the state ends. */
export interface PendingSignIn {
  userId: number
  epoch: number
  expires: number
}

export type SecondStepResult =
  | { kind: 'signed-in'; user: UserRow }
  /** The code was wrong, or refused for too many failures (`retryAfter`, seconds). */
  | { kind: 'wrong'; username: string; message: string; retryAfter?: number }
  /** The state ran out, or the account changed (password reset, suspension) since the password was given. */
  | { kind: 'expired' }

export class SecondStep {
  constructor(
    private readonly twoFactor: TwoFactorService,
    private readonly users: UserService,
    private readonly guard: SignInGuard,
  ) {}

  /** The pending state for `user` if its sign-in needs a code; null when its password is all it needs. */
  async pendingFor(user: UserRow, now = Date.now()): Promise<PendingSignIn | null> {
    return (await this.twoFactor.isOn(user.id)) ? { userId: user.id, epoch: sessionEpochOf(user), expires: now + SECOND_STEP_TTL_MS } : null
  }

  /** The account `pending` stands for while it holds (unexpired, same generation, not suspended); null otherwise. */
  async holder(pending: PendingSignIn | undefined, now = Date.now()): Promise<UserRow | null> {
    if (!pending || pending.expires <= now) return null
    return this.users.sessionUser({ userId: pending.userId, epoch: pending.epoch })
  }

  /**
   * Checks `code` for the visitor of `pending`, from `address`. Errors:
   * none of its own (a refusal for too many failures answers `wrong` with
   * `retryAfter`). Emits `user.two_factor_recovery_code_used` when a
   * recovery code signed in.
   */
  async check(pending: PendingSignIn | undefined, code: string, address: string): Promise<SecondStepResult> {
    const user = await this.holder(pending)
    if (!user) return { kind: 'expired' }
    const wrong = { kind: 'wrong' as const, username: user.username, message: 'That code is not right. Try the current code of your app, or a recovery code.' }
    try {
      const checked = await this.guard.attempt({ address, account: user.username }, () => this.twoFactor.checkCode(user.id, code.trim()))
      return checked ? { kind: 'signed-in', user: checked } : wrong
    } catch (err) {
      if (isDomainError(err) && err.code === 'rate_limited') return { ...wrong, message: err.message, retryAfter: err.retryAfter }
      throw err
    }
  }
}
