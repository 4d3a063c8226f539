/** Client apps: registration with a client secret shown once, lookup, secret and redirect URI checks, deletion. */
import { DomainError, invalid, notFound } from '../errors.js'
import type { AppRow } from '../model/app.js'
import { hashSecret, newSecret } from '../security/secrets.js'
import type { Store } from '../store/port.js'
import { isoNow } from '../time.js'
import { timingSafeEqual } from 'node:crypto'
import type { SignInGuard } from './sign-in-guard.js'
import { revokeAllTokens } from './tokens.js'

export interface CreateAppInput {
  name: string
  redirect_uris?: string[]
  link?: string
  owner_id?: number
}

/** The name people see on the consent page of svc's own web client. */
export const WEB_CLIENT_NAME = 'svc web'

const sameHash = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

export class AppService {
  constructor(
    private readonly store: Store,
    private readonly guard: SignInGuard,
  ) {}

  /**
   * Registers an app. Answers the row and the client secret and the
   * password-grant secret (neither is stored in clear, so this is the only
   * time they are seen). Errors: `invalid`. Emits `app.created`.
   */
  async create(input: CreateAppInput): Promise<{ app: AppRow; client_secret: string; password_grant_secret: string }> {
    const name = input.name.trim()
    if (name.length === 0 || name.length > 100) throw invalid('app name must be 1 to 100 characters')
    for (const uri of input.redirect_uris ?? []) {
      let url: URL
      try {
        url = new URL(uri)
      } catch {
        throw invalid(`redirect URI ${uri} is not a URL`)
      }
      if (url.hash) throw invalid(`redirect URI ${uri} must not have a fragment`)
      // Native apps use their own schemes; these three would run or embed content instead of reaching an app.
      if (['javascript:', 'data:', 'vbscript:'].includes(url.protocol)) throw invalid(`redirect URI ${uri} must lead to an app`)
    }
    const client_secret = newSecret()
    const password_grant_secret = newSecret()
    const app = await this.store.transact((tx) => {
      const app = tx.apps.insert({
        client_id: newSecret(32),
        secret_hash: hashSecret(client_secret),
        password_grant_secret_hash: hashSecret(password_grant_secret),
        name,
        link: input.link ?? '',
        redirect_uris: input.redirect_uris ?? [],
        ...(input.owner_id === undefined ? {} : { owner_id: input.owner_id }),
        created_at: isoNow(),
      })
      tx.emit('app.created', { app })
      return app
    })
    return { app, client_secret, password_grant_secret }
  }

  byClientId(clientId: string): Promise<AppRow | null> {
    return this.store.read.apps.one('client_id', clientId)
  }

  get(id: number): Promise<AppRow | null> {
    return this.store.read.apps.get(id)
  }

  /** The app whose client_id and secret match; `password_grant` also accepts the password-grant secret. Unguarded: `verify` is the way in. */
  private async match(clientId: string, secret: string, options: { passwordGrant?: boolean } = {}): Promise<AppRow | null> {
    const app = await this.byClientId(clientId)
    if (!app) return null
    const hash = hashSecret(secret)
    if (sameHash(hash, app.secret_hash)) return app
    if (options.passwordGrant && app.password_grant_secret_hash && sameHash(hash, app.password_grant_secret_hash)) return app
    return null
  }

  /**
   * Checks a client's credentials for grants that must not go on without
   * the client: answers the app. Each check is a guess from `address` (see `SignInGuard`).
   * Errors: `unauthenticated` with slug `invalid-client` (unknown client_id or
   * wrong secret; one message for both, so the answer does not tell which
   * client ids exist), `rate_limited` (too many wrong ones from `address`).
   */
  async verify(clientId: string, secret: string, address: string, options: { passwordGrant?: boolean } = {}): Promise<AppRow> {
    const app = await this.guard.attempt({ address }, () => this.match(clientId, secret, options))
    if (!app) throw new DomainError('unauthenticated', 'Client authentication failed: unknown client_id or wrong secret.', { slug: 'invalid-client' })
    return app
  }

  /**
   * Is `uri` one of the app's registered redirect URIs? Exact match only, as
   * OAuth requires. The web client svc ships has none registered: the
   * instance's address is not known until a request reaches it, so it may
   * return to the root of the origin the request came to, and nowhere else.
   */
  redirectAllowed(app: AppRow, uri: string, origin?: string): boolean {
    if (!app.first_party) return app.redirect_uris.includes(uri)
    return origin !== undefined && uri === `${origin}/`
  }

  /** svc's own web client (see `ensureWebClient`); `null` before it is registered. */
  async webClient(): Promise<AppRow | null> {
    const r = this.store.read.apps
    const [id] = await r.scan({ limit: 1, order: 'asc' }, (app) => app.first_party === true)
    return id === undefined ? null : r.get(id)
  }

  /**
   * Registers svc's own web client unless it is there: a public client (its
   * secret is never shown, so no grant needing it can be used) that signs
   * people in through the implicit flow. Idempotent; `svc init` and every
   * start call it, so older data dirs get it too.
   */
  async ensureWebClient(): Promise<AppRow> {
    const existing = await this.webClient()
    if (existing) return existing
    return this.store.transact(async (tx) => {
      const [id] = await tx.apps.scan({ limit: 1, order: 'asc' }, (app) => app.first_party === true)
      const again = id === undefined ? null : await tx.apps.get(id)
      if (again) return again
      const app = tx.apps.insert({
        client_id: newSecret(32),
        secret_hash: hashSecret(newSecret()),
        name: WEB_CLIENT_NAME,
        link: '',
        redirect_uris: [],
        first_party: true,
        created_at: isoNow(),
      })
      tx.emit('app.created', { app })
      return app
    })
  }

  async require(clientId: string): Promise<AppRow> {
    const app = await this.byClientId(clientId)
    if (!app) throw notFound(`no app with client_id ${clientId}`)
    return app
  }

  /**
   * Deletes the app: from the commit on none of its clients can sign in or
   * use a token through it; then its tokens, user and app tokens alike, are
   * revoked in batches. Answers the app as it was. Errors: `not_found`.
   * Emits `app.deleted`, then `token.deauthorized` per token.
   */
  async delete(appId: number): Promise<AppRow> {
    const app = await this.store.transact(async (tx) => {
      const app = await tx.apps.get(appId)
      if (!app) throw notFound(`app ${appId} not found`)
      tx.apps.remove(app.id)
      tx.emit('app.deleted', { app })
      return app
    })
    await revokeAllTokens(this.store, 'app', app.id, app)
    return app
  }

  list(): Promise<AppRow[]> {
    return this.store.read.apps.scan({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' }).then((ids) => this.store.read.apps.getMany(ids))
  }
}
