/**
 * The shapes admin operations answer in (CLI `--json`, the admin socket, the
 * console). Users and tokens are the API's own objects, so a script can use
 * what `svc user create` prints exactly as it uses `GET /users/me`. Secrets'
 * hashes never leave here.
 */
import type { AppRow, ExploreStreamRow, GrantResult, TokenInfo, UserRow } from '../../data/index.js'
import type { PresentContext } from './context.js'
import { presentExploreStream } from './explore/explore.js'
import { presentGrant } from './auth/token.js'
import { presentUser, presentUsers } from './users/user.js'

const presentApp = (app: AppRow): Record<string, unknown> => ({
  id: String(app.id),
  client_id: app.client_id,
  name: app.name,
  link: app.link,
  redirect_uris: app.redirect_uris,
  created_at: app.created_at,
})

/** One token's facts for listing (`token.list`, `token.revoke`): ids, app, user, scopes; never a secret. */
export interface TokenFacts {
  id: string
  kind: string
  app: { client_id: string; name: string }
  user?: { id: string; username: string }
  scopes: string[]
  created_at: string
}

const presentTokenFacts = ({ token, app, user }: TokenInfo): TokenFacts => ({
  id: String(token.id),
  kind: token.kind,
  app: { client_id: app.client_id, name: app.name },
  ...(user ? { user: { id: String(user.id), username: user.username } } : {}),
  scopes: token.scopes,
  created_at: token.created_at,
})

/** The API's Explore stream object plus what curates it: id, rule (ids as strings), pins. */
const presentCuratedStream = (ctx: PresentContext, stream: ExploreStreamRow): Record<string, unknown> => {
  const { user_ids, ...rule } = stream.rule
  return {
    id: String(stream.id),
    ...presentExploreStream(ctx, stream),
    marker: stream.marker,
    rule: user_ids ? { ...rule, user_ids: user_ids.map(String) } : rule,
    pinned: stream.pinned.map(String),
    created_at: stream.created_at,
    ...(stream.updated_at ? { updated_at: stream.updated_at } : {}),
  }
}

type Presenter = (ctx: PresentContext, value: any) => Promise<unknown> | unknown

const presenters: Record<string, Presenter> = {
  'app.create': (_ctx, r: { app: AppRow; client_secret: string; password_grant_secret: string }) => ({
    ...presentApp(r.app),
    client_secret: r.client_secret,
    password_grant_secret: r.password_grant_secret,
  }),
  'app.list': (_ctx, apps: AppRow[]) => apps.map(presentApp),
  'user.create': (ctx, user: UserRow) => presentUser(ctx, user),
  'user.list': (ctx, users: UserRow[]) => presentUsers(ctx, users),
  // The password grant's answer, plus the token's id for `svc token revoke`.
  'token.create': async (ctx, r: GrantResult & { info: TokenInfo }) => ({ ...(await presentGrant(ctx, r)), token_id: String(r.info.token.id) }),
  'token.list': (_ctx, infos: TokenInfo[]) => infos.map(presentTokenFacts),
  'token.revoke': (_ctx, info: TokenInfo) => presentTokenFacts(info),
  'explore.list': (ctx, streams: ExploreStreamRow[]) => streams.map((s) => presentCuratedStream(ctx, s)),
  ...Object.fromEntries(['create', 'update', 'delete', 'pin', 'unpin'].map((op) => [`explore.${op}`, presentCuratedStream])),
}

/** The answer of operation `name` as the admin edges show it; operations without a presenter answer plain JSON already. */
export async function presentAdminResult(ctx: PresentContext, name: string, value: unknown): Promise<unknown> {
  const present = presenters[name]
  return present ? present(ctx, value) : value
}
