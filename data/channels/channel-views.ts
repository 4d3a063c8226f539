/**
 * What a viewer sees of a channel beyond the row: counts, the `you` flags,
 * subscription and mute state, unread state (from the `channel:<id>` marker)
 * and the most recent message. Also the channel list filters of the channel
 * general parameters, which need that state.
 */
import type { ChannelRow, MarkerRow, MessageRow } from '../model/channel.js'
import type { UserRow } from '../model/user.js'
import { pair } from '../store/schema.js'
import type { Store } from '../store/port.js'
import type { Viewer } from '../viewer.js'
import type { Annotation } from '../model/entities.js'
import { aclLevel, atLeast, BROADCAST_TYPE, type ChannelAccess } from './channel-acl.js'
import { broadcastFrequency, shownChannelAnnotations } from './channel-annotations.js'
import { channelMarkerName, type MarkerService } from './markers.js'

export interface ChannelView {
  channel: ChannelRow
  /** The channel's owner; null when the account is gone. */
  owner: UserRow | null
  counts: { messages: number; subscribers: number }
  you: { readers: boolean; writers: boolean; editors: boolean }
  you_can_edit: boolean
  you_subscribed: boolean
  you_muted: boolean
  has_unread: boolean
  recent_message_id?: number
  /** Only when asked for (`include_recent_message`). */
  recent_message?: MessageRow
  /** Only when asked for (`include_marker`, user tokens): null while unset. */
  marker?: MarkerRow | null
  /** Only when asked for: the channel's annotations plus those the server keeps on broadcast channels. */
  annotations?: Annotation[]
}

export interface ChannelViewOptions {
  recentMessage?: boolean
  marker?: boolean
  /** Show annotations; the server-kept fallback URLs point at `baseUrl`. */
  annotations?: { baseUrl: string }
}

/** Enough of a low-volume broadcast channel's latest messages to measure a month of publishing. */
const FREQ_SAMPLE = 1000

/** The channel general parameters that filter lists. */
export interface ChannelFilter {
  include_inactive?: boolean
  /** Only unread channels when false (default true). */
  include_read?: boolean
  channel_types?: readonly string[]
}

export class ChannelViewService {
  constructor(
    private readonly store: Store,
    private readonly access: ChannelAccess,
    private readonly markers: MarkerService,
  ) {}

  async views(channels: readonly ChannelRow[], viewer: Viewer, options: ChannelViewOptions = {}): Promise<ChannelView[]> {
    return Promise.all(channels.map((c) => this.view(c, viewer, options)))
  }

  async view(channel: ChannelRow, viewer: Viewer, options: ChannelViewOptions = {}): Promise<ChannelView> {
    const r = this.store.read
    const userId = viewer.user?.id
    const level = viewer.user ? await this.access.level(viewer, channel) : aclLevel(channel, undefined)
    const [recentId] = await r.messages.ids('channel', channel.id, { limit: 1 })
    const view: ChannelView = {
      channel,
      owner: await r.users.get(channel.owner_id),
      counts: { messages: await r.messages.count('channel_live', channel.id), subscribers: await r.subscriptions.count('channel', channel.id) },
      you: { readers: atLeast(level, 'read'), writers: atLeast(level, 'write') && !channel.is_inactive, editors: atLeast(level, 'edit') },
      you_can_edit: userId === channel.owner_id,
      you_subscribed: userId !== undefined && (await r.subscriptions.one('pair', pair(channel.id, userId))) !== null,
      you_muted: userId !== undefined && (await r.channel_mutes.one('pair', pair(channel.id, userId))) !== null,
      has_unread: userId !== undefined && (await this.hasUnread(userId, channel)),
    }
    if (recentId !== undefined) view.recent_message_id = recentId
    if (options.recentMessage && recentId !== undefined) view.recent_message = (await r.messages.get(recentId)) ?? undefined
    if (options.marker && userId !== undefined) view.marker = await this.markers.find(userId, channelMarkerName(channel.id))
    if (options.annotations) view.annotations = shownChannelAnnotations(channel, options.annotations.baseUrl, await this.frequency(channel))
    return view
  }

  /** How often a broadcast channel publishes; undefined for other channels. */
  private async frequency(channel: ChannelRow): Promise<{ avg_freq: string; intensity: number } | undefined> {
    if (channel.type !== BROADCAST_TYPE) return undefined
    const r = this.store.read
    const latest = await r.messages.getMany(await r.messages.ids('channel_live', channel.id, { limit: FREQ_SAMPLE }))
    return broadcastFrequency(
      latest.map((m) => Date.parse(m.created_at)),
      Date.parse(channel.created_at),
      Date.now(),
    )
  }

  /** Has the channel a live message past the user's `channel:<id>` marker? */
  async hasUnread(userId: number, channel: ChannelRow): Promise<boolean> {
    const [latest] = await this.store.read.messages.ids('channel_live', channel.id, { limit: 1 })
    if (latest === undefined) return false
    const marker = await this.markers.find(userId, channelMarkerName(channel.id))
    return latest > (marker?.last_read_id ?? 0)
  }

  /** A predicate applying the channel general parameters for `viewer`. */
  filter(viewer: Viewer, filter: ChannelFilter): (channel: ChannelRow) => Promise<boolean> {
    return async (channel) => {
      if (channel.is_inactive && !filter.include_inactive) return false
      if (filter.channel_types && filter.channel_types.length > 0 && !filter.channel_types.includes(channel.type)) return false
      if (filter.include_read === false && !(viewer.user && (await this.hasUnread(viewer.user.id, channel)))) return false
      return true
    }
  }
}
