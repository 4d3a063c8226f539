/**
 * Turning a client's channel JSON into stored ACLs: `@name` and ids resolved
 * to users, the owner dropped from `user_ids` (the owner always has every
 * right), and the combinations the API forbids refused.
 */
import { invalid } from '../errors.js'
import { CORE_NAMESPACE, isReversedDomain } from '../annotations/annotations.js'
import { CHANNEL_TYPE_MAX_LENGTH, MAX_ACL_USERS } from '../limits.js'
import type { Acl } from '../model/channel.js'
import type { UserRow } from '../model/user.js'
import { BROADCAST_TYPE, PM_TYPE } from './channel-acl.js'

export interface AclInput {
  any_user?: boolean
  immutable?: boolean
  public?: boolean
  user_ids?: readonly (string | number)[]
}

export type AclName = 'readers' | 'writers' | 'editors'

export const emptyAcl = (): Acl => ({ any_user: false, immutable: false, public: false, user_ids: [] })

/** Checks a channel type: reversed-domain form, `svc.core` reserved except broadcast. */
export function checkChannelType(type: string): void {
  if (!isReversedDomain(type, CHANNEL_TYPE_MAX_LENGTH)) throw invalid('type must be a reversed-domain string such as com.example.chat')
  if (type === PM_TYPE) throw invalid('svc.core.pm channels are created by sending a message to channel pm')
  if (type.toLowerCase().startsWith(CORE_NAMESPACE) && type !== BROADCAST_TYPE) throw invalid('the svc.core namespace is reserved')
}

/**
 * Builds the stored ACL `name` from `input` over `base` (missing keys keep
 * `base`'s values). `resolve` turns each entry of `user_ids` into a user.
 */
export async function buildAcl(
  name: AclName,
  input: AclInput | undefined,
  base: Acl,
  ownerId: number,
  type: string,
  resolve: (ref: string | number) => Promise<UserRow>,
): Promise<Acl> {
  if (!input) return base
  const ids: number[] = []
  if (input.user_ids !== undefined) {
    for (const ref of input.user_ids) {
      const user = await resolve(ref)
      if (user.id !== ownerId && !ids.includes(user.id)) ids.push(user.id)
    }
  }
  const acl: Acl = {
    any_user: input.any_user ?? base.any_user,
    immutable: input.immutable ?? base.immutable,
    public: input.public ?? base.public,
    user_ids: input.user_ids === undefined ? base.user_ids : ids,
  }
  const unlimited = name === 'readers' && type === BROADCAST_TYPE
  if (!unlimited && acl.user_ids.length > MAX_ACL_USERS) throw invalid(`${name}.user_ids holds at most ${MAX_ACL_USERS} users`)
  if ([acl.any_user, acl.public, acl.user_ids.length > 0].filter(Boolean).length > 1) {
    throw invalid(`${name}: any_user, public and user_ids exclude each other`)
  }
  if (name !== 'readers' && acl.public) throw invalid(`${name} cannot be public`)
  if (name === 'editors' && acl.any_user) throw invalid('editors cannot be any_user')
  return acl
}

/** The broadcast rules: at most one writer, writers and editors mutable. */
export function checkBroadcastAcls(writers: Acl, editors: Acl): void {
  if (writers.any_user || writers.user_ids.length > 1) throw invalid('a broadcast channel has at most one writer; add publishers as editors')
  if (writers.immutable || editors.immutable) throw invalid('the writers and editors of a broadcast channel must be mutable')
}
