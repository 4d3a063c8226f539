/**
 * App passwords: how an app that signs in with the password grant keeps
 * working for an account with two-factor sign-in, which that grant cannot
 * ask a code of. The user makes one per app in the web client's settings
 * (random, shown once, kept as a hash) and types it into the app instead
 * of the account's password. The password grant takes it only there: the
 * sign-in page never does, and for a two-factor account it takes nothing
 * else. Revoking one revokes the tokens it gave.
 */
import { DomainError, conflict, invalid, notFound } from '../../errors.js'
import type { AppPasswordFacts, AppPasswordRow } from '../../model/two-factor.js'
import type { UserRow } from '../../model/user.js'
import { hashSecret, newSecret } from '../../security/secrets.js'
import type { Store } from '../../store/port.js'
import { isoNow } from '../../time.js'
import type { UserService } from '../../users/users.js'
import type { Viewer } from '../../viewer.js'
import type { SignInGuard } from '../sign-in-guard.js'
import { revokeTokenIn } from '../tokens.js'

/** The most app passwords one account may hold. */
export const APP_PASSWORDS_MAX = 20
export const APP_PASSWORD_NAME_MAX = 50

/** An account's credentials as the password grant takes them: its password, or (two-factor accounts only) an app password. */
export interface GrantSignIn {
  user: UserRow
  /** Set when an app password signed in: the token it gives is noted on it. */
  appPasswordId?: number
}

const factsOf = ({ id, name, created_at, last_used_at }: AppPasswordRow): AppPasswordFacts =>
  last_used_at === undefined ? { id, name, created_at } : { id, name, created_at, last_used_at }

const ownerOf = (viewer: Viewer): UserRow => {
  if (!viewer.user) throw invalid('app passwords need a user token')
  return viewer.user
}

export class AppPasswordService {
  constructor(
    private readonly store: Store,
    private readonly users: UserService,
    private readonly guard: SignInGuard,
    private readonly twoFactorOn: (userId: number) => Promise<boolean>,
  ) {}

  /** The viewer's app passwords, oldest first (never the passwords). */
  async list(viewer: Viewer): Promise<AppPasswordFacts[]> {
    const ids = await this.store.read.app_passwords.ids('user', ownerOf(viewer).id, { limit: APP_PASSWORDS_MAX * 2, order: 'asc' })
    return (await this.store.read.app_passwords.getMany(ids)).map(factsOf)
  }

  /**
   * Makes an app password named `name`; answers it (shown this once) with
   * its facts. Errors: `invalid` (name), `conflict` (two-factor sign-in is
   * off, or `APP_PASSWORDS_MAX` reached). Emits `user.app_password_created`.
   */
  async create(viewer: Viewer, name: string): Promise<{ password: string; app_password: AppPasswordFacts }> {
    const owner = ownerOf(viewer)
    const label = name.trim()
    if (label === '' || [...label].length > APP_PASSWORD_NAME_MAX) throw invalid(`name must be 1 to ${APP_PASSWORD_NAME_MAX} characters`)
    if (!(await this.twoFactorOn(owner.id))) throw conflict('App passwords are for accounts with two-factor sign-in: turn it on first.')
    const password = newSecret(24)
    const row = await this.store.transact(async (tx) => {
      if ((await tx.app_passwords.count('user', owner.id)) >= APP_PASSWORDS_MAX) throw conflict(`An account holds at most ${APP_PASSWORDS_MAX} app passwords.`)
      const row = tx.app_passwords.insert({ user_id: owner.id, name: label, hash: hashSecret(password), created_at: isoNow(), token_ids: [] })
      tx.emit('user.app_password_created', { user: owner, app_password: factsOf(row) })
      return row
    })
    return { password, app_password: factsOf(row) }
  }

  /**
   * Revokes the viewer's app password `id` and the tokens it gave.
   * Errors: `not_found`. Emits `user.app_password_revoked`, `token.deauthorized` per token.
   */
  async revoke(viewer: Viewer, id: number): Promise<AppPasswordFacts> {
    const owner = ownerOf(viewer)
    return this.store.transact(async (tx) => {
      const row = await tx.app_passwords.get(id)
      if (!row || row.user_id !== owner.id) throw notFound(`app password ${id} not found`)
      for (const token of await tx.tokens.getMany(row.token_ids)) {
        const app = await tx.apps.get(token.app_id)
        if (app) await revokeTokenIn(tx, token, app, owner)
      }
      tx.app_passwords.remove(row.id)
      tx.emit('user.app_password_revoked', { user: owner, app_password: factsOf(row) })
      return factsOf(row)
    })
  }

  /**
   * The password grant's check of `username` and `password`, one guess
   * from `address` (see `SignInGuard`): the account's password for an
   * account without two-factor sign-in, one of its app passwords for one
   * with it. Answers null for wrong credentials.
   * Errors: `invalid` slug `two-factor-required` (a two-factor account, and
   * `password` is none of its app passwords: counted as a failed guess),
   * `rate_limited`.
   */
  async grantSignIn(username: string, password: string, address: string): Promise<GrantSignIn | null> {
    let needsAppPassword = false
    const found = await this.guard.attempt({ address, account: username }, async () => {
      const account = await this.users.byUsername(username)
      if (!account || !(await this.twoFactorOn(account.id))) {
        const user = await this.users.checkPassword(username, password)
        return user ? { user } : null
      }
      const row = await this.store.read.app_passwords.one('hash', hashSecret(password))
      if (row && row.user_id === account.id) return { user: account, appPasswordId: row.id }
      // Only whoever knows the account's password learns it needs an app password; to anyone else it is a wrong guess, hashed as long.
      needsAppPassword = (await this.users.checkPassword(username, password)) !== null
      return null
    })
    if (needsAppPassword) {
      throw new DomainError(
        'invalid',
        'This account uses two-factor sign-in: the password grant takes an app password, made in the web client’s settings (Two-factor sign-in), instead of the account’s password.',
        { slug: 'two-factor-required' },
      )
    }
    return found
  }

  /**
   * Notes that app password `id` gave token `tokenId` (revoking the password
   * revokes it), and when it was last used; a password revoked meanwhile
   * takes the token with it (emits `token.deauthorized`).
   */
  async noteToken(id: number, tokenId: number): Promise<void> {
    await this.store.transact(async (tx) => {
      const row = await tx.app_passwords.get(id)
      if (!row) {
        // Revoked while the token was being issued: the token goes too.
        const token = await tx.tokens.get(tokenId)
        const app = token && (await tx.apps.get(token.app_id))
        if (token && app) await revokeTokenIn(tx, token, app, (await tx.users.get(token.user_id ?? 0)) ?? undefined)
        return
      }
      const live = (await tx.tokens.getMany(row.token_ids)).map((t) => t.id)
      tx.app_passwords.put({ ...row, last_used_at: isoNow(), token_ids: [...live.filter((t) => t !== tokenId), tokenId] })
    })
  }
}
