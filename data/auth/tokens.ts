/** Access tokens: issued from a CSPRNG, stored as hashes, resolved to a Viewer, listed, revoked. */
import type { InstanceConfig } from '../config.js'
import { DomainError, forbidden } from '../errors.js'
import type { AppRow } from '../model/app.js'
import type { TokenRow } from '../model/token.js'
import type { UserRow } from '../model/user.js'
import { paginate, type Page, type PageQuery } from '../pagination/pagination.js'
import { hashSecret, newSecret } from '../security/secrets.js'
import type { Store, Tx } from '../store/port.js'
import { pair } from '../store/schema.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'
import { isModerated } from '../users/moderated-users.js'
import { accountWaiting } from './registration.js'
import { sessionEpochOf, type SessionClaim } from '../users/users.js'

export const SCOPES = ['basic', 'stream', 'write_post', 'follow', 'update_profile', 'public_messages', 'messages', 'files', 'export'] as const
export type Scope = (typeof SCOPES)[number]

/** The scopes that allow messaging: either lets a token read and write channels and messages (`messages` includes `public_messages`). */
export const MESSAGING_SCOPES: readonly Scope[] = ['public_messages', 'messages']

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

/** What a token is and what it may still do: the Token object's facts. */
export interface TokenInfo {
  token: TokenRow
  app: AppRow
  /** Only for user tokens. */
  user?: UserRow
  limits: { following: number; max_file_size: number; available_invites: number }
  storage: { available: number; used: number }
}

/** Bytes stored by a user; the files service provides it once files exist. */
export type StorageUsage = (userId: number) => Promise<number>

const invalidToken = (): DomainError => new DomainError('unauthenticated', 'Call requires authentication: Invalid token.', { slug: 'invalid-token' })

/** Why a suspended or deleted account gets no token. */
export const accountSuspended = (): DomainError => forbidden('This account is suspended.', 'account-suspended')

/**
 * Revokes `token` inside `tx` with the delegate tokens minted from it and
 * the user streams it opened. Emits `token.deauthorized` (a running server
 * closes the token's streams when it sees it).
 */
export async function revokeTokenIn(tx: Tx, token: TokenRow, app: AppRow, user?: UserRow): Promise<void> {
  for (const id of await tx.delegate_tokens.ids('token', token.id, { limit: Number.MAX_SAFE_INTEGER })) tx.delegate_tokens.remove(id)
  for (const stream of await tx.user_streams.getMany(await tx.user_streams.ids('token', token.id, { limit: Number.MAX_SAFE_INTEGER }))) {
    for (const id of await tx.stream_subscriptions.ids('stream', stream.id, { limit: Number.MAX_SAFE_INTEGER })) tx.stream_subscriptions.remove(id)
    tx.user_streams.remove(stream.id)
  }
  tx.tokens.remove(token.id)
  tx.emit('token.deauthorized', user ? { token, app, user } : { token, app })
}

/** Tokens revoked per transaction when a whole account's or app's go, so no journal line grows with their number. */
export const REVOKE_BATCH = 500

/**
 * Revokes every token under `key` in the tokens' `index` (a user's or an
 * app's), `REVOKE_BATCH` per transaction, each as `revokeTokenIn` (emits
 * `token.deauthorized`). `app` stands in for a token's app already removed.
 * Answers how many went.
 */
export async function revokeAllTokens(store: Store, index: 'user' | 'app', key: number, app?: AppRow): Promise<number> {
  let total = 0
  for (;;) {
    const done = await store.transact(async (tx) => {
      const tokens = await tx.tokens.getMany(await tx.tokens.ids(index, key, { limit: REVOKE_BATCH, order: 'asc' }))
      for (const token of tokens) {
        const tokenApp = (await tx.apps.get(token.app_id)) ?? (app?.id === token.app_id ? app : null)
        const user = token.user_id === undefined ? null : await tx.users.get(token.user_id)
        // Every token has its app (or the one being deleted); a broken row goes without an event.
        if (tokenApp) await revokeTokenIn(tx, token, tokenApp, user ?? undefined)
        else tx.tokens.remove(token.id)
      }
      return tokens.length
    })
    total += done
    if (done < REVOKE_BATCH) return total
  }
}

const appOf = (viewer: Viewer): AppRow => {
  if (viewer.token?.kind !== 'app' || !viewer.app) throw new DomainError('forbidden', 'This endpoint requires an app token.', { slug: 'wrong-token-kind' })
  return viewer.app
}

export class TokenService {
  constructor(
    private readonly store: Store,
    private readonly limits: InstanceConfig['limits'],
    private readonly storageUsed: StorageUsage = async () => 0,
  ) {}

  /**
   * Issues a user token for `user` in `app`. Answers the secret (shown once)
   * and the row. Emits `token.authorized` when the user had not authorized the
   * app before, `token.scopes_changed` when the scopes differ from before.
   * Errors: `forbidden` slug `account-suspended` (suspended or deleted) or `account-waiting` (not yet approved),
   * `unauthenticated` (its password was reset, or it was suspended and
   * restored, since `user` was read), `not_found` (the app was deleted).
   */
  async issueUserToken(app: AppRow, user: UserRow, scopes: readonly string[]): Promise<{ access_token: string; token: TokenRow }> {
    const access_token = newSecret()
    const granted = parseScopes(scopes)
    const token = await this.store.transact(async (tx) => {
      // Read again in the transaction: a suspension or deletion that committed since the caller read them wins.
      const current = await tx.users.get(user.id)
      if (!current || isModerated(current)) throw current?.waiting_approval !== undefined && !current.suspended_at ? accountWaiting() : accountSuspended()
      // An account of another server signs in there, never here.
      if (current.remote) throw new DomainError('invalid', `${current.username} is an account of another server: it holds no token here`)
      // Whoever proved the credentials of an earlier generation is signed out with it.
      if (sessionEpochOf(current) !== sessionEpochOf(user)) {
        throw new DomainError('unauthenticated', 'The account was signed out everywhere meanwhile: sign in again.')
      }
      if (!(await tx.apps.get(app.id))) throw new DomainError('not_found', `app ${app.client_id} was deleted`)
      const [prevId] = await tx.tokens.ids('app_user', pair(app.id, user.id), { limit: 1 })
      const previous = prevId === undefined ? null : await tx.tokens.get(prevId)
      const token = tx.tokens.insert({ hash: hashSecret(access_token), kind: 'user', app_id: app.id, user_id: user.id, scopes: granted, created_at: isoNow() })
      if (!previous) tx.emit('token.authorized', { token, app, user })
      else if (previous.scopes.join(',') !== token.scopes.join(',')) tx.emit('token.scopes_changed', { token, app, user })
      return token
    })
    return { access_token, token }
  }

  /** Issues an app token (client credentials). Errors: `not_found` (the app was deleted). Emits `token.authorized`. */
  async issueAppToken(app: AppRow): Promise<{ access_token: string; token: TokenRow }> {
    const access_token = newSecret()
    const token = await this.store.transact(async (tx) => {
      if (!(await tx.apps.get(app.id))) throw new DomainError('not_found', `app ${app.client_id} was deleted`)
      const token = tx.tokens.insert({ hash: hashSecret(access_token), kind: 'app', app_id: app.id, scopes: [], created_at: isoNow() })
      tx.emit('token.authorized', { token, app })
      return token
    })
    return { access_token, token }
  }

  /**
   * Resolves an access token to the Viewer it acts for.
   * Errors: `unauthenticated` with slug `invalid-token` (unknown or revoked).
   */
  async authenticate(accessToken: string): Promise<Viewer> {
    const token = await this.store.read.tokens.one('hash', hashSecret(accessToken))
    if (!token) throw invalidToken()
    const info = await this.load(token)
    if (!info) throw invalidToken()
    return info.user ? { token, app: info.app, user: info.user } : { token, app: info.app }
  }

  /** Every scope `user` has granted `app` through any live token. */
  async grantedScopes(appId: number, userId: number): Promise<Set<string>> {
    const ids = await this.store.read.tokens.ids('app_user', pair(appId, userId), { limit: Number.MAX_SAFE_INTEGER })
    const tokens = await this.store.read.tokens.getMany(ids)
    return new Set(tokens.flatMap((t) => t.scopes))
  }

  /**
   * The Token object's facts for `token`: its app, its user (user tokens),
   * the instance limits and the user's storage. Answers null when the app or
   * user is gone.
   */
  async describe(token: TokenRow): Promise<TokenInfo | null> {
    const loaded = await this.load(token)
    if (!loaded) return null
    const used = loaded.user ? await this.storageUsed(loaded.user.id) : 0
    return {
      ...loaded,
      limits: { following: this.limits.following, max_file_size: this.limits.max_file_size, available_invites: 0 },
      storage: { available: Math.max(0, this.limits.storage - used), used },
    }
  }

  /** Every live token's facts, oldest first, leaving out tokens whose app or user is gone (the admin's list). */
  async list(): Promise<TokenInfo[]> {
    const rows = await this.store.read.tokens.getMany(await this.store.read.tokens.scan({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' }))
    const infos = await Promise.all(rows.map((row) => this.describe(row)))
    return infos.filter((info): info is TokenInfo => info !== null)
  }

  /** The token given by its access token string (found by its hash) or by its id; null when none is. */
  async find(ref: string): Promise<TokenRow | null> {
    const byHash = await this.store.read.tokens.one('hash', hashSecret(ref))
    if (byHash) return byHash
    return /^\d{1,15}$/.test(ref) ? this.store.read.tokens.get(Number(ref)) : null
  }

  /**
   * The user tokens of the viewer's app (an app token), newest first,
   * paginated by token id. Errors: `forbidden` (not an app token).
   */
  async listForApp(viewer: Viewer, query: PageQuery): Promise<Page<TokenInfo>> {
    const app = appOf(viewer)
    return paginate(
      query,
      (range) => this.store.read.tokens.ids('app', app.id, range),
      async (ids) => {
        const rows = await this.store.read.tokens.getMany(ids)
        const byId = new Map(rows.map((r) => [r.id, r]))
        return Promise.all(
          ids.map(async (id) => {
            const row = byId.get(id)
            return row && row.kind === 'user' ? this.describe(row) : null
          }),
        )
      },
    )
  }

  /**
   * Ids of the users holding a live token of the viewer's app (an app
   * token), oldest authorization first, each once. Errors: `forbidden`.
   */
  async userIdsForApp(viewer: Viewer): Promise<number[]> {
    const app = appOf(viewer)
    const ids = await this.store.read.tokens.ids('app', app.id, { limit: Number.MAX_SAFE_INTEGER, order: 'asc' })
    const rows = await this.store.read.tokens.getMany(ids)
    return [...new Set(rows.flatMap((r) => (r.user_id === undefined ? [] : [r.user_id])))]
  }

  /**
   * The facts of the viewer's own token (`GET /token`).
   * Errors: `unauthenticated` (no token, or its app or user is gone).
   */
  async inspect(viewer: Viewer): Promise<TokenInfo> {
    const info = viewer.token ? await this.describe(viewer.token) : null
    if (!info) throw invalidToken()
    return info
  }

  /**
   * Deauthorizes the viewer's own token (`DELETE /token`); as `revoke`.
   * Sent with a sign-in session of the same account (the web client's
   * "Sign out"), that session ends too, wherever a copy of its cookie is:
   * the account moves on to a new credential generation, so every sign-in
   * session it had reads as signed out (its other tokens stay).
   */
  async deauthorize(viewer: Viewer, session?: SessionClaim): Promise<TokenInfo> {
    if (!viewer.token) throw invalidToken()
    const info = await this.revoke(viewer.token)
    const userId = viewer.user?.id
    if (session && session.userId === userId) {
      await this.store.transact(async (tx) => {
        const user = await tx.users.get(userId)
        if (user && sessionEpochOf(user) === session.epoch) tx.users.put({ ...user, session_epoch: session.epoch + 1 })
      })
    }
    return info
  }

  /**
   * Deauthorizes a token (and the delegate tokens minted from it) and answers
   * its facts as they were.
   * Errors: `unauthenticated` (already revoked, or its app or user is gone).
   * Emits `token.deauthorized`.
   */
  async revoke(token: TokenRow): Promise<TokenInfo> {
    const info = await this.describe(token)
    if (!info) throw invalidToken()
    await this.store.transact(async (tx) => {
      if (!(await tx.tokens.get(token.id))) throw invalidToken()
      await revokeTokenIn(tx, token, info.app, info.user)
    })
    return info
  }

  private async load(token: TokenRow): Promise<{ token: TokenRow; app: AppRow; user?: UserRow } | null> {
    const app = await this.store.read.apps.get(token.app_id)
    if (!app) return null
    if (token.kind === 'app') return { token, app }
    const user = token.user_id === undefined ? null : await this.store.read.users.get(token.user_id)
    // A suspended account's tokens are revoked as it is suspended; until the last batch is, they are dead already.
    return user && !isModerated(user) ? { token, app, user } : null
  }
}
