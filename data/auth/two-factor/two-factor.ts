/**
 * Two-factor sign-in: a user sets up an authenticator app (TOTP), confirms
 * it with a code and gets ten recovery codes, shown once; from then on the
 * sign-in page asks for a code after the password. Every change of it (on,
 * off, new recovery codes) signs the account out everywhere but where the
 * change was made (see sign-out-others.ts). The secret lives in its own
 * table, never on the user row, so no event or answer carries it; only
 * `begin` shows it, to the user setting it up.
 */
import type { InstanceConfig } from '../../config.js'
import { conflict, DomainError, invalid, notFound } from '../../errors.js'
import type { TwoFactorRow } from '../../model/two-factor.js'
import type { UserRow } from '../../model/user.js'
import type { Store, Tx } from '../../store/port.js'
import { isoNow } from '../../time.js'
import type { SessionClaim, UserService } from '../../users/users.js'
import type { Viewer } from '../../viewer.js'
import type { SignInGuard } from '../sign-in-guard.js'
import { revokeAllTokens } from '../tokens.js'
import { newRecoveryCodes, recoveryCodeHash } from './recovery-codes.js'
import { nextGeneration, revokeOtherTokens, type Keeping } from './sign-out-others.js'
import { acceptedStep, isTotpShaped, newEnrolment, type TotpEnrolment } from './totp.js'

/** Where an account's two-factor sign-in stands (what its owner's settings show). */
export interface TwoFactorStatus {
  enabled: boolean
  enabled_at?: string
  /** How many recovery codes are left unused. */
  recovery_codes_left: number
}

/** A change made: the account as it is now, where its 2FA stands, new recovery codes (shown this once), and the changer's session under the account's new credential generation. */
export interface TwoFactorChange {
  user: UserRow
  status: TwoFactorStatus
  recovery_codes?: string[]
  session?: SessionClaim
}

/** A code shown to be right for a row, to be spent in the transaction that acts on it. */
type Proof = { kind: 'totp'; secret: string; step: number } | { kind: 'recovery'; hash: string }

const wrongCode = (): DomainError =>
  new DomainError('invalid', 'That code is not right: enter the current code of your authenticator app, or an unused recovery code.', { slug: 'wrong-code' })

const notOn = (): DomainError => conflict('Two-factor sign-in is not on for this account.')

const ownerOf = (viewer: Viewer): UserRow => {
  if (!viewer.user) throw invalid('two-factor sign-in needs a user token')
  return viewer.user
}

const statusOf = (row: TwoFactorRow | null): TwoFactorStatus =>
  row?.enabled_at === undefined
    ? { enabled: false, recovery_codes_left: 0 }
    : { enabled: true, enabled_at: row.enabled_at, recovery_codes_left: row.recovery_code_hashes.length }

const isOnRow = (row: TwoFactorRow | null): row is TwoFactorRow & { secret: string; enabled_at: string } =>
  row !== null && row.secret !== undefined && row.enabled_at !== undefined

/** The settings the service reads: the instance's name is the issuer authenticator apps show. */
export type TwoFactorSettings = Pick<InstanceConfig, 'name'>

export class TwoFactorService {
  constructor(
    private readonly store: Store,
    private readonly users: UserService,
    private readonly guard: SignInGuard,
    private readonly settings: TwoFactorSettings,
  ) {}

  /** Is two-factor sign-in on for user `userId`? */
  async isOn(userId: number): Promise<boolean> {
    return isOnRow(await this.store.read.two_factor.one('user', userId))
  }

  /** Where the viewer's two-factor sign-in stands. Errors: `invalid` (not a user token). */
  async status(viewer: Viewer): Promise<TwoFactorStatus> {
    return statusOf(await this.store.read.two_factor.one('user', ownerOf(viewer).id))
  }

  /**
   * Starts setting up: a new secret, kept pending until `confirm`, with its
   * otpauth:// URI and QR code (the one answer that shows the secret).
   * Beginning again replaces a pending secret. Errors: `conflict` (already
   * on: turn it off first), `invalid`.
   */
  async begin(viewer: Viewer): Promise<TotpEnrolment> {
    const user = ownerOf(viewer)
    const enrolment = await newEnrolment(this.settings.name, user.username)
    await this.store.transact(async (tx) => {
      const row = await tx.two_factor.one('user', user.id)
      if (isOnRow(row)) throw conflict('Two-factor sign-in is on already: turn it off first to set up another app.')
      if (row) tx.two_factor.put({ ...row, pending_secret: enrolment.secret })
      else tx.two_factor.insert({ user_id: user.id, pending_secret: enrolment.secret, recovery_code_hashes: [] })
    })
    return enrolment
  }

  /**
   * Finishes setting up with a code of the pending secret: two-factor
   * sign-in is on, ten recovery codes are made (answered this once), and
   * every other session and token of the account ends (`keep`'s stay).
   * Errors: `invalid` slug `wrong-code`, `conflict` (nothing pending, or on
   * already). Emits `user.two_factor_enabled`, `token.deauthorized` per token.
   */
  async confirm(viewer: Viewer, code: string, keep: Keeping = {}): Promise<TwoFactorChange> {
    const owner = ownerOf(viewer)
    const row = await this.store.read.two_factor.one('user', owner.id)
    if (isOnRow(row)) throw conflict('Two-factor sign-in is on already.')
    const pending = row?.pending_secret
    if (!pending) throw conflict('Set-up was not begun: begin it first to get a secret.')
    const step = await acceptedStep(pending, code)
    if (step === null) throw wrongCode()
    const { codes, hashes } = newRecoveryCodes()
    const change = await this.store.transact(async (tx) => {
      const current = await tx.two_factor.one('user', owner.id)
      // Set-up begun again meanwhile: the code was for a secret no longer pending.
      if (!current || current.pending_secret !== pending || isOnRow(current)) throw wrongCode()
      const { pending_secret: _, ...rest } = current
      const next = tx.two_factor.put({ ...rest, secret: pending, enabled_at: isoNow(), last_time_step: step, recovery_code_hashes: hashes })
      const moved = await this.nextGenerationOf(tx, owner.id, keep)
      tx.emit('user.two_factor_enabled', { user: moved.user })
      return { ...moved, status: statusOf(next), recovery_codes: codes }
    })
    await revokeOtherTokens(this.store, owner.id, keep.tokenId)
    return change
  }

  /**
   * Turns two-factor sign-in off, with the account's password and a current
   * code or an unused recovery code (one guess at the account from
   * `address`, see `SignInGuard`). The account's app passwords go with it,
   * and every other session and token of the account ends.
   * Errors: `invalid` slug `wrong-code` (wrong password or code),
   * `rate_limited`, `conflict` (not on). Emits `user.two_factor_disabled`,
   * `user.two_factor_recovery_code_used` when one was used,
   * `token.deauthorized` per token.
   */
  async disable(viewer: Viewer, input: { password: string; code: string }, address: string, keep: Keeping = {}): Promise<TwoFactorChange> {
    const owner = ownerOf(viewer)
    const row = await this.store.read.two_factor.one('user', owner.id)
    if (!isOnRow(row)) throw notOn()
    const proof = await this.guard.attempt({ address, account: owner.username }, async () =>
      (await this.users.checkPassword(owner.username, input.password)) ? this.prove(row, input.code) : null,
    )
    if (!proof) throw new DomainError('invalid', 'The password or the code is not right.', { slug: 'wrong-code' })
    const change = await this.store.transact(async (tx) => {
      const current = await tx.two_factor.one('user', owner.id)
      if (!current || !(await this.spend(tx, current, proof, owner.id))) throw wrongCode()
      const moved = await this.nextGenerationOf(tx, owner.id, keep)
      await this.removeIn(tx, current)
      tx.emit('user.two_factor_disabled', { user: moved.user })
      return { ...moved, status: statusOf(null) }
    })
    await revokeOtherTokens(this.store, owner.id, keep.tokenId)
    return change
  }

  /**
   * Replaces the recovery codes with ten new ones (answered this once),
   * with a current code or an unused recovery code; every other session
   * and token of the account ends. Errors: `invalid` slug `wrong-code`,
   * `rate_limited`, `conflict` (not on). Emits
   * `user.two_factor_recovery_codes_renewed`, `token.deauthorized` per token.
   */
  async renewRecoveryCodes(viewer: Viewer, code: string, address: string, keep: Keeping = {}): Promise<TwoFactorChange> {
    const owner = ownerOf(viewer)
    const row = await this.store.read.two_factor.one('user', owner.id)
    if (!isOnRow(row)) throw notOn()
    const proof = await this.guard.attempt({ address, account: owner.username }, () => this.prove(row, code))
    if (!proof) throw wrongCode()
    const { codes, hashes } = newRecoveryCodes()
    const change = await this.store.transact(async (tx) => {
      const current = await tx.two_factor.one('user', owner.id)
      const spent = current && (await this.spend(tx, current, proof, owner.id))
      if (!spent) throw wrongCode()
      const next = tx.two_factor.put({ ...spent, recovery_code_hashes: hashes })
      const moved = await this.nextGenerationOf(tx, owner.id, keep)
      tx.emit('user.two_factor_recovery_codes_renewed', { user: moved.user })
      return { ...moved, status: statusOf(next), recovery_codes: codes }
    })
    await revokeOtherTokens(this.store, owner.id, keep.tokenId)
    return change
  }

  /**
   * The sign-in page's second step: answers the account when `code` is a
   * current code of its app (one not accepted before) or an unused recovery
   * code (which is spent), else null. The caller counts it as a guess.
   * Emits `user.two_factor_recovery_code_used` for a recovery code.
   */
  async checkCode(userId: number, code: string): Promise<UserRow | null> {
    const row = await this.store.read.two_factor.one('user', userId)
    if (!isOnRow(row)) return null
    const proof = await this.prove(row, code)
    if (!proof) return null
    return this.store.transact(async (tx) => {
      const current = await tx.two_factor.one('user', userId)
      return current && (await this.spend(tx, current, proof, userId)) ? tx.users.get(userId) : null
    })
  }

  /**
   * The operator turns two-factor sign-in off for an account whose owner
   * lost both the app and the recovery codes (`svc user reset-2fa`): its
   * app passwords go, and it is signed out everywhere (sessions, pending
   * codes, every token). An account without it is answered unchanged
   * (still signed out everywhere). Errors: `not_found`. Emits
   * `user.two_factor_disabled` (`by_operator`), `token.deauthorized` per token.
   */
  async reset(userId: number): Promise<UserRow> {
    const user = await this.store.transact(async (tx) => {
      const row = await tx.two_factor.one('user', userId)
      const { user } = await this.nextGenerationOf(tx, userId)
      if (row) await this.removeIn(tx, row)
      if (isOnRow(row)) tx.emit('user.two_factor_disabled', { user, by_operator: true })
      return user
    })
    await revokeAllTokens(this.store, 'user', userId)
    return user
  }

  /** Is `code` right for `row` now: a TOTP code of a step after the last accepted, or one of its recovery codes? */
  private async prove(row: TwoFactorRow & { secret: string }, code: string): Promise<Proof | null> {
    if (isTotpShaped(code)) {
      const step = await acceptedStep(row.secret, code, row.last_time_step)
      return step === null ? null : { kind: 'totp', secret: row.secret, step }
    }
    const hash = recoveryCodeHash(code)
    return row.recovery_code_hashes.includes(hash) ? { kind: 'recovery', hash } : null
  }

  /**
   * Spends `proof` on `row` as it is in `tx`: answers the row written, or
   * null when the proof no longer holds (another request spent the code or
   * a later step first, or the secret changed).
   */
  private async spend(tx: Tx, row: TwoFactorRow, proof: Proof, userId: number): Promise<TwoFactorRow | null> {
    if (proof.kind === 'totp') {
      if (row.secret !== proof.secret || (row.last_time_step ?? -1) >= proof.step) return null
      return tx.two_factor.put({ ...row, last_time_step: proof.step })
    }
    if (!row.recovery_code_hashes.includes(proof.hash)) return null
    const next = tx.two_factor.put({ ...row, recovery_code_hashes: row.recovery_code_hashes.filter((h) => h !== proof.hash) })
    const user = await tx.users.get(userId)
    if (user) tx.emit('user.two_factor_recovery_code_used', { user, codes_left: next.recovery_code_hashes.length })
    return next
  }

  private async nextGenerationOf(tx: Tx, userId: number, keep?: Keeping): Promise<{ user: UserRow; session?: SessionClaim }> {
    const user = await tx.users.get(userId)
    if (!user || user.deleted_at !== undefined) throw notFound(`user ${userId} not found`)
    return nextGeneration(tx, user, keep)
  }

  /** Removes the account's second factor and its app passwords (their tokens go with the account's). */
  private async removeIn(tx: Tx, row: TwoFactorRow): Promise<void> {
    for (const id of await tx.app_passwords.ids('user', row.user_id, { limit: Number.MAX_SAFE_INTEGER })) tx.app_passwords.remove(id)
    tx.two_factor.remove(row.id)
  }
}
