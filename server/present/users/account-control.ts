/** The API shapes of the owner's own control of the account: never a token itself, nor a password. */
import type { AccountSession, UserRow } from '../../../data/index.js'
import type * as Api from '../../api/index.js'

export const presentAccountSession = (s: AccountSession): Api.AccountSession => ({
  id: String(s.id),
  app_name: s.app_name,
  created_at: s.created_at,
  last_used_at: s.last_used_at,
  scopes: s.scopes,
  current: s.current,
})

export const presentDeletedAccount = (tombstone: UserRow): Api.DeletedAccount => ({
  id: String(tombstone.id),
  deleted_at: tombstone.deleted_at ?? null,
})
