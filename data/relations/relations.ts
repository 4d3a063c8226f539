/**
 * Following, muting and blocking. Each change is idempotent: asking for the
 * state a pair is already in answers the target again and emits nothing.
 * A block removes both follow relations and hides each from the other.
 */
import { DomainError, forbidden, invalid } from '../errors.js'
import type { UserRow } from '../model/user.js'
import type { Store, Tx } from '../store/port.js'
import { pair } from '../store/schema.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'
import { actingUser } from '../users/acting-user.js'
import { blockedEitherWay, hasRelation, type RelationTable } from './relation-reads.js'
import type { UserService } from '../users/users.js'
import { isModerated } from '../users/moderated-users.js'

/**
 * How a follow of a remote account reaches its server, set by federation:
 * `request` sends the Follow (the follow exists once the server accepts,
 * see `acceptRemoteFollow`), `cancel` sends its Undo. A block tells the
 * server through its event (`block.added`, which federation's outbox reads).
 */
export interface RemoteFollowPort {
  request(me: UserRow, target: UserRow): Promise<void>
  cancel(me: UserRow, target: UserRow): Promise<void>
}

export class RelationService {
  private remoteFollows: RemoteFollowPort | null = null

  constructor(
    private readonly store: Store,
    private readonly users: UserService,
    private readonly followLimit: () => number,
  ) {}

  /** Lets follows of remote accounts go to their servers through `port`. */
  setRemoteFollows(port: RemoteFollowPort): void {
    this.remoteFollows = port
  }

  /**
   * The viewer follows `ref`. A remote account is asked: the follow exists
   * once its server accepts (`follow_pending` meanwhile), and without
   * federation a remote account cannot be followed. A bot may follow only its followers; nobody
   * follows across a block. Answers the target. Errors: `not_found`,
   * `invalid` (oneself), `forbidden` (block, bot rule), `quota` (following
   * limit). Emits `follow.added`.
   */
  async follow(viewer: Viewer, ref: string): Promise<UserRow> {
    const { me, target } = await this.pairOf(viewer, ref, 'follow')
    const r = this.store.read
    if (await blockedEitherWay(r, me.id, target.id)) throw forbidden('You cannot follow this user')
    if (me.type === 'bot' && !(await hasRelation(r, 'follows', target.id, me.id))) throw forbidden('A bot can only follow users who follow it')
    // Following someone already followed is no new follow, so the limit does not apply to it.
    const atLimit = !(await hasRelation(r, 'follows', me.id, target.id)) && (await r.follows.count('user', me.id)) >= this.followLimit()
    if (atLimit) throw new DomainError('quota', 'You follow as many users as your account allows')
    if (target.remote) {
      if (!this.remoteFollows) throw forbidden('This instance does not federate: remote users cannot be followed')
      if (!(await hasRelation(r, 'follows', me.id, target.id))) await this.remoteFollows.request(me, target)
      return target
    }
    await this.add('follows', me, target, 'follow.added')
    return target
  }

  /**
   * Remote account `remote` follows local user `target` (its server sent a
   * verified Follow): false when a block stands between them, the follow
   * refused. Emits `follow.added` when it is new.
   */
  async remoteFollowed(remote: UserRow, target: UserRow): Promise<boolean> {
    if (!remote.remote || target.remote || isModerated(target)) return false
    if (await blockedEitherWay(this.store.read, remote.id, target.id)) return false
    await this.add('follows', remote, target, 'follow.added')
    return true
  }

  /** Remote account `remote` no longer follows `target` (an Undo of its Follow, a Reject of ours, its deletion). Emits `follow.removed`. */
  async remoteUnfollowed(remote: UserRow, target: UserRow): Promise<void> {
    await this.remove('follows', remote, target, 'follow.removed')
  }

  /**
   * The server of remote account `target` accepted local user `me`'s Follow:
   * the pending follow becomes a follow. False when there was none pending
   * (an Accept nobody asked for changes nothing). Emits `follow.added`.
   */
  async acceptRemoteFollow(me: UserRow, target: UserRow): Promise<boolean> {
    return this.store.transact(async (tx) => {
      const pending = await tx.pending_follows.one('pair', pair(me.id, target.id))
      if (!pending) return false
      tx.pending_follows.remove(pending.id)
      if (await tx.follows.one('pair', pair(me.id, target.id))) return true
      tx.follows.insert({ user_id: me.id, target_id: target.id, created_at: isoNow() })
      tx.emit('follow.added', { user: me, target })
      return true
    })
  }

  /** The server of `target` rejected `me`'s Follow, or took back its Accept: pending or not, `me` does not follow it. Emits `follow.removed` when it did. */
  async rejectRemoteFollow(me: UserRow, target: UserRow): Promise<void> {
    await this.store.transact(async (tx) => {
      const pending = await tx.pending_follows.one('pair', pair(me.id, target.id))
      if (pending) tx.pending_follows.remove(pending.id)
      if (await drop(tx, 'follows', me.id, target.id)) tx.emit('follow.removed', { user: me, target })
    })
  }

  /** The viewer stops following `ref`; answers the target. Errors: `not_found`, `invalid`. Emits `follow.removed`. */
  async unfollow(viewer: Viewer, ref: string): Promise<UserRow> {
    const { me, target } = await this.pairOf(viewer, ref, 'unfollow')
    if (target.remote && this.remoteFollows) {
      const [following, pending] = await Promise.all([
        hasRelation(this.store.read, 'follows', me.id, target.id),
        this.store.read.pending_follows.one('pair', pair(me.id, target.id)),
      ])
      if (following || pending) await this.remoteFollows.cancel(me, target)
    }
    await this.rejectRemoteFollow(me, target)
    return target
  }

  /** The viewer mutes `ref`; answers the target. Errors: `not_found`, `invalid`. Emits `mute.added`. */
  async mute(viewer: Viewer, ref: string): Promise<UserRow> {
    const { me, target } = await this.pairOf(viewer, ref, 'mute')
    await this.add('mutes', me, target, 'mute.added')
    return target
  }

  /** The viewer unmutes `ref`; answers the target. Errors: `not_found`, `invalid`. Emits `mute.removed`. */
  async unmute(viewer: Viewer, ref: string): Promise<UserRow> {
    const { me, target } = await this.pairOf(viewer, ref, 'unmute')
    await this.remove('mutes', me, target, 'mute.removed')
    return target
  }

  /**
   * The viewer blocks `ref`: both follow relations go in the same commit.
   * Answers the target. Errors: `not_found`, `invalid`. Emits
   * `follow.removed` for each follow removed, then `block.added`.
   */
  async block(viewer: Viewer, ref: string): Promise<UserRow> {
    const { me, target } = await this.pairOf(viewer, ref, 'block')
    await this.store.transact(async (tx) => {
      if (await tx.blocks.one('pair', pair(me.id, target.id))) return
      tx.blocks.insert({ user_id: me.id, target_id: target.id, created_at: isoNow() })
      const pending = await tx.pending_follows.one('pair', pair(me.id, target.id))
      if (pending) tx.pending_follows.remove(pending.id)
      const mine = await drop(tx, 'follows', me.id, target.id)
      if (mine) tx.emit('follow.removed', { user: me, target })
      const theirs = await drop(tx, 'follows', target.id, me.id)
      if (theirs) tx.emit('follow.removed', { user: target, target: me })
      // A remote account's server learns from this event (federation's outbox) that the follows between them ended.
      tx.emit('block.added', { user: me, target, ended: { following: mine || pending !== null, followed: theirs } })
    })
    return target
  }

  /** The viewer unblocks `ref` (follows are not restored); answers the target. Errors: `not_found`, `invalid`. Emits `block.removed`. */
  async unblock(viewer: Viewer, ref: string): Promise<UserRow> {
    const { me, target } = await this.pairOf(viewer, ref, 'unblock')
    await this.remove('blocks', me, target, 'block.removed')
    return target
  }

  private async pairOf(viewer: Viewer, ref: string, verb: string): Promise<{ me: UserRow; target: UserRow }> {
    const me = actingUser(viewer)
    const target = await this.users.resolve(ref, viewer)
    if (target.id === me.id) throw invalid(`You cannot ${verb} yourself`)
    return { me, target }
  }

  /** Inserts `me → target` unless present, emitting `event` when it was new. */
  private add(table: RelationTable, me: UserRow, target: UserRow, event: 'follow.added' | 'mute.added'): Promise<void> {
    return this.store.transact(async (tx) => {
      if (await tx[table].one('pair', pair(me.id, target.id))) return
      tx[table].insert({ user_id: me.id, target_id: target.id, created_at: isoNow() })
      tx.emit(event, { user: me, target })
    })
  }

  /** Removes `me → target` if present, emitting `event` when it was there. */
  private remove(table: RelationTable, me: UserRow, target: UserRow, event: 'follow.removed' | 'mute.removed' | 'block.removed'): Promise<void> {
    return this.store.transact(async (tx) => {
      if (await drop(tx, table, me.id, target.id)) tx.emit(event, { user: me, target })
    })
  }
}

/** Removes `userId → targetId` from `table` if present; answers whether it was there. */
async function drop(tx: Tx, table: RelationTable, userId: number, targetId: number): Promise<boolean> {
  const row = await tx[table].one('pair', pair(userId, targetId))
  if (row) tx[table].remove(row.id)
  return row !== null
}
