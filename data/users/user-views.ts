/**
 * What a viewer sees of a user beyond the row: counts and the relation
 * booleans. Relation flags are left out for anonymous viewers and for the
 * viewer's own account.
 */
import type { UserRow } from '../model/user.js'
import { pair } from '../store/schema.js'
import type { Store } from '../store/port.js'
import type { Viewer } from '../viewer.js'

export interface UserCounts {
  following: number
  followers: number
  posts: number
  stars: number
}

export interface UserRelation {
  follows_you: boolean
  you_follow: boolean
  /** Only for a remote account: the viewer asked to follow it and its server has not accepted yet (`you_follow` is false meanwhile). */
  follow_pending?: boolean
  you_muted: boolean
  you_blocked: boolean
  you_can_subscribe: boolean
  you_can_follow: boolean
}

export interface UserView {
  user: UserRow
  counts: UserCounts
  relation?: UserRelation
}

export class UserViewService {
  constructor(private readonly store: Store) {}

  /** The views of `users` for `viewer`, in the same order. */
  async views(users: readonly UserRow[], viewer: Viewer): Promise<UserView[]> {
    return Promise.all(users.map((u) => this.view(u, viewer)))
  }

  async view(user: UserRow, viewer: Viewer): Promise<UserView> {
    const r = this.store.read
    const counts: UserCounts = {
      following: await r.follows.count('user', user.id),
      followers: await r.follows.count('target', user.id),
      posts: await r.posts.count('user_live', user.id),
      stars: await r.stars.count('user', user.id),
    }
    const me = viewer.user
    if (!me || me.id === user.id) return { user, counts }
    const has = async (table: 'follows' | 'mutes' | 'blocks', a: number, b: number) => (await r[table].one('pair', pair(a, b))) !== null
    const follows_you = await has('follows', user.id, me.id)
    const you_blocked = await has('blocks', me.id, user.id)
    const blocked_you = await has('blocks', user.id, me.id)
    // A bot follows, messages and mentions only users who follow it.
    const botGate = me.type !== 'bot' || follows_you
    return {
      user,
      counts,
      relation: {
        follows_you,
        you_follow: await has('follows', me.id, user.id),
        // A follow of a remote account waits for its server's Accept.
        ...(user.remote ? { follow_pending: (await r.pending_follows.one('pair', pair(me.id, user.id))) !== null } : {}),
        you_muted: await has('mutes', me.id, user.id),
        you_blocked,
        you_can_subscribe: !you_blocked && !blocked_you && botGate,
        you_can_follow: !you_blocked && !blocked_you && botGate,
      },
    }
  }
}
