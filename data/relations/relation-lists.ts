/**
 * Who follows, mutes and blocks whom, as lists. Follower lists page by the
 * follow row's id (when the follow happened), not by user id. Mute and block
 * lists are private: a user token sees only its own, an app token those of
 * users who authorised the app.
 */
import { forbidden } from '../errors.js'
import type { FollowRow } from '../model/relation.js'
import type { UserRow } from '../model/user.js'
import { paginate, linkedRows, resolvePage, type Page, type PageInput } from '../pagination/pagination.js'
import type { Store } from '../store/port.js'
import { pair } from '../store/schema.js'
import type { Viewer } from '../viewer.js'
import type { UserService } from '../users/users.js'

const ALL = Number.MAX_SAFE_INTEGER
type Side = 'following' | 'followers'
type Private = 'mutes' | 'blocks'

export class RelationListService {
  constructor(
    private readonly store: Store,
    private readonly users: UserService,
  ) {}

  /**
   * The users `ref` follows (`following`) or who follow `ref` (`followers`),
   * most recent follow first; pagination ids are follow row ids.
   * Errors: `not_found`, `invalid` (bad reference or page bounds).
   */
  async follows(viewer: Viewer, ref: string, side: Side, page: PageInput): Promise<Page<UserRow>> {
    const user = await this.users.resolve(ref, viewer)
    const r = this.store.read
    const index = side === 'following' ? 'user' : 'target'
    const other = (f: FollowRow) => (side === 'following' ? f.target_id : f.user_id)
    return paginate(
      resolvePage(page),
      (range) => r.follows.ids(index, user.id, range),
      (ids) => linkedRows(r.follows, ids, other, r.users),
    )
  }

  /** Every id on one side of `ref`'s follows, most recent first, as strings. Errors: `not_found`, `invalid`. */
  async followIds(viewer: Viewer, ref: string, side: Side): Promise<string[]> {
    const user = await this.users.resolve(ref, viewer)
    const r = this.store.read
    const rows = await r.follows.getMany(await r.follows.ids(side === 'following' ? 'user' : 'target', user.id, { limit: ALL }))
    return rows.map((f) => String(side === 'following' ? f.target_id : f.user_id))
  }

  /**
   * The users `ref` muted or blocked, most recent first. With a user token
   * only the viewer's own list; with an app token any user who authorised
   * the app. Errors: `not_found`, `invalid`, `forbidden`.
   */
  async hidden(viewer: Viewer, ref: string, table: Private): Promise<UserRow[]> {
    const user = await this.users.resolve(ref, viewer)
    if (!(await this.mayRead(viewer, user.id))) throw forbidden(`You may not see whom this user has ${table === 'mutes' ? 'muted' : 'blocked'}`)
    return this.store.read.users.getMany(await this.targets(table, user.id))
  }

  /**
   * For an app token: a map from each asked user id to the ids that user
   * muted or blocked. Ids of unknown users or users who have not authorised
   * the app are left out.
   */
  async hiddenIds(viewer: Viewer, userIds: readonly number[], table: Private): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {}
    for (const id of userIds) {
      if (viewer.token?.kind !== 'app' || !(await this.mayRead(viewer, id))) continue
      out[String(id)] = (await this.targets(table, id)).map(String)
    }
    return out
  }

  private async targets(table: Private, userId: number): Promise<number[]> {
    const r = this.store.read
    const rows = await r[table].getMany(await r[table].ids('user', userId, { limit: ALL, order: 'desc' }))
    return rows.map((row) => row.target_id)
  }

  private async mayRead(viewer: Viewer, userId: number): Promise<boolean> {
    const token = viewer.token
    if (!token) return false
    if (token.kind === 'user') return token.user_id === userId
    return (await this.store.read.tokens.count('app_user', pair(token.app_id, userId))) > 0
  }
}
