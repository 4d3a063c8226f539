/**
 * A user's subscribed channels as an inbox (the channel with the latest
 * message first), the unread counts of PM and broadcast channels, and
 * marking every broadcast channel read.
 */
import type { ChannelRow } from '../model/channel.js'
import type { UserRow } from '../model/user.js'
import { paginateRanked, resolvePage, type PageInput } from '../pagination/pagination.js'
import type { Page } from '../pagination/pagination.js'
import type { Store } from '../store/port.js'
import { MESSAGING_SCOPES } from '../auth/tokens.js'
import { DomainError } from '../errors.js'
import { hasScope, type Viewer } from '../viewer.js'
import { BROADCAST_TYPE, PM_TYPE, type ChannelAccess } from './channel-acl.js'
import { actingUser } from '../users/acting-user.js'
import type { ChannelFilter, ChannelViewService } from './channel-views.js'
import type { MarkerService } from './markers.js'

const ALL = Number.MAX_SAFE_INTEGER

export interface Inbox {
  page: Page<ChannelRow>
  /** Unread channels per type; PM and broadcast always present. */
  unread_counts: Record<string, number>
}

export class ChannelInboxService {
  constructor(
    private readonly store: Store,
    private readonly access: ChannelAccess,
    private readonly views: ChannelViewService,
    private readonly markers: MarkerService,
  ) {}

  /**
   * The viewer's subscribed channels they can still read, latest activity
   * first (channels without messages last, newest first), filtered by the
   * channel general parameters; with the unread counts per type.
   * Errors: `forbidden` (an app token, or a token without a messaging scope).
   */
  async inbox(viewer: Viewer, query: PageInput, filter: ChannelFilter): Promise<Inbox> {
    const user = actingUser(viewer)
    if (!MESSAGING_SCOPES.some((scope) => hasScope(viewer, scope)))
      throw new DomainError('forbidden', `This endpoint requires one of these scopes: ${MESSAGING_SCOPES.join(', ')}`, { slug: 'insufficient-scope' })
    const channels = await this.subscribed(viewer, user)
    const unread_counts: Record<string, number> = { [PM_TYPE]: 0, [BROADCAST_TYPE]: 0 }
    const activity = new Map<number, number>()
    for (const channel of channels) {
      const [latest] = await this.store.read.messages.ids('channel', channel.id, { limit: 1 })
      activity.set(channel.id, latest ?? 0)
      if (await this.views.hasUnread(user.id, channel)) unread_counts[channel.type] = (unread_counts[channel.type] ?? 0) + 1
    }
    const ranked = [...channels].sort((a, b) => (activity.get(b.id) ?? 0) - (activity.get(a.id) ?? 0) || b.id - a.id)
    return { page: await paginateRanked(resolvePage(query), ranked, this.views.filter(viewer, filter)), unread_counts }
  }

  /** How many subscribed channels of `type` have unread messages. */
  async numUnread(viewer: Viewer, type: string): Promise<number> {
    const user = actingUser(viewer)
    let n = 0
    for (const channel of await this.subscribed(viewer, user)) {
      if (channel.type === type && (await this.views.hasUnread(user.id, channel))) n++
    }
    return n
  }

  /**
   * Marks every subscribed broadcast channel read by moving its marker to the
   * latest message. Answers the number of unread broadcast channels left (0).
   * Emits `marker.set` per marker moved.
   */
  async markBroadcastsRead(viewer: Viewer): Promise<number> {
    const user = actingUser(viewer)
    for (const channel of await this.subscribed(viewer, user)) {
      if (channel.type !== BROADCAST_TYPE) continue
      const [latest] = await this.store.read.messages.ids('channel', channel.id, { limit: 1 })
      if (latest !== undefined) await this.markers.markRead(user, channel, latest)
    }
    return this.numUnread(viewer, BROADCAST_TYPE)
  }

  private async subscribed(viewer: Viewer, user: UserRow): Promise<ChannelRow[]> {
    const r = this.store.read
    const subs = await r.subscriptions.getMany(await r.subscriptions.ids('user', user.id, { limit: ALL }))
    const channels = await r.channels.getMany(subs.map((s) => s.channel_id))
    const out: ChannelRow[] = []
    for (const c of channels) if (await this.access.canRead(viewer, c)) out.push(c)
    return out
  }
}
