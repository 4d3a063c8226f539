/**
 * OAuth 2.0: the browser flows (authorization code and implicit), the token
 * endpoint's grants, and the sign-in and sign-up the pages need. Codes are
 * single-use, short-lived, stored hashed and bound to client and redirect URI.
 */
import { DomainError } from '../errors.js'
import type { AppRow } from '../model/app.js'
import type { TokenRow } from '../model/token.js'
import type { UserRow } from '../model/user.js'
import { hashSecret, newSecret } from '../security/secrets.js'
import type { Store } from '../store/port.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'
import type { AppService } from './apps.js'
import type { DelegationService } from './delegation.js'
import { accountWaiting, type RegistrationService, type SignUpInput } from './registration.js'
import type { AppPasswordService } from './two-factor/app-passwords.js'
import type { SignInGuard } from './sign-in-guard.js'
import { accountSuspended, parseScopes, type Scope, type TokenInfo, type TokenService } from './tokens.js'
import { isModerated } from '../users/moderated-users.js'
import type { SessionClaim, UserService } from '../users/users.js'

export const CODE_TTL_MS = 10 * 60 * 1000

export interface AuthorizationRequest {
  client_id: string
  response_type: string
  redirect_uri?: string
  scope?: string
  state?: string
  /** The origin (`scheme://host[:port]`) the request reached: svc's own web client may return only there. */
  origin?: string
}

/** A checked authorization request: what the consent page shows and approval acts on. */
export interface Authorization {
  app: AppRow
  response_type: 'code' | 'token'
  redirect_uri: string
  scopes: Scope[]
  state?: string
}

/** The token endpoint's input; client credentials already taken from the body or HTTP Basic. */
export interface GrantInput {
  grant_type: string
  client_id?: string
  client_secret?: string
  password_grant_secret?: string
  username?: string
  password?: string
  scope?: string
  code?: string
  redirect_uri?: string
  delegate_client_id?: string
}

export type GrantResult = { access_token: string; info: TokenInfo } | { delegate_token: string }

const oauthError = (code: 'invalid' | 'unauthenticated', slug: string, message: string): DomainError => new DomainError(code, message, { slug })

/**
 * Refuses an account whose password was right but that may not sign in:
 * one waiting for the operator's approval (said only to whoever knows the
 * password: to anyone else it is a wrong guess), or a suspended one.
 */
function refuseUnlessActive(user: UserRow): void {
  if (user.waiting_approval !== undefined && user.suspended_at === undefined) throw accountWaiting()
  if (isModerated(user)) throw accountSuspended()
}

export class OAuthService {
  constructor(
    private readonly store: Store,
    private readonly apps: AppService,
    private readonly users: UserService,
    private readonly tokens: TokenService,
    private readonly delegation: DelegationService,
    private readonly guard: SignInGuard,
    private readonly registration: RegistrationService,
    private readonly appPasswords: AppPasswordService,
  ) {}

  /**
   * Checks an authorization request from `/oauth/authenticate|authorize`.
   * A missing redirect_uri means the app's only registered one.
   * Errors: `invalid` with slugs `invalid-client` (unknown client_id),
   * `redirect-uri-required`, `invalid-redirect-uri` (not registered),
   * `unsupported-response-type`.
   */
  async prepare(request: AuthorizationRequest): Promise<Authorization> {
    const app = await this.apps.byClientId(request.client_id)
    if (!app) throw oauthError('invalid', 'invalid-client', `no app with client_id ${request.client_id}`)
    let redirect_uri = request.redirect_uri
    if (redirect_uri === undefined || redirect_uri === '') {
      if (app.redirect_uris.length !== 1) throw oauthError('invalid', 'redirect-uri-required', 'redirect_uri is required')
      redirect_uri = app.redirect_uris[0]
    }
    if (!this.apps.redirectAllowed(app, redirect_uri, request.origin)) {
      throw oauthError('invalid', 'invalid-redirect-uri', `redirect_uri ${redirect_uri} is not registered for this app`)
    }
    if (request.response_type !== 'code' && request.response_type !== 'token') {
      throw oauthError('invalid', 'unsupported-response-type', 'response_type must be code or token')
    }
    const authorization: Authorization = { app, response_type: request.response_type, redirect_uri, scopes: parseScopes(request.scope) }
    return request.state === undefined ? authorization : { ...authorization, state: request.state }
  }

  /**
   * The signed-in user's answer on the consent page: where the browser goes
   * next (as `approve` or `deny`). Errors: as `prepare`; `unauthenticated`
   * when the session no longer holds (`UserService.sessionUser`).
   */
  async decide(request: AuthorizationRequest, session: SessionClaim, approved: boolean): Promise<string> {
    const authorization = await this.prepare(request)
    const user = await this.users.sessionUser(session)
    if (!user) throw new DomainError('unauthenticated', 'Please sign in again.')
    return approved ? this.approve(user, authorization) : this.deny(authorization)
  }

  /** Has `user` already granted every scope `authorization` asks for (so `authenticate` may skip consent)? */
  async alreadyGranted(user: UserRow, authorization: Authorization): Promise<boolean> {
    const granted = await this.tokens.grantedScopes(authorization.app.id, user.id)
    return authorization.scopes.every((s) => granted.has(s))
  }

  /**
   * The user approved: answers where to send the browser. Code flow: a new
   * single-use code in the query; implicit flow: a new user token in the
   * fragment (emits `token.authorized` or `token.scopes_changed`).
   */
  async approve(user: UserRow, authorization: Authorization): Promise<string> {
    const { app, redirect_uri, scopes, state } = authorization
    const url = new URL(redirect_uri)
    if (authorization.response_type === 'token') {
      const { access_token } = await this.tokens.issueUserToken(app, user, scopes)
      const fragment = new URLSearchParams({ access_token, ...(state === undefined ? {} : { state }) })
      url.hash = fragment.toString()
      return url.toString()
    }
    const code = newSecret()
    const now = Date.now()
    await this.store.transact(async (tx) => {
      // Codes are kept until they expire so that a reused one is told apart from an unknown one.
      for (const id of await tx.auth_codes.scan({ limit: 100, order: 'asc' }, (c) => Date.parse(c.expires_at) <= now)) tx.auth_codes.remove(id)
      tx.auth_codes.insert({
        hash: hashSecret(code),
        app_id: app.id,
        user_id: user.id,
        scopes,
        redirect_uri,
        expires_at: isoNow(new Date(now + CODE_TTL_MS)),
        used: false,
      })
    })
    url.searchParams.set('code', code)
    if (state !== undefined) url.searchParams.set('state', state)
    return url.toString()
  }

  /** The user declined: where to send the browser, with `error=access_denied` as the flow wants it. */
  deny(authorization: Authorization): string {
    const url = new URL(authorization.redirect_uri)
    const params = new URLSearchParams({ error: 'access_denied', error_description: 'The user declined.' })
    if (authorization.state !== undefined) params.set('state', authorization.state)
    if (authorization.response_type === 'token') url.hash = params.toString()
    else for (const [k, v] of params) url.searchParams.set(k, v)
    return url.toString()
  }

  /**
   * The token endpoint: one call per grant type, for a request from
   * `address` (client secrets and passwords checked are guesses from there,
   * see `SignInGuard`). Answers a new access token with its facts, or a
   * delegate token.
   * Errors: `unauthenticated` slug `invalid-client` (client credentials) or
   * `invalid-grant` (wrong username/password); `invalid` slug
   * `two-factor-required` (the password grant for a two-factor account
   * without one of its app passwords); `rate_limited` (too many wrong
   * guesses from `address` or at the account); `invalid` slugs
   * `unsupported-grant-type`, `invalid-request` (a field missing),
   * `invalid-grant` (unknown code, or one for another client or redirect URI),
   * `code-used` (which also revokes the token the code gave), `token-expired`,
   * `redirect-uri-required`; plus those of `DelegationService.mint`. Emits the
   * token events of `TokenService`.
   */
  async grant(input: GrantInput, viewer: Viewer, address: string): Promise<GrantResult> {
    switch (input.grant_type) {
      case 'authorization_code':
        return this.exchangeCode(input, address)
      case 'password':
        return this.passwordGrant(input, address)
      case 'client_credentials': {
        const app = await this.client(input, false, address)
        return this.answer(await this.tokens.issueAppToken(app))
      }
      case 'delegate':
        return this.delegation.mint(viewer, need(input.delegate_client_id, 'delegate_client_id'))
      default:
        throw oauthError('invalid', 'unsupported-grant-type', `Unknown grant type ${input.grant_type}`)
    }
  }

  /**
   * Signs a user in with username and password (the sign-in page, the password grant), a guess from `address`
   * at the account `username` (see `SignInGuard`; a success clears the account's failures).
   * Errors: `invalid` slug `invalid-grant` (a 400, as RFC 6749 §5.2 answers a bad grant; the client itself was fine),
   * `forbidden` slug `account-suspended` (right password, suspended account) or `account-waiting` (right password,
   * account not yet approved by the operator), `rate_limited` (with `retryAfter`:
   * too many failures from `address` or at the account; the password was not checked).
   */
  async signIn(username: string, password: string, address: string): Promise<UserRow> {
    const user = await this.guard.attempt({ address, account: username }, () => this.users.checkPassword(username, password))
    if (!user) throw oauthError('invalid', 'invalid-grant', 'Authentication failed: wrong username or password.')
    refuseUnlessActive(user)
    return user
  }

  /** Creates an account from the sign-up page: as `RegistrationService.signUp`. */
  async signUp(input: SignUpInput): Promise<UserRow> {
    return this.registration.signUp(input)
  }

  private async client(input: GrantInput, passwordGrant: boolean, address: string): Promise<AppRow> {
    const clientId = need(input.client_id, 'client_id')
    const secret = passwordGrant ? (input.password_grant_secret ?? input.client_secret) : input.client_secret
    return this.apps.verify(clientId, need(secret, passwordGrant ? 'client_secret or password_grant_secret' : 'client_secret'), address, { passwordGrant })
  }

  private async passwordGrant(input: GrantInput, address: string): Promise<GrantResult> {
    const app = await this.client(input, true, address)
    // An account with two-factor sign-in takes an app password here, and only that (see app-passwords.ts).
    const signedIn = await this.appPasswords.grantSignIn(need(input.username, 'username'), need(input.password, 'password'), address)
    if (!signedIn) throw oauthError('invalid', 'invalid-grant', 'Authentication failed: wrong username or password.')
    refuseUnlessActive(signedIn.user)
    const issued = await this.tokens.issueUserToken(app, signedIn.user, parseScopes(input.scope))
    if (signedIn.appPasswordId !== undefined) await this.appPasswords.noteToken(signedIn.appPasswordId, issued.token.id)
    return this.answer(issued)
  }

  private async exchangeCode(input: GrantInput, address: string): Promise<GrantResult> {
    const app = await this.client(input, false, address)
    const code = need(input.code, 'code')
    if (!input.redirect_uri) throw oauthError('invalid', 'redirect-uri-required', 'redirect_uri is required to exchange a code')
    const now = Date.now()
    // Checked and spent in one transaction: two exchanges of one code cannot both win.
    const { row, reused } = await this.store.transact(async (tx) => {
      const row = await tx.auth_codes.one('hash', hashSecret(code))
      if (!row || row.app_id !== app.id) throw oauthError('invalid', 'invalid-grant', 'unknown authorization code')
      if (row.used) return { row, reused: true }
      if (Date.parse(row.expires_at) <= now) throw oauthError('invalid', 'token-expired', 'this authorization code has expired')
      if (row.redirect_uri !== input.redirect_uri) throw oauthError('invalid', 'invalid-grant', 'redirect_uri does not match the one the code was issued for')
      return { row: tx.auth_codes.put({ ...row, used: true }), reused: false }
    })
    if (reused) {
      // A code seen twice may have been stolen: the token it gave is withdrawn (RFC 6749 §4.1.2).
      const token = row.token_id === undefined ? null : await this.store.read.tokens.get(row.token_id)
      // Already revoked by a racing request: nothing left to withdraw.
      if (token) await this.tokens.revoke(token).catch((err: unknown) => (err instanceof DomainError ? undefined : Promise.reject(err)))
      throw oauthError('invalid', 'code-used', 'this authorization code was already exchanged')
    }
    const user = await this.users.get(row.user_id)
    if (!user) throw oauthError('invalid', 'invalid-grant', 'the account of this code is gone')
    const issued = await this.tokens.issueUserToken(app, user, row.scopes)
    await this.store.transact((tx) => tx.auth_codes.put({ ...row, token_id: issued.token.id }))
    return this.answer(issued)
  }

  private async answer(issued: { access_token: string; token: TokenRow }): Promise<GrantResult> {
    const info = await this.tokens.describe(issued.token)
    if (!info) throw oauthError('invalid', 'invalid-grant', 'the token could not be issued')
    return { access_token: issued.access_token, info }
  }
}

const need = (value: string | undefined, name: string): string => {
  if (value === undefined || value === '') throw oauthError('invalid', 'invalid-request', `${name} is required`)
  return value
}
