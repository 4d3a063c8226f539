/**
 * The account's owner in control of it: a new password proved with the
 * current one, the account's live user tokens (its sessions) listed and
 * ended one by one or all but the caller's, and the account deleted as the
 * operator deletes one. A new password or "everywhere else" signs out
 * everyone but the caller, as a change of two-factor sign-in does
 * (sign-out-others.ts). Every proof of the password counts as a sign-in
 * guess (`SignInGuard`).
 */
import { DomainError, forbidden, invalid, notFound } from '../errors.js'
import type { UserRow } from '../model/user.js'
import type { PasswordHasher } from '../security/passwords.js'
import type { Store } from '../store/port.js'
import { checkPasswordRule, type SessionClaim, type UserService } from '../users/users.js'
import type { Viewer } from '../viewer.js'
import type { SignInGuard } from './sign-in-guard.js'
import { revokeTokenIn } from './tokens.js'
import { nextGeneration, revokeOtherTokens, type Keeping } from './two-factor/sign-out-others.js'

/** One live user token of the account, as its owner sees it: never the token itself. */
export interface AccountSession {
  id: number
  app_name: string
  created_at: string
  /** Tokens keep no time of last use: null until they do. */
  last_used_at: string | null
  scopes: string[]
  /** The token making the request. */
  current: boolean
}

/** A change that signed the account out elsewhere: the account as it is now, the caller's sign-in session under its new credential generation, and how many other tokens ended. */
export interface AccountChange {
  user: UserRow
  session?: SessionClaim
  ended: number
}

/** What proves the owner is at the keyboard: the password, and a second-factor code while two-factor sign-in is on. */
export interface OwnerProof {
  password: string
  code?: string
}

/** The parts of two-factor sign-in the owner's proof needs (`TwoFactorService`). */
export interface SecondFactor {
  isOn(userId: number): Promise<boolean>
  checkCode(userId: number, code: string): Promise<UserRow | null>
}

/** Deletes an account for good, as the operator's `svc user delete` does (`ModerationService.deleteUser`). */
export type DeleteAccount = (userId: number) => Promise<UserRow>

const wrongPassword = (): DomainError => new DomainError('invalid', 'That password is not right.', { slug: 'wrong-password' })

/** The viewer's account, for a user token. Errors: `forbidden`. */
function ownerOf(viewer: Viewer): UserRow {
  if (!viewer.user || viewer.token?.kind !== 'user') throw forbidden('only the account’s owner, with a user token, controls the account')
  return viewer.user
}

/**
 * The viewer's account, when the viewer is its owner in svc's own web
 * client: an app holding a token could otherwise lock its owner out.
 * Errors: `forbidden`.
 */
function webOwnerOf(viewer: Viewer): UserRow {
  if (viewer.app?.first_party !== true) throw forbidden('only svc’s own web client, signed in as the account’s owner, changes its password')
  return ownerOf(viewer)
}

export class AccountControlService {
  constructor(
    private readonly store: Store,
    private readonly users: UserService,
    private readonly passwords: PasswordHasher,
    private readonly guard: SignInGuard,
    private readonly secondFactor: SecondFactor,
    private readonly deleteAccount: DeleteAccount,
  ) {}

  /**
   * Sets a new password (the sign-up rules) proved with the current one
   * (one guess from `address`), and ends every other session and token of
   * the account; `keep`'s stay. Errors: `forbidden` (not svc's web client),
   * `invalid` (rules; slug `wrong-password`), `rate_limited`. Emits
   * `user.password_changed`, `token.deauthorized` per token.
   */
  async changePassword(viewer: Viewer, input: { current_password: string; new_password: string }, address: string, keep: Keeping = {}): Promise<AccountChange> {
    const me = webOwnerOf(viewer)
    checkPasswordRule(input.new_password)
    await this.prove(me, { password: input.current_password }, address, false)
    const password_hash = await this.passwords.hash(input.new_password)
    const change = await this.store.transact(async (tx) => {
      const row = await tx.users.get(me.id)
      if (!row || row.deleted_at !== undefined) throw notFound(`user ${me.id} not found`)
      const moved = await nextGeneration(tx, { ...row, password_hash }, keep)
      tx.emit('user.password_changed', { user: moved.user })
      return moved
    })
    return { ...change, ended: await revokeOtherTokens(this.store, me.id, keep.tokenId) }
  }

  /** The account's live user tokens, newest first. Errors: `forbidden`. */
  async sessions(viewer: Viewer): Promise<AccountSession[]> {
    const me = ownerOf(viewer)
    const r = this.store.read
    const tokens = await r.tokens.getMany(await r.tokens.ids('user', me.id, { limit: Number.MAX_SAFE_INTEGER, order: 'desc' }))
    const apps = new Map((await r.apps.getMany([...new Set(tokens.map((t) => t.app_id))])).map((a) => [a.id, a]))
    return tokens
      .filter((t) => t.kind === 'user')
      .map((t) => ({
        id: t.id,
        app_name: apps.get(t.app_id)?.name ?? 'An app since deleted',
        created_at: t.created_at,
        last_used_at: null,
        scopes: t.scopes,
        current: t.id === viewer.token?.id,
      }))
  }

  /** Ends one of the account's tokens. Errors: `forbidden`, `not_found` (none of the account's). Emits `token.deauthorized`. */
  async endSession(viewer: Viewer, tokenId: number): Promise<void> {
    const me = ownerOf(viewer)
    await this.store.transact(async (tx) => {
      const token = await tx.tokens.get(tokenId)
      if (!token || token.user_id !== me.id) throw notFound(`session ${tokenId} not found`)
      const app = await tx.apps.get(token.app_id)
      if (app) await revokeTokenIn(tx, token, app, me)
      else tx.tokens.remove(token.id)
    })
  }

  /**
   * "Sign out everywhere else": every sign-in session and token of the
   * account ends but `keep`'s. Answers how many tokens went. Errors:
   * `forbidden`. Emits `user.signed_out_elsewhere`, `token.deauthorized` per token.
   */
  async endOtherSessions(viewer: Viewer, keep: Keeping = {}): Promise<AccountChange> {
    const me = ownerOf(viewer)
    const change = await this.store.transact(async (tx) => {
      const row = await tx.users.get(me.id)
      if (!row || row.deleted_at !== undefined) throw notFound(`user ${me.id} not found`)
      const moved = await nextGeneration(tx, row, keep)
      tx.emit('user.signed_out_elsewhere', { user: moved.user })
      return moved
    })
    return { ...change, ended: await revokeOtherTokens(this.store, me.id, keep.tokenId) }
  }

  /**
   * Deletes the viewer's account for good, as the operator's `svc user
   * delete` does, proved with the password and, while two-factor sign-in
   * is on, a current code or an unused recovery code (one guess from
   * `address`). Answers the tombstone. Errors: `forbidden`, `invalid` slug
   * `wrong-password`, `rate_limited`. Emits what `deleteUser` emits.
   */
  async deleteOwnAccount(viewer: Viewer, proof: OwnerProof, address: string): Promise<UserRow> {
    const me = ownerOf(viewer)
    await this.prove(me, proof, address, await this.secondFactor.isOn(me.id))
    return this.deleteAccount(me.id)
  }

  /** Checks `proof` for `me` as one sign-in guess. Errors: `invalid` slug `wrong-password`, `rate_limited`. */
  private async prove(me: UserRow, proof: OwnerProof, address: string, withCode: boolean): Promise<void> {
    if (withCode && !proof.code?.trim()) throw invalid('Two-factor sign-in is on: enter a code of your authenticator app, or a recovery code.')
    const proved = await this.guard.attempt({ address, account: me.username }, async () => {
      const user = await this.users.checkPassword(me.username, proof.password)
      if (!user || user.id !== me.id) return null
      return withCode ? this.secondFactor.checkCode(me.id, (proof.code ?? '').trim()) : user
    })
    if (!proved) throw withCode ? new DomainError('invalid', 'The password or the code is not right.', { slug: 'wrong-password' }) : wrongPassword()
  }
}
