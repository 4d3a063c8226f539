/**
 * What an admin does to an account: suspend it (it cannot sign in, its
 * tokens go, its posts leave every stream), restore it, delete it for good,
 * and set a new password. Work that grows with the account (tokens, posts,
 * relations) runs in transactions of a bounded size, so an account with
 * 100k posts never makes one giant journal line; each step's own event goes
 * out as it would for the user's own action.
 */
import { invalid, notFound } from '../errors.js'
import type { PostRow } from '../model/post.js'
import type { MessageRow } from '../model/channel.js'
import { subscriberIdsOf } from '../channels/subscriptions.js'
import type { UserRow } from '../model/user.js'
import { revokeAllTokens } from '../auth/tokens.js'
import { deletePostIn } from '../posts/posts.js'
import type { PasswordHasher } from '../security/passwords.js'
import type { Store, Tx } from '../store/port.js'
import { isoNow } from '../time.js'
import { resolveReportsOf } from './reports.js'
import type { FileBytes } from '../files/file-bytes.js'
import { storedNames } from '../files/files.js'
import { checkPasswordRule, sessionEpochOf } from '../users/users.js'

/** Rows removed per transaction while an account is deleted. */
export const DELETE_BATCH = 200

const ALL = Number.MAX_SAFE_INTEGER

export class ModerationService {
  constructor(
    private readonly store: Store,
    private readonly passwords: PasswordHasher,
    /** Where the files' bytes live: a deleted account's go with its rows. */
    private readonly fileBytes?: Pick<FileBytes, 'remove'>,
  ) {}

  /**
   * The operator removes post `postId`, as its author deleting it would (its
   * reposts go too), keeping `reason` with the deleted post; the open
   * reports of it are resolved with that reason. A post deleted already
   * (by its author or the operator) is answered unchanged, `already` set.
   * Answers the post and how many reports were resolved. Errors:
   * `not_found`, `invalid` (no reason). Emits `post.deleted` per post,
   * `report.resolved` per report.
   */
  async removePost(postId: number, reason: string): Promise<{ post: PostRow; reports: number; already: boolean }> {
    const why = typeof reason === 'string' ? reason.trim() : ''
    if (why === '') throw invalid('a reason is required: it is kept with the removed post')
    return this.store.transact(async (tx) => {
      const post = await tx.posts.get(postId)
      if (!post || post.remote)
        throw notFound(`post ${postId} not found${post?.remote ? ' here: it is another server’s; block its author or domain instead' : ''}`)
      if (post.is_deleted) return { post, reports: 0, already: true }
      const at = isoNow()
      const removed = await deletePostIn(tx, tx.posts.put({ ...post, removed: { reason: why, at } }))
      const reports = await resolveReportsOf(tx, 'post', post.id, `post removed: ${why}`, at)
      return { post: removed, reports, already: false }
    })
  }

  /**
   * The operator removes message `messageId` as its author deleting it
   * would (its text goes), keeping `reason` with it. A message deleted
   * already is answered unchanged, `already` set. Errors: `not_found`,
   * `invalid` (no reason). Emits `message.deleted`, `report.resolved` per
   * open report of the message.
   */
  async removeMessage(messageId: number, reason: string): Promise<{ message: MessageRow; already: boolean }> {
    const why = typeof reason === 'string' ? reason.trim() : ''
    if (why === '') throw invalid('a reason is required: it is kept with the removed message')
    return this.store.transact(async (tx) => {
      const message = await tx.messages.get(messageId)
      const channel = message && (await tx.channels.get(message.channel_id))
      if (!message || !channel || message.remote) throw notFound(`message ${messageId} not found${message?.remote ? ' here: it is another server’s' : ''}`)
      if (message.is_deleted) return { message, already: true }
      const at = isoNow()
      const removed = tx.messages.put({
        ...message,
        is_deleted: true,
        text: '',
        entities: { mentions: [], hashtags: [], links: [] },
        removed: { reason: why, at },
      })
      await resolveReportsOf(tx, 'message', message.id, `message removed: ${why}`, at)
      tx.emit('message.deleted', { message: removed, channel, subscribed_user_ids: await subscriberIdsOf(tx, channel.id) })
      return { message: removed, already: false }
    })
  }

  /**
   * Suspends the account: from the commit on it cannot sign in or use a
   * token, its sign-in sessions are over for good (lifting the suspension
   * does not bring them back), and its posts are hidden from everyone. Then
   * every token of it is revoked (in batches) and its pending authorization
   * codes are dropped.
   * Suspending twice answers the row again. Answers the suspended row.
   * Errors: `not_found` (unknown or deleted). Emits `user.suspended` (once)
   * with `report.resolved` per open report of the account,
   * `token.deauthorized` per token.
   */
  async suspend(userId: number): Promise<UserRow> {
    const user = await this.store.transact(async (tx) => {
      const row = await liveAccount(tx, userId)
      for (const id of await tx.auth_codes.ids('user', userId, { limit: ALL })) tx.auth_codes.remove(id)
      if (row.suspended_at !== undefined) return row
      const at = isoNow()
      const user = tx.users.put({ ...row, suspended_at: at, session_epoch: sessionEpochOf(row) + 1 })
      tx.emit('user.suspended', { user })
      await resolveReportsOf(tx, 'user', userId, 'account suspended', at)
      return user
    })
    await revokeAllTokens(this.store, 'user', userId)
    return user
  }

  /**
   * Lifts a suspension: the account's posts show again and it may sign in
   * (its old tokens stay revoked). Answers the row; an account that is not
   * suspended answers it unchanged. Errors: `not_found`. Emits `user.unsuspended`.
   */
  async unsuspend(userId: number): Promise<UserRow> {
    return this.store.transact(async (tx) => {
      const row = await liveAccount(tx, userId)
      if (row.suspended_at === undefined) return row
      const { suspended_at: _, ...rest } = row
      const user = tx.users.put(rest)
      tx.emit('user.unsuspended', { user })
      return user
    })
  }

  /**
   * Sets a new password (the account rules apply) and signs the account out
   * everywhere, so whoever held the old password is out: its sign-in
   * sessions end and its pending authorization codes go at the commit, then
   * every token of it is revoked. `through.check` runs in the same
   * transaction first, on the account as it stands, when the reset is the
   * owner's through a mailed link (which it uses up): what it throws undoes
   * the reset. Answers the row.
   * Errors: `invalid` (password rules), `not_found`, and `check`'s. Emits
   * `user.password_reset`, then `token.deauthorized` per token.
   */
  async resetPassword(userId: number, password: string, through?: { by: 'link'; check: (tx: Tx, user: UserRow) => Promise<void> }): Promise<UserRow> {
    checkPasswordRule(password)
    const password_hash = await this.passwords.hash(password)
    const user = await this.store.transact(async (tx) => {
      const row = await liveAccount(tx, userId)
      await through?.check(tx, row)
      for (const id of await tx.auth_codes.ids('user', userId, { limit: ALL })) tx.auth_codes.remove(id)
      const user = tx.users.put({ ...row, password_hash, session_epoch: sessionEpochOf(row) + 1 })
      tx.emit('user.password_reset', { user, by: through?.by ?? 'operator' })
      return user
    })
    await revokeAllTokens(this.store, 'user', userId)
    return user
  }

  /**
   * Deletes the account for good. First its row becomes a tombstone (no
   * password, e-mail address, mailed links, profile or username, which is free again; its tokens dead),
   * then, batch by batch: its tokens are revoked, its posts deleted as their
   * author would (their reposts with them), its stars, follows, mutes and
   * blocks both ways, channel subscriptions and its files (rows and bytes)
   * removed. The tombstone stays
   * so that messages and other rows pointing at the id still resolve.
   * Called again on a deleted account it finishes what an interrupted call
   * left. Answers the tombstone. Errors: `not_found` (unknown). Emits
   * `token.deauthorized`, `post.deleted`, `star.removed`, `follow.removed`,
   * `mute.removed`, `block.removed`, `subscription.removed`, `file.deleted`
   * as each goes,
   * then `user.deleted` once all went.
   */
  async deleteUser(userId: number): Promise<UserRow> {
    const user = await this.store.transact(async (tx) => {
      const row = await tx.users.get(userId)
      if (!row) throw notFound(`user ${userId} not found`)
      for (const id of await tx.auth_codes.ids('user', userId, { limit: ALL })) tx.auth_codes.remove(id)
      for (const id of await tx.account_links.ids('user', userId, { limit: ALL })) tx.account_links.remove(id)
      if (row.deleted_at !== undefined) return row
      const { password_hash: _p, avatar: _a, cover: _c, verified_domain: _v, email: _e, ...kept } = row
      return tx.users.put({
        ...kept,
        name: '',
        description: { text: '', entities: { mentions: [], hashtags: [], links: [] } },
        annotations: [],
        deleted_at: isoNow(),
      })
    })
    await revokeAllTokens(this.store, 'user', userId)
    await this.inBatches(
      (tx) => tx.posts.ids('user_live', userId, { limit: DELETE_BATCH, order: 'asc' }),
      async (tx, id) => {
        const post = await tx.posts.get(id)
        if (post) await deletePostIn(tx, post)
      },
    )
    await this.inBatches(
      (tx) => tx.stars.ids('user', userId, { limit: DELETE_BATCH, order: 'asc' }),
      async (tx, id) => {
        const star = await tx.stars.get(id)
        const post = star ? await tx.posts.get(star.post_id) : null
        tx.stars.remove(id)
        if (post) tx.emit('star.removed', { post, user, star_id: id })
      },
    )
    for (const table of ['follows', 'mutes', 'blocks'] as const) {
      const event = table === 'follows' ? 'follow.removed' : table === 'mutes' ? 'mute.removed' : 'block.removed'
      for (const side of ['user', 'target'] as const) {
        await this.inBatches(
          (tx) => tx[table].ids(side, userId, { limit: DELETE_BATCH, order: 'asc' }),
          async (tx, id) => {
            const relation = await tx[table].get(id)
            if (!relation) return
            tx[table].remove(id)
            const [from, to] = await Promise.all([tx.users.get(relation.user_id), tx.users.get(relation.target_id)])
            if (from && to) tx.emit(event, { user: from, target: to })
          },
        )
      }
    }
    await this.inBatches(
      (tx) => tx.subscriptions.ids('user', userId, { limit: DELETE_BATCH, order: 'asc' }),
      async (tx, id) => {
        const sub = await tx.subscriptions.get(id)
        const channel = sub ? await tx.channels.get(sub.channel_id) : null
        tx.subscriptions.remove(id)
        if (channel) tx.emit('subscription.removed', { channel, user })
      },
    )
    await this.inBatches(
      (tx) => tx.channel_mutes.ids('user', userId, { limit: DELETE_BATCH, order: 'asc' }),
      async (tx, id) => tx.channel_mutes.remove(id),
    )
    const bytes: string[] = []
    await this.inBatches(
      (tx) => tx.files.ids('user', userId, { limit: DELETE_BATCH, order: 'asc' }),
      async (tx, id) => {
        const file = await tx.files.get(id)
        if (!file) return
        tx.files.remove(id)
        tx.emit('file.deleted', { file })
        bytes.push(...storedNames(file))
      },
    )
    // The rows are gone and durable; bytes a failure leaves here are litter the next start sweeps.
    await this.fileBytes?.remove(bytes).catch(() => undefined)
    // Only now are the posts hidden from everyone: until here their deletions reached the streams that showed them.
    await this.store.transact((tx) => tx.emit('user.deleted', { user }))
    return user
  }

  /** Runs `each` on the ids `next` finds, one transaction per batch, until a batch comes back short (each removes what `next` found). */
  private async inBatches(next: (tx: Tx) => Promise<number[]>, each: (tx: Tx, id: number) => Promise<void>): Promise<void> {
    for (;;) {
      const done = await this.store.transact(async (tx) => {
        const ids = await next(tx)
        for (const id of ids) await each(tx, id)
        return ids.length
      })
      if (done < DELETE_BATCH) return
    }
  }
}

/** The account `userId`, unless unknown or deleted. Errors: `not_found`. */
async function liveAccount(tx: Tx, userId: number): Promise<UserRow> {
  const row = await tx.users.get(userId)
  if (!row || row.deleted_at !== undefined) throw notFound(`user ${userId} not found`)
  return row
}
