/**
 * Who may do what in a channel. Two gates stack: the channel's ACLs (edit ⇒
 * write ⇒ read, the owner holds all three) and the token (a `public_messages`
 * token sees only public channels, `messages` everything its user can read; an
 * app token sees public channels and private ones some reader authorised the
 * app for with `messages`).
 */
import type { Acl, ChannelRow } from '../model/channel.js'
import { notFound } from '../errors.js'
import { pair } from '../store/schema.js'
import type { Store } from '../store/port.js'
import { hasScope, type Viewer } from '../viewer.js'

export const PM_TYPE = 'svc.core.pm'
export const BROADCAST_TYPE = 'svc.core.broadcast'

export type AccessLevel = 'none' | 'read' | 'write' | 'edit'

const RANK: Record<AccessLevel, number> = { none: 0, read: 1, write: 2, edit: 3 }

export const atLeast = (level: AccessLevel, wanted: AccessLevel): boolean => RANK[level] >= RANK[wanted]

const grants = (acl: Acl, userId: number | undefined): boolean => acl.public || (userId !== undefined && (acl.any_user || acl.user_ids.includes(userId)))

/** What the ACLs alone give `userId` (undefined: nobody signed in). */
export function aclLevel(channel: ChannelRow, userId: number | undefined): AccessLevel {
  if (userId !== undefined && channel.owner_id === userId) return 'edit'
  if (grants(channel.editors, userId)) return 'edit'
  if (grants(channel.writers, userId)) return 'write'
  if (grants(channel.readers, userId)) return 'read'
  return 'none'
}

/** Public for token purposes: anyone signed in (or anyone at all) may read it. */
export const isPublicChannel = (channel: ChannelRow): boolean => channel.readers.public || channel.readers.any_user

/** Every user named as able to read: the owner and the ids on any ACL. */
export const namedMembers = (channel: ChannelRow): number[] => [
  ...new Set([channel.owner_id, ...channel.readers.user_ids, ...channel.writers.user_ids, ...channel.editors.user_ids]),
]

export class ChannelAccess {
  constructor(private readonly store: Store) {}

  /**
   * The viewer's level in `channel` once the token is taken into account:
   * `none` when the token may not see the channel at all.
   */
  async level(viewer: Viewer, channel: ChannelRow): Promise<AccessLevel> {
    const token = viewer.token
    if (token?.kind === 'app') return (await this.appMaySee(token.app_id, channel)) ? 'read' : 'none'
    if (!viewer.user) return channel.readers.public ? 'read' : 'none'
    if (!this.tokenMaySee(viewer, channel)) return channel.readers.public ? 'read' : 'none'
    return aclLevel(channel, viewer.user.id)
  }

  /** The channel `id` if the viewer may read it. Errors: `not_found` (unknown or unreadable alike). */
  async readable(viewer: Viewer, id: number): Promise<ChannelRow> {
    const channel = await this.store.read.channels.get(id)
    if (!channel || !(await this.canRead(viewer, channel))) throw notFound(`channel ${id} not found`)
    return channel
  }

  async canRead(viewer: Viewer, channel: ChannelRow): Promise<boolean> {
    return atLeast(await this.level(viewer, channel), 'read')
  }

  /**
   * Can the viewer read `channel` both as given (the copy an event carries)
   * and as it is stored now? A stream delivering an event asks this: access
   * lost since the event (an ACL change) ends what the stream shows, as it
   * ends what REST answers.
   */
  async canStillRead(viewer: Viewer, channel: ChannelRow): Promise<boolean> {
    if (!(await this.canRead(viewer, channel))) return false
    const now = await this.store.read.channels.get(channel.id)
    return now !== null && (now === channel || (await this.canRead(viewer, now)))
  }

  async canWrite(viewer: Viewer, channel: ChannelRow): Promise<boolean> {
    return atLeast(await this.level(viewer, channel), 'write')
  }

  /** Does the user token's scope reach this kind of channel (ignoring the ACLs)? */
  tokenMaySee(viewer: Viewer, channel: ChannelRow): boolean {
    if (hasScope(viewer, 'messages')) return true
    return hasScope(viewer, 'public_messages') && isPublicChannel(channel) && channel.type !== PM_TYPE
  }

  private async appMaySee(appId: number, channel: ChannelRow): Promise<boolean> {
    if (isPublicChannel(channel)) return true
    for (const userId of namedMembers(channel)) {
      const tokenIds = await this.store.read.tokens.ids('app_user', pair(appId, userId), { limit: 50 })
      const tokens = await this.store.read.tokens.getMany(tokenIds)
      if (tokens.some((t) => t.scopes.includes('messages'))) return true
    }
    return false
  }
}
