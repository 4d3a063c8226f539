/** Access tokens: issued from a CSPRNG, stored as hashes, resolved to a Viewer, revoked. */
import { DomainError } from '../errors.js'
import type { EventBus } from '../events.js'
import type { AppRow } from '../model/app.js'
import type { TokenRow } from '../model/token.js'
import type { UserRow } from '../model/user.js'
import { hashSecret, newSecret } from '../security/secrets.js'
import type { Store } from '../store/port.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'

export const SCOPES = ['basic', 'stream', 'write_post', 'follow', 'update_profile', 'public_messages', 'messages', 'files', 'export'] as const
export type Scope = (typeof SCOPES)[number]

/**
 * Normalises a requested scope list (space or comma separated, or a list):
 * unknown scopes (such as the retired `email`) are dropped, `post` means
 * `write_post`, and `basic` is always granted.
 */
export function parseScopes(input: string | readonly string[] | undefined): Scope[] {
  const words = typeof input === 'string' ? input.split(/[\s,]+/) : (input ?? [])
  const wanted = new Set(words.map((w) => (w.trim() === 'post' ? 'write_post' : w.trim())))
  wanted.add('basic')
  return SCOPES.filter((s) => wanted.has(s))
}

export class TokenService {
  constructor(
    private readonly store: Store,
    private readonly events: EventBus,
  ) {}

  /**
   * Issues a user token for `user` in `app`. Answers the secret (shown once)
   * and the row. Emits `token.authorized` when the user had not authorized the
   * app before, `token.scopes_changed` when the scopes differ from before.
   */
  async issueUserToken(app: AppRow, user: UserRow, scopes: readonly string[]): Promise<{ access_token: string; token: TokenRow }> {
    const access_token = newSecret()
    const granted = parseScopes(scopes)
    const { token, previous } = await this.store.transact(async (tx) => {
      const [prevId] = await tx.tokens.ids('app_user', `${app.id}:${user.id}`, { limit: 1 })
      const previous = prevId === undefined ? null : await tx.tokens.get(prevId)
      const token = tx.tokens.insert({ hash: hashSecret(access_token), kind: 'user', app_id: app.id, user_id: user.id, scopes: granted, created_at: isoNow() })
      return { token, previous }
    })
    if (!previous) this.events.emit('token.authorized', { token, app, user })
    else if (previous.scopes.join(',') !== token.scopes.join(',')) this.events.emit('token.scopes_changed', { token, app, user })
    return { access_token, token }
  }

  /** Issues an app token (client credentials). Emits `token.authorized`. */
  async issueAppToken(app: AppRow): Promise<{ access_token: string; token: TokenRow }> {
    const access_token = newSecret()
    const token = await this.store.transact((tx) =>
      tx.tokens.insert({ hash: hashSecret(access_token), kind: 'app', app_id: app.id, scopes: [], created_at: isoNow() }),
    )
    this.events.emit('token.authorized', { token, app })
    return { access_token, token }
  }

  /**
   * Resolves an access token to the Viewer it acts for.
   * Errors: `unauthenticated` with slug `invalid-token` (unknown or revoked).
   */
  async authenticate(accessToken: string): Promise<Viewer> {
    const token = await this.store.read.tokens.one('hash', hashSecret(accessToken))
    if (!token) throw new DomainError('unauthenticated', 'Call requires authentication: Invalid token.', { slug: 'invalid-token' })
    const app = await this.store.read.apps.get(token.app_id)
    const user = token.user_id === undefined ? null : await this.store.read.users.get(token.user_id)
    if (!app || (token.kind === 'user' && !user)) {
      throw new DomainError('unauthenticated', 'Call requires authentication: Invalid token.', { slug: 'invalid-token' })
    }
    return user ? { token, app, user } : { token, app }
  }

  /** Deauthorizes a token. Emits `token.deauthorized`. */
  async revoke(token: TokenRow): Promise<void> {
    await this.store.transact((tx) => tx.tokens.remove(token.id))
    const app = await this.store.read.apps.get(token.app_id)
    const user = token.user_id === undefined ? undefined : ((await this.store.read.users.get(token.user_id)) ?? undefined)
    if (app) this.events.emit('token.deauthorized', { token, app, user })
  }
}
