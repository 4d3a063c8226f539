/**
 * The admin operations on accounts: apps, users, tokens, and invitations
 * to sign up while registration is closed. They run in the
 * server (through its admin socket) or on a domain the CLI opened itself, so
 * their arguments arrive as plain JSON and are checked here before the
 * services' own rules apply. They answer domain values; the edge presents
 * them (secrets' hashes never leave it).
 */
import type { Domain } from '../domain/domain.js'
import type { AdminArgs, AdminOperation } from './admin-operation.js'
import { invalid, notFound } from '../errors.js'
import type { TokenRow } from '../model/token.js'
import type { UserType } from '../model/user.js'
import { SCOPES } from '../auth/tokens.js'

type Args = AdminArgs

const USER_TYPES: readonly UserType[] = ['human', 'bot', 'feed']

const text = (args: Args, key: string): string => {
  const value = args[key]
  if (typeof value !== 'string' || value.length === 0) throw invalid(`${key} is required`)
  return value
}

const optionalText = (args: Args, key: string): string | undefined => (args[key] === undefined ? undefined : text(args, key))

const texts = (args: Args, key: string): string[] => {
  const value = args[key] ?? []
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw invalid(`${key} must be a list of strings`)
  return value
}

/** Requested scopes, refusing unknown names (an operator's typo should not silently grant less); all scopes when none are named. */
const scopesOf = (args: Args): string[] => {
  if (args.scopes === undefined) return [...SCOPES]
  const words = typeof args.scopes === 'string' ? args.scopes.split(/[\s,]+/).filter(Boolean) : texts(args, 'scopes')
  const unknown = words.filter((w) => w !== 'post' && !(SCOPES as readonly string[]).includes(w))
  if (unknown.length > 0) throw invalid(`unknown scope ${unknown.join(', ')} (scopes: ${SCOPES.join(' ')})`)
  return words
}

const userType = (args: Args): UserType | undefined => {
  const type = optionalText(args, 'type')
  if (type !== undefined && !(USER_TYPES as readonly string[]).includes(type)) throw invalid(`type must be one of ${USER_TYPES.join(', ')}`)
  return type as UserType | undefined
}

/** A token given by its access token string or by its id. */
async function findToken(domain: Domain, ref: string): Promise<TokenRow> {
  const token = await domain.auth.tokens.find(ref)
  if (!token) throw notFound('no such token (give the access token or a token id from `svc token list`)')
  return token
}

export const accountOperations = {
  /** `{name, redirect_uris?}` → `{app, client_secret, password_grant_secret}` (the secrets only this once). */
  'app.create': async (domain, args) => domain.auth.apps.create({ name: text(args, 'name'), redirect_uris: texts(args, 'redirect_uris') }),
  /** Every app, oldest first. */
  'app.list': async (domain) => domain.auth.apps.list(),
  /** `{username, password, name?, type?}` → the new user row. Errors: `invalid`, `conflict` (username taken). */
  'user.create': async (domain, args) =>
    domain.users.accounts.create({
      username: text(args, 'username'),
      password: text(args, 'password'),
      name: optionalText(args, 'name'),
      type: userType(args),
    }),
  /** Every user, oldest first. */
  'user.list': async (domain) => domain.users.accounts.list(),
  /** `{username}` → the user row, its two-factor sign-in off and every session and token of it ended. Errors: `invalid`, `not_found`. */
  'user.reset-2fa': async (domain, args) => {
    const user = await domain.users.accounts.byUsername(text(args, 'username'))
    if (!user) throw notFound(`no user ${String(args.username).replace(/^@/, '')}`)
    return domain.auth.twoFactor.reset(user.id)
  },
  /** `{username, client_id, scopes?}` → `{access_token, info}`; every scope when none are named. Errors: `invalid`, `not_found`. */
  'token.create': async (domain, args) => {
    const user = await domain.users.accounts.byUsername(text(args, 'username'))
    if (!user) throw notFound(`no user ${String(args.username)}`)
    const app = await domain.auth.apps.require(text(args, 'client_id'))
    const { access_token, token } = await domain.auth.tokens.issueUserToken(app, user, scopesOf(args))
    const info = await domain.auth.tokens.describe(token)
    if (!info) throw notFound('the token lost its app or user as it was made')
    return { access_token, info }
  },
  /** Every live token's facts (never its secret: only hashes are stored), oldest first. */
  'token.list': async (domain) => domain.auth.tokens.list(),
  /** `{token}` (access token or id) → the revoked token's facts. Errors: `not_found`, `unauthenticated` (already gone). */
  'token.revoke': async (domain, args) => domain.auth.tokens.revoke(await findToken(domain, text(args, 'token'))),
  /** `{uses?}` (default 1) → the new invitation with its code, shown this once. Errors: `invalid`. */
  'invite.create': async (domain, args) => {
    if (args.uses !== undefined && typeof args.uses !== 'number') throw invalid('uses must be a number')
    return domain.auth.invites.create(args.uses as number | undefined)
  },
  /** `{}` → every invitation, newest first (their codes are not kept). */
  'invite.list': async (domain) => domain.auth.invites.list(),
} satisfies Record<string, AdminOperation>
