/**
 * The API shapes of tokens: the Token object, the token endpoint's plain
 * JSON answers and its OAuth error bodies (`{error, error_description}`).
 */
import { isDomainError, type GrantResult, type TokenInfo } from '../../../data/index.js'
import type { AccessTokenGrant, DelegateTokenGrant, OAuthError, OAuthErrorCode, Token } from '../../api/index.js'
import { errorStatus } from '../../error-status.js'
import type { PresentContext } from '../context.js'
import { presentUser } from '../users/user.js'

export async function presentToken(ctx: PresentContext, info: TokenInfo): Promise<Token> {
  const { app, token } = info
  const out: Token = {
    app: { client_id: app.client_id, link: app.link, name: app.name },
    client_id: app.client_id,
    scopes: token.scopes,
    limits: info.limits,
    storage: info.storage,
    invite_link: `${ctx.baseUrl}/signup`,
  }
  if (info.user) out.user = await presentUser(ctx, info.user)
  return out
}

export const presentTokens = (ctx: PresentContext, infos: readonly TokenInfo[]): Promise<Token[]> => Promise.all(infos.map((info) => presentToken(ctx, info)))

/** The token endpoint's answer granting an access token: `{access_token, token, username, user_id}` (the last two for user tokens). */
export async function presentAccessGrant(ctx: PresentContext, result: { access_token: string; info: TokenInfo }): Promise<AccessTokenGrant> {
  const out: AccessTokenGrant = { access_token: result.access_token, token: await presentToken(ctx, result.info) }
  if (result.info.user) Object.assign(out, { username: result.info.user.username, user_id: String(result.info.user.id) })
  return out
}

/** The token endpoint's answer: an access token's, or `{delegate_token}`. */
export async function presentGrant(ctx: PresentContext, result: GrantResult): Promise<AccessTokenGrant | DelegateTokenGrant> {
  if ('delegate_token' in result) return { delegate_token: result.delegate_token }
  return presentAccessGrant(ctx, result)
}

/** RFC 6749 error codes for the domain's OAuth slugs. */
const OAUTH_ERRORS: Record<string, OAuthErrorCode> = {
  'invalid-client': 'invalid_client',
  'invalid-grant': 'invalid_grant',
  'two-factor-required': 'invalid_grant',
  'code-used': 'invalid_grant',
  'token-expired': 'invalid_grant',
  'redirect-uri-required': 'invalid_request',
  'invalid-redirect-uri': 'invalid_request',
  'invalid-request': 'invalid_request',
  'unsupported-grant-type': 'unsupported_grant_type',
  'unsupported-response-type': 'unsupported_response_type',
  'invalid-token': 'invalid_token',
  'wrong-token-kind': 'unauthorized_client',
}

const BY_CODE: Record<string, OAuthErrorCode> = { unauthenticated: 'invalid_client', forbidden: 'access_denied', rate_limited: 'temporarily_unavailable' }

/**
 * An error as the token endpoint answers it: status and `{error,
 * error_description, error_slug?}`. Answers null for errors that are not the
 * client's fault (they go on to the generic 500).
 */
export function presentOAuthError(err: unknown): { status: number; body: OAuthError } | null {
  if (!isDomainError(err)) return null
  const error = (err.slug ? OAUTH_ERRORS[err.slug] : undefined) ?? BY_CODE[err.code] ?? 'invalid_request'
  const body: OAuthError = { error, error_description: err.message }
  if (err.slug) body.error_slug = err.slug
  return { status: errorStatus[err.code], body }
}
