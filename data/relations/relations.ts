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

export class RelationService {
  constructor(
    private readonly store: Store,
    private readonly users: UserService,
    private readonly followLimit: () => number,
  ) {}

  /**
   * The viewer follows `ref`. A bot may follow only its followers; nobody
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
    await this.add('follows', me, target, 'follow.added')
    return target
  }

  /** The viewer stops following `ref`; answers the target. Errors: `not_found`, `invalid`. Emits `follow.removed`. */
  async unfollow(viewer: Viewer, ref: string): Promise<UserRow> {
    const { me, target } = await this.pairOf(viewer, ref, 'unfollow')
    await this.remove('follows', me, target, 'follow.removed')
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
      if (await drop(tx, 'follows', me.id, target.id)) tx.emit('follow.removed', { user: me, target })
      if (await drop(tx, 'follows', target.id, me.id)) tx.emit('follow.removed', { user: target, target: me })
      tx.emit('block.added', { user: me, target })
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
