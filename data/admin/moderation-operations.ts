/**
 * The admin operations of moderation: suspend, restore or delete an
 * account, let in or turn away one that waits for approval, set its
 * password, delete an app. Arguments arrive as plain JSON
 * (from the admin socket or the CLI) and are checked here before the
 * services' own rules apply. Accounts are named by username, apps by
 * client_id, as the operator knows them.
 */
import type { Domain } from '../domain/domain.js'
import { idOf, type AdminArgs, type AdminOperation } from './admin-operation.js'
import { invalid, notFound } from '../errors.js'
import type { UserRow } from '../model/user.js'
import type { MessageRemoval, PostRemoval } from './protocol.js'

const text = (args: AdminArgs, key: string): string => {
  const value = args[key]
  if (typeof value !== 'string' || value.length === 0) throw invalid(`${key} is required`)
  return value
}

/** The account named by `args.username`, suspended ones included. Errors: `invalid`, `not_found` (unknown or deleted). */
async function account(domain: Domain, args: AdminArgs): Promise<UserRow> {
  const username = text(args, 'username')
  const user = await domain.users.accounts.byUsername(username)
  if (!user) throw notFound(`no user ${username.replace(/^@/, '')}`)
  return user
}

export const moderationOperations = {
  /** `{username}` → the suspended user row (suspending twice is no error). Errors: `invalid`, `not_found`. */
  'user.suspend': async (domain, args) => domain.users.moderation.suspend((await account(domain, args)).id),
  /** `{username}` → the restored user row. Errors: `invalid`, `not_found`. */
  'user.unsuspend': async (domain, args) => domain.users.moderation.unsuspend((await account(domain, args)).id),
  /** `{username}` → the deleted account's tombstone row. Errors: `invalid`, `not_found`. */
  'user.delete': async (domain, args) => domain.users.moderation.deleteUser((await account(domain, args)).id),
  /** `{username}` → the row of an account that waited and is now let in. Errors: `invalid`, `not_found`, `conflict` (it does not wait). */
  'user.approve': async (domain, args) => domain.auth.registration.approve((await account(domain, args)).id),
  /** `{username}` → the row of a waiting account, now turned away and gone. Errors: `invalid`, `not_found`, `conflict` (it does not wait). */
  'user.reject': async (domain, args) => domain.auth.registration.reject((await account(domain, args)).id),
  /** `{username, password}` → the user row; the account's tokens are revoked. Errors: `invalid` (password rules), `not_found`. */
  'user.reset-password': async (domain, args) => domain.users.moderation.resetPassword((await account(domain, args)).id, text(args, 'password')),
  /** `{client_id}` → the deleted app's row; its tokens are revoked. Errors: `invalid`, `not_found`. */
  'app.delete': async (domain, args) => domain.auth.apps.delete((await domain.auth.apps.require(text(args, 'client_id'))).id),
  /** `{id, reason}` → the removed message, its channel and its author's username. Errors: `invalid`, `not_found`. */
  'message.delete': async (domain, args): Promise<MessageRemoval> => {
    const { message, already } = await domain.users.moderation.removeMessage(idOf(args, 'message'), text(args, 'reason'))
    const [author] = await domain.users.accounts.getMany([message.user_id])
    return {
      id: message.id,
      channel_id: message.channel_id,
      author: author?.username ?? `#${message.user_id}`,
      created_at: message.created_at,
      removed: message.removed ?? null,
      already_deleted: already,
    }
  },
  /** `{id, reason}` → the removed post, its author's username and how many open reports of it were resolved. Errors: `invalid`, `not_found`. */
  'post.delete': async (domain, args): Promise<PostRemoval> => {
    const { post, reports, already } = await domain.users.moderation.removePost(idOf(args, 'post'), text(args, 'reason'))
    const [author] = await domain.users.accounts.getMany([post.user_id])
    return {
      id: post.id,
      author: author?.username ?? `#${post.user_id}`,
      text: post.text,
      created_at: post.created_at,
      removed: post.removed ?? null,
      already_deleted: already,
      reports_resolved: reports,
    }
  },
} satisfies Record<string, AdminOperation>
