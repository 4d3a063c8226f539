/**
 * Identity delegation: a client holding a user token mints a delegate token
 * for another client; that client proves who it is (client_id and secret)
 * and learns which user and app the delegate token speaks for.
 */
import { DomainError, forbidden, invalid } from '../errors.js'
import { hashSecret, newSecret } from '../security/secrets.js'
import type { Store } from '../store/port.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'
import type { AppService } from './apps.js'
import type { TokenInfo, TokenService } from './tokens.js'

/** How long a delegate token may be presented; the verifying client is expected to check it at once. */
export const DELEGATE_TOKEN_TTL_MS = 60 * 60 * 1000

const notValid = (): DomainError => new DomainError('unauthenticated', 'The delegate token is not valid for this client.', { slug: 'invalid-token' })

export class DelegationService {
  constructor(
    private readonly store: Store,
    private readonly apps: AppService,
    private readonly tokens: TokenService,
  ) {}

  /**
   * Mints a delegate token for `delegateClientId` from the viewer's user token
   * and answers it (shown once; only its hash is kept). Expired delegate tokens
   * of the same user token are dropped on the way.
   * Errors: `unauthenticated` (no token), `forbidden` (an app token),
   * `invalid` (unknown delegate client).
   */
  async mint(viewer: Viewer, delegateClientId: string): Promise<{ delegate_token: string }> {
    const token = viewer.token
    if (!token) throw new DomainError('unauthenticated', 'The delegate grant needs the user token in Authorization: Bearer.')
    if (token.kind !== 'user') throw forbidden('Only a user token can be delegated.', 'wrong-token-kind')
    if (!(await this.apps.byClientId(delegateClientId))) throw invalid(`no app with client_id ${delegateClientId}`)
    const delegate_token = newSecret()
    const now = Date.now()
    await this.store.transact(async (tx) => {
      const old = await tx.delegate_tokens.getMany(await tx.delegate_tokens.ids('token', token.id, { limit: Number.MAX_SAFE_INTEGER }))
      for (const row of old) if (Date.parse(row.expires_at) <= now) tx.delegate_tokens.remove(row.id)
      tx.delegate_tokens.insert({
        hash: hashSecret(delegate_token),
        token_id: token.id,
        delegate_client_id: delegateClientId,
        expires_at: isoNow(new Date(now + DELEGATE_TOKEN_TTL_MS)),
      })
    })
    return { delegate_token }
  }

  /**
   * Checks a delegate token presented by the client `clientId` (with its
   * secret, a guess from `address` as `AppService.verify` counts it) and
   * answers the facts of the user token it was minted from.
   * Errors: `unauthenticated` (wrong client credentials, unknown or expired
   * delegate token, a token minted for another client, a revoked user token),
   * `rate_limited` (too many wrong client secrets from `address`).
   */
  async verify(input: { client_id: string; client_secret: string; delegate_token: string }, address: string): Promise<TokenInfo> {
    await this.apps.verify(input.client_id, input.client_secret, address)
    const row = await this.store.read.delegate_tokens.one('hash', hashSecret(input.delegate_token))
    if (!row || row.delegate_client_id !== input.client_id || Date.parse(row.expires_at) <= Date.now()) throw notValid()
    const token = await this.store.read.tokens.get(row.token_id)
    const info = token ? await this.tokens.describe(token) : null
    if (!info) throw notValid()
    return info
  }
}
