/**
 * A change of the account's credentials signs out whoever held the old
 * ones, as a password reset does (`ModerationService.resetPassword`): the
 * account moves on to a new credential generation (every sign-in session
 * of it reads as signed out, its pending authorization codes go), then its
 * tokens are revoked. Here one token may stay, the one of the person making
 * the change, and their own sign-in session carries on under the new
 * generation.
 */
import type { UserRow } from '../../model/user.js'
import type { Store, Tx } from '../../store/port.js'
import { sessionEpochOf, type SessionClaim } from '../../users/users.js'
import { REVOKE_BATCH, revokeTokenIn } from '../tokens.js'

/** Who makes the change: their token stays, and their sign-in session (when it is current) carries on. */
export interface Keeping {
  tokenId?: number
  session?: SessionClaim
}

/**
 * Moves `user` to its next credential generation inside `tx` and drops its
 * pending authorization codes. Answers the row written and, when `keep`'s
 * session was current, the claim it carries on under.
 */
export async function nextGeneration(tx: Tx, user: UserRow, keep: Keeping = {}): Promise<{ user: UserRow; session?: SessionClaim }> {
  for (const id of await tx.auth_codes.ids('user', user.id, { limit: Number.MAX_SAFE_INTEGER })) tx.auth_codes.remove(id)
  const epoch = sessionEpochOf(user) + 1
  const next = tx.users.put({ ...user, session_epoch: epoch })
  const current = keep.session !== undefined && keep.session.userId === user.id && keep.session.epoch === sessionEpochOf(user)
  return current ? { user: next, session: { userId: user.id, epoch } } : { user: next }
}

/**
 * Revokes every token of user `userId` but `keepTokenId`, `REVOKE_BATCH`
 * per transaction (emits `token.deauthorized` for each). Answers how many went.
 */
export async function revokeOtherTokens(store: Store, userId: number, keepTokenId?: number): Promise<number> {
  let total = 0
  for (;;) {
    const done = await store.transact(async (tx) => {
      const ids = await tx.tokens.ids('user', userId, { limit: REVOKE_BATCH + 1, order: 'asc' })
      const tokens = await tx.tokens.getMany(ids.filter((id) => id !== keepTokenId).slice(0, REVOKE_BATCH))
      const user = await tx.users.get(userId)
      for (const token of tokens) {
        const app = await tx.apps.get(token.app_id)
        if (app) await revokeTokenIn(tx, token, app, user ?? undefined)
        else tx.tokens.remove(token.id)
      }
      return tokens.length
    })
    total += done
    if (done < REVOKE_BATCH) return total
  }
}
