/**
 * The shapes admin operations answer in (CLI `--json`, the admin socket, the
 * console), as data/admin/protocol.ts names them. Users and tokens are the
 * API's own objects. Secrets' hashes never leave here.
 */
import type {
  AdminOperationName,
  AdminResults,
  AdminUser,
  AdminValue,
  AppFacts,
  AppRow,
  CuratedStream,
  DomainBlock,
  FederationDomainBlockRow,
  InviteFacts,
  InviteRow,
  UserRow,
  ExploreStreamRow,
  TokenFacts,
  TokenInfo,
} from '../../data/index.js'
import type { PresentContext } from './context.js'
import { presentExploreStream } from './explore/explore.js'
import type { User } from '../api/index.js'
import { presentAccessGrant } from './auth/token.js'
import { presentUser, presentUsers } from './users/user.js'

const presentApp = (app: AppRow): AppFacts => ({
  id: String(app.id),
  client_id: app.client_id,
  name: app.name,
  link: app.link,
  redirect_uris: app.redirect_uris,
  created_at: app.created_at,
})

const presentDomainBlock = (block: FederationDomainBlockRow): DomainBlock => ({
  domain: block.domain,
  severity: block.silence ? 'silence' : 'suspend',
  reject_media: block.reject_media,
  created_at: block.created_at,
})

const presentTokenFacts = ({ token, app, user }: TokenInfo): TokenFacts => ({
  id: String(token.id),
  kind: token.kind,
  app: { client_id: app.client_id, name: app.name },
  ...(user ? { user: { id: String(user.id), username: user.username } } : {}),
  scopes: token.scopes,
  created_at: token.created_at,
})

const presentCuratedStream = (ctx: PresentContext, stream: ExploreStreamRow): CuratedStream => {
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

// The protocol (in data/, which knows nothing of the API's types) names only the fields the admin edges read.
const adminUser = (user: User): AdminUser => ({ ...user })

/** What only the admin sees of an account: whether and since when it is suspended, waiting for approval or deleted. */
const adminFacts = (row: UserRow): Partial<AdminUser> => ({
  ...(row.suspended_at === undefined ? {} : { suspended_at: row.suspended_at }),
  ...(row.waiting_approval === undefined ? {} : { waiting_approval: row.waiting_approval }),
  ...(row.deleted_at === undefined ? {} : { deleted_at: row.deleted_at }),
})

/** The API's User object, and what only the admin sees. */
const moderatedUser = async (ctx: PresentContext, row: UserRow): Promise<AdminUser> => ({ ...adminUser(await presentUser(ctx, row)), ...adminFacts(row) })

/** One presenter per operation, so a new operation without one is a type error. */
type AdminPresenters = { [N in AdminOperationName]: (ctx: PresentContext, value: AdminValue<N>) => AdminResults[N] | Promise<AdminResults[N]> }

const presenters: AdminPresenters = {
  'app.create': (_ctx, r) => ({ ...presentApp(r.app), client_secret: r.client_secret, password_grant_secret: r.password_grant_secret }),
  'app.list': (_ctx, apps) => apps.map(presentApp),
  'user.create': async (ctx, user) => adminUser(await presentUser(ctx, user)),
  'user.list': async (ctx, users) => (await presentUsers(ctx, users)).map((presented, i) => ({ ...adminUser(presented), ...adminFacts(users[i]) })),
  'user.suspend': moderatedUser,
  'user.unsuspend': moderatedUser,
  'user.delete': moderatedUser,
  'user.reset-password': moderatedUser,
  'user.approve': moderatedUser,
  'user.reject': moderatedUser,
  'user.reset-2fa': moderatedUser,
  'app.delete': (_ctx, app) => presentApp(app),
  // The password grant's answer, plus the token's id for `svc token revoke`.
  'token.create': async (ctx, r) => ({ ...(await presentAccessGrant(ctx, r)), token_id: String(r.info.token.id) }),
  'token.list': (_ctx, infos) => infos.map(presentTokenFacts),
  'token.revoke': (_ctx, info) => presentTokenFacts(info),
  'explore.list': (ctx, streams) => streams.map((s) => presentCuratedStream(ctx, s)),
  'explore.create': presentCuratedStream,
  'explore.update': presentCuratedStream,
  'explore.delete': presentCuratedStream,
  'explore.pin': presentCuratedStream,
  'explore.unpin': presentCuratedStream,
  // Place sources are plain data already, the same in every edge.
  'places.stats': (_ctx, stats) => stats,
  'places.reload': (_ctx, stats) => stats,
  // Counts, hosts and errors: plain data already.
  'federation.queue': (_ctx, report) => report,
  'federation.block': (_ctx, { block, accounts }) => ({ block: presentDomainBlock(block), accounts }),
  'federation.unblock': (_ctx, { block, accounts }) => ({ block: presentDomainBlock(block), accounts }),
  'federation.blocks': (_ctx, blocks) => blocks.map(presentDomainBlock),
  'federation.retry': (_ctx, change) => change,
  'federation.drop': (_ctx, change) => change,
  // A path, a position and a size: plain data already.
  'backup.create': (_ctx, result) => result,
  // Usernames, text and times: plain data already.
  'post.delete': (_ctx, removal) => removal,
  'message.delete': (_ctx, removal) => removal,
  'invite.create': (ctx, { code, invite }) => ({ ...inviteFacts(invite), code, link: `${ctx.baseUrl}/signup?invite=${code}` }),
  'invite.list': (_ctx, invites) => invites.map(inviteFacts),
  'report.list': (_ctx, reports) => reports,
  'report.resolve': (_ctx, report) => report,
}

const inviteFacts = (i: InviteRow): InviteFacts => ({ id: i.id, uses: i.uses, uses_left: i.uses_left, created_at: i.created_at })

/** The answer of operation `name` as the admin edges show it. */
export async function presentAdminResult<N extends AdminOperationName>(ctx: PresentContext, name: N, value: AdminValue<N>): Promise<AdminResults[N]> {
  const present: AdminPresenters[N] = presenters[name]
  return present(ctx, value)
}
