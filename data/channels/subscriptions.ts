/**
 * Channel subscriptions and channel mutes: subscribe and unsubscribe, the
 * subscriber lists, muting (which unsubscribes and blocks auto-subscription),
 * and auto-subscription by the rules of each user's preferences.
 */
import { invalid } from '../errors.js'
import type { ChannelRow } from '../model/channel.js'
import type { UserRow } from '../model/user.js'
import { paginate, resolvePage, type Page, type PageInput } from '../pagination/pagination.js'
import { pair } from '../store/schema.js'
import type { Readers, Store, Tx } from '../store/port.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'
import { BROADCAST_TYPE, type ChannelAccess } from './channel-acl.js'
import { actingUser } from '../users/acting-user.js'
import { blockedEitherWay } from '../relations/relation-reads.js'

/** The ids of a channel's subscribers, newest subscription first. */
export async function subscriberIdsOf(r: Readers, channelId: number): Promise<number[]> {
  const subs = await r.subscriptions.getMany(await r.subscriptions.ids('channel', channelId, { limit: Number.MAX_SAFE_INTEGER }))
  return subs.map((s) => s.user_id)
}

/**
 * The ids of a channel's subscribers once a transaction that subscribed
 * `added` (in that order) commits, newest subscription first, as
 * `subscriberIdsOf` will read them then: reads inside the transaction still
 * see the subscribers from before it.
 */
export async function subscriberIdsAfter(tx: Tx, channelId: number, added: readonly number[]): Promise<number[]> {
  return [...[...added].reverse(), ...(await subscriberIdsOf(tx, channelId))]
}

/** Subscribes `userId` inside a transaction unless already subscribed; answers whether it did. */
export async function addSubscription(tx: Tx, channelId: number, userId: number): Promise<boolean> {
  if (await tx.subscriptions.one('pair', pair(channelId, userId))) return false
  tx.subscriptions.insert({ channel_id: channelId, user_id: userId, created_at: isoNow() })
  return true
}

/**
 * Auto-subscribes `userIds` inside a transaction the way their preferences
 * allow: never into a channel they muted, never across a block with the
 * initiator (either way), and a bot's channel only reaches the bot's
 * followers. Answers the users newly subscribed.
 */
export async function autoSubscribe(tx: Tx, channel: ChannelRow, userIds: readonly number[], initiator: UserRow): Promise<number[]> {
  const added: number[] = []
  for (const userId of userIds) {
    if (await tx.channel_mutes.one('pair', pair(channel.id, userId))) continue
    // Someone blocked (or blocking) the initiator is not put into the initiator's conversation.
    if (userId !== initiator.id && (await blockedEitherWay(tx, userId, initiator.id))) continue
    if (initiator.type === 'bot' && userId !== initiator.id && !(await tx.follows.one('pair', pair(userId, initiator.id)))) continue
    if (await addSubscription(tx, channel.id, userId)) added.push(userId)
  }
  return added
}

/**
 * Removes `userId`'s subscription to `channel` inside a transaction (a
 * broadcast channel remembers when they left). Answers whether there was one.
 */
export async function removeSubscription(tx: Tx, channel: ChannelRow, userId: number): Promise<boolean> {
  const sub = await tx.subscriptions.one('pair', pair(channel.id, userId))
  if (!sub) return false
  tx.subscriptions.remove(sub.id)
  if (channel.type === BROADCAST_TYPE) await recordUnsubscription(tx, channel.id, userId)
  return true
}

/** Keeps when `userId` last left a broadcast channel: nothing else remembers it once the subscription row is gone. */
async function recordUnsubscription(tx: Tx, channelId: number, userId: number): Promise<void> {
  const last = await tx.broadcast_unsubscriptions.one('pair', pair(channelId, userId))
  if (last) tx.broadcast_unsubscriptions.put({ ...last, unsubscribed_at: isoNow() })
  else tx.broadcast_unsubscriptions.insert({ channel_id: channelId, user_id: userId, unsubscribed_at: isoNow() })
}

export class SubscriptionService {
  constructor(
    private readonly store: Store,
    private readonly access: ChannelAccess,
  ) {}

  /**
   * Subscribes the viewer to a channel they can read; subscribing unmutes.
   * Answers the channel. Errors: `not_found`, `invalid` (inactive channel).
   * Emits `subscription.added` when newly subscribed.
   */
  async subscribe(viewer: Viewer, channelId: number): Promise<ChannelRow> {
    const user = actingUser(viewer)
    const channel = await this.access.readable(viewer, channelId)
    if (channel.is_inactive) throw invalid('the channel is inactive')
    await this.store.transact(async (tx) => {
      const mute = await tx.channel_mutes.one('pair', pair(channel.id, user.id))
      if (mute) tx.channel_mutes.remove(mute.id)
      if (await addSubscription(tx, channel.id, user.id)) tx.emit('subscription.added', { channel, user })
    })
    return channel
  }

  /**
   * Unsubscribes the viewer. Answers the channel. Errors: `not_found`.
   * Emits `subscription.removed` when a subscription was removed.
   */
  async unsubscribe(viewer: Viewer, channelId: number): Promise<ChannelRow> {
    const user = actingUser(viewer)
    const channel = await this.access.readable(viewer, channelId)
    await this.store.transact(async (tx) => {
      if (await removeSubscription(tx, channel, user.id)) tx.emit('subscription.removed', { channel, user })
    })
    return channel
  }

  /**
   * Mutes a channel for the viewer: unsubscribes them and keeps them from
   * being auto-subscribed. Answers the channel. Errors: `not_found`.
   * Emits `subscription.removed` when they were subscribed.
   */
  async mute(viewer: Viewer, channelId: number): Promise<ChannelRow> {
    const user = actingUser(viewer)
    const channel = await this.access.readable(viewer, channelId)
    await this.store.transact(async (tx) => {
      if (!(await tx.channel_mutes.one('pair', pair(channel.id, user.id)))) {
        tx.channel_mutes.insert({ channel_id: channel.id, user_id: user.id, created_at: isoNow() })
      }
      if (await removeSubscription(tx, channel, user.id)) tx.emit('subscription.removed', { channel, user })
    })
    return channel
  }

  /** Unmutes a channel; does not resubscribe. Answers the channel. Errors: `not_found`. */
  async unmute(viewer: Viewer, channelId: number): Promise<ChannelRow> {
    const user = actingUser(viewer)
    const channel = await this.access.readable(viewer, channelId)
    await this.store.transact(async (tx) => {
      const mute = await tx.channel_mutes.one('pair', pair(channel.id, user.id))
      if (mute) tx.channel_mutes.remove(mute.id)
    })
    return channel
  }

  /** The active channels the viewer muted and can still read, newest mute first (not paginated). */
  async muted(viewer: Viewer): Promise<ChannelRow[]> {
    const user = actingUser(viewer)
    const r = this.store.read
    const mutes = await r.channel_mutes.getMany(await r.channel_mutes.ids('user', user.id, { limit: 10_000 }))
    const channels = await r.channels.getMany(mutes.map((m) => m.channel_id))
    const out: ChannelRow[] = []
    for (const c of channels) if (!c.is_inactive && (await this.access.canRead(viewer, c))) out.push(c)
    return out
  }

  /** A page of the users subscribed to a channel; pagination ids are subscription ids. Errors: `not_found`. */
  async subscribers(viewer: Viewer, channelId: number, query: PageInput): Promise<Page<UserRow>> {
    const channel = await this.access.readable(viewer, channelId)
    const r = this.store.read
    return paginate(
      resolvePage(query),
      (range) => r.subscriptions.ids('channel', channel.id, range),
      async (ids) => {
        const subs = await r.subscriptions.getMany(ids)
        const byId = new Map(subs.map((s) => [s.id, s.user_id]))
        const users = new Map((await r.users.getMany(subs.map((s) => s.user_id))).map((u) => [u.id, u]))
        return ids.map((id) => users.get(byId.get(id) ?? -1) ?? null)
      },
    )
  }

  /** The ids of a channel's subscribers, newest first. Errors: `not_found`. */
  async subscriberIds(viewer: Viewer, channelId: number): Promise<number[]> {
    const channel = await this.access.readable(viewer, channelId)
    return subscriberIdsOf(this.store.read, channel.id)
  }

  /** Subscriber ids of many channels; channels the viewer cannot read are left out. */
  async subscriberIdsMany(viewer: Viewer, channelIds: readonly number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>()
    for (const channel of await this.store.read.channels.getMany(channelIds)) {
      if (await this.access.canRead(viewer, channel)) out.set(channel.id, await subscriberIdsOf(this.store.read, channel.id))
    }
    return out
  }
}
