/**
 * Which subscriptions of a user stream an event concerns, and what each one
 * shows: the question "would the same REST call list this now, for this
 * viewer?", answered by the services that answer the REST call itself
 * (`PostStreamService.contains`, `MessageService.listable`, the channel
 * filter), so a stream never shows what the list would hide.
 */
import type { TokenService } from '../auth/tokens.js'
import type { MessageService } from '../channels/messages.js'
import type { ChannelViewService } from '../channels/channel-views.js'
import type { ChannelAccess } from '../channels/channel-acl.js'
import { channelMarkerName } from '../channels/markers.js'
import type { DomainEvent } from '../model/event.js'
import type { ChannelRow } from '../model/channel.js'
import type { PostRow } from '../model/post.js'
import type { StreamSubscriptionRow } from '../model/stream.js'
import type { UserRow } from '../model/user.js'
import type { PostTest } from '../posts/post-filters.js'
import { INTERACTIONS_MARKER, type InteractionAction, type InteractionService } from '../posts/interactions.js'
import type { PostStreamService, SubscribablePostList } from '../posts/post-streams.js'
import type { Readers } from '../store/port.js'
import { pair } from '../store/schema.js'
import { hasScope, type Viewer } from '../viewer.js'
import { emptyPage, pageOf, type StreamMatch } from './stream-delivery.js'

export interface MatcherServices {
  read: Readers
  postStreams: PostStreamService
  messages: MessageService
  channelViews: ChannelViewService
  channelAccess: ChannelAccess
  tokens: TokenService
  interactions: InteractionService
}

/** The post list of each post endpoint, and whose (the viewer's, the subscription's target's). */
const POST_LISTS: Partial<Record<StreamSubscriptionRow['endpoint'], SubscribablePostList>> = {
  'users/me/posts': 'ofUser',
  'users/me/mentions': 'mentions',
  'posts/replies': 'thread',
  'posts/stream': 'personal',
  'posts/stream/unified': 'unified',
}

/** The stream marker name of each post list that has one. */
const postMarkerName = (endpoint: StreamSubscriptionRow['endpoint'], me: number): string | null =>
  ({ 'users/me/posts': `posts:${me}`, 'users/me/mentions': `mentions:${me}`, 'posts/stream': 'my_stream', 'posts/stream/unified': 'unified' })[
    endpoint as string
  ] ?? null

export class StreamMatcher {
  constructor(private readonly s: MatcherServices) {}

  /**
   * What `sub` shows of `event` for `viewer` (the stream's token and user, as
   * they are now), or null. `memo` keeps the subscriptions' compiled tests
   * for the stream; its owner clears it when the viewer's relations change.
   */
  async match(viewer: Viewer, sub: StreamSubscriptionRow, event: DomainEvent, memo: Map<string, PostTest> = new Map()): Promise<StreamMatch | null> {
    const me = viewer.user
    // The token's scopes may have changed since the subscription: the list's own rule, one of its scopes, holds at each delivery.
    if (!me || (sub.scopes.length > 0 && !sub.scopes.some((s) => hasScope(viewer, s)))) return null
    const list = POST_LISTS[sub.endpoint]
    if (list) return this.matchPosts(viewer, me, sub, list, event, memo)
    switch (sub.endpoint) {
      case 'users/me/following':
      case 'users/me/followers':
        return this.matchFollows(me, sub.endpoint === 'users/me/following', event)
      case 'channels':
        return this.matchChannels(viewer, me, sub, event)
      case 'channels/subscribers':
        return this.matchSubscribers(viewer, sub, event)
      case 'channels/messages':
        return this.matchMessages(viewer, me, sub, event)
      case 'users/me/interactions':
        return this.matchInteractions(viewer, me, event)
      case 'token':
        return this.matchToken(viewer, me, event)
      case 'users/me/files':
        return matchFiles(me, sub, event)
      default:
        return null
    }
  }

  private async matchPosts(
    viewer: Viewer,
    me: UserRow,
    sub: StreamSubscriptionRow,
    list: SubscribablePostList,
    event: DomainEvent,
    memo: Map<string, PostTest>,
  ): Promise<StreamMatch | null> {
    if (event.name === 'marker.set') {
      const { marker } = (event as DomainEvent<'marker.set'>).payload
      const name = postMarkerName(sub.endpoint, me.id)
      if (marker.user_id !== me.id || name === null || marker.name !== name) return null
      return { type: 'stream_marker', shape: 'posts', page: emptyPage(), marker: { name, row: marker } }
    }
    if (event.name !== 'post.created' && event.name !== 'post.updated' && event.name !== 'post.deleted') return null
    // An edit is sent as the post again (App.net clients know no edits, and replace a post they hold by id).
    const { post } = (event as DomainEvent<'post.created'>).payload
    const target = list === 'thread' ? (sub.thread_id ?? 0) : me.id
    // A deletion is sent to every list that showed the post, whatever include_deleted says: it is how a client learns to drop it.
    const deleted = event.name === 'post.deleted'
    const key = `${sub.id}${deleted ? ':deleted' : ''}`
    let test = memo.get(key)
    if (!test) {
      test = await this.s.postStreams.membership(viewer, list, target, deleted ? { ...sub.filters, include_deleted: true } : sub.filters)
      memo.set(key, test)
    }
    if (!deleted) {
      if (!(await test(post))) return null
      return { type: 'post', shape: 'posts', page: pageOf(post, post.id) }
    }
    const shown: PostRow = { ...post, is_deleted: false }
    if (!(await test(shown))) return null
    return { type: 'post', shape: 'posts', page: pageOf(post, post.id), deletedId: post.id }
  }

  private async matchFollows(me: UserRow, following: boolean, event: DomainEvent): Promise<StreamMatch | null> {
    if (event.name !== 'follow.added' && event.name !== 'follow.removed') return null
    const { user, target } = (event as DomainEvent<'follow.added'>).payload
    const mine = following ? user.id === me.id : target.id === me.id
    if (!mine) return null
    const other = following ? target : user
    // Follower lists page by follow row; a removed follow has none left, so its user's id stands in.
    const row = await this.s.read.follows.one('pair', pair(user.id, target.id))
    const page = pageOf(other, row?.id ?? other.id)
    return event.name === 'follow.added' ? { type: 'user_follow', shape: 'users', page } : { type: 'user_follow', shape: 'users', page, deletedId: other.id }
  }

  /**
   * A new follow of the user, star, repost or reply of their post by someone
   * else: the interaction it is now part of (the newest of its action, whose
   * users include the actor; none when the list hides the actor). Moves of the
   * list's marker too. Undoing one sends nothing: the list is rebuilt on each
   * call, so a client reads it again when it needs to.
   */
  private async matchInteractions(viewer: Viewer, me: UserRow, event: DomainEvent): Promise<StreamMatch | null> {
    if (event.name === 'marker.set') {
      const { marker } = (event as DomainEvent<'marker.set'>).payload
      if (marker.user_id !== me.id || marker.name !== INTERACTIONS_MARKER) return null
      return { type: 'stream_marker', shape: 'interactions', page: emptyPage(), marker: { name: INTERACTIONS_MARKER, row: marker } }
    }
    const done = await this.interactionOf(me, event)
    if (!done || done.actor === me.id) return null
    const page = await this.s.interactions.list(viewer, [done.action], { count: 1 })
    const newest = page.items[0]
    if (!newest || !newest.item.users.some((u) => u.id === done.actor)) return null
    return { type: 'interaction', shape: 'interactions', page: { items: [newest], more: false } }
  }

  /** What `event` did to `me` or their post, and who did it, if it is an interaction with them at all. */
  private async interactionOf(me: UserRow, event: DomainEvent): Promise<{ action: InteractionAction; actor: number } | null> {
    switch (event.name) {
      case 'follow.added': {
        const { user, target } = (event as DomainEvent<'follow.added'>).payload
        return target.id === me.id ? { action: 'follow', actor: user.id } : null
      }
      case 'star.added': {
        const { post, user } = (event as DomainEvent<'star.added'>).payload
        return post.user_id === me.id ? { action: 'star', actor: user.id } : null
      }
      case 'post.created': {
        const { post } = (event as DomainEvent<'post.created'>).payload
        const about = post.repost_of ?? post.reply_to
        if (about === undefined) return null
        const original = await this.s.read.posts.get(about)
        if (original?.user_id !== me.id) return null
        return { action: post.repost_of === undefined ? 'reply' : 'repost', actor: post.user_id }
      }
      default:
        return null
    }
  }

  private async matchChannels(viewer: Viewer, me: UserRow, sub: StreamSubscriptionRow, event: DomainEvent): Promise<StreamMatch | null> {
    const filter = this.s.channelViews.filter(viewer, { channel_types: sub.filters.channel_types, include_read: sub.filters.include_read })
    const subscribed = async (channel: ChannelRow) => (await this.s.read.subscriptions.one('pair', pair(channel.id, me.id))) !== null
    // The inbox lists only channels its user can read now: an event of a channel they lost shows nothing of it.
    const readable = (channel: ChannelRow) => this.s.channelAccess.canStillRead(viewer, channel)
    switch (event.name) {
      case 'channel.created':
      case 'channel.updated': {
        const { channel, subscribed_user_ids } = (event as DomainEvent<'channel.created'>).payload
        if (!subscribed_user_ids.includes(me.id) || !(await readable(channel)) || !(await filter(channel))) return null
        return { type: 'channel', shape: 'channels', page: pageOf(channel, channel.id) }
      }
      case 'subscription.added':
      case 'subscription.removed': {
        const { channel, user } = (event as DomainEvent<'subscription.added'>).payload
        if (user.id !== me.id || !(await filter(channel))) return null
        if (event.name === 'subscription.added')
          return (await readable(channel)) ? { type: 'channel', shape: 'channels', page: pageOf(channel, channel.id) } : null
        // Leaving a channel they can no longer read still tells the client to drop it, without showing the channel.
        const page = (await readable(channel)) ? pageOf(channel, channel.id) : emptyPage<ChannelRow>()
        return { type: 'channel', shape: 'channels', page, deletedId: channel.id }
      }
      case 'message.created':
      case 'message.deleted': {
        const { message, channel } = (event as DomainEvent<'message.created'>).payload
        if (!(await subscribed(channel)) || !(await filter(channel))) return null
        if (!(await this.s.messages.listable(viewer, channel, message, { include_machine: true, include_muted: sub.filters.include_muted }))) return null
        const page = pageOf(message, message.id)
        return event.name === 'message.created'
          ? { type: 'message', shape: 'messages', page }
          : { type: 'message', shape: 'messages', page, deletedId: message.id }
      }
      case 'marker.set': {
        const { marker, channel } = (event as DomainEvent<'marker.set'>).payload
        if (!channel || marker.user_id !== me.id || !(await subscribed(channel)) || !(await readable(channel))) return null
        return { type: 'channel', shape: 'channels', page: pageOf(channel, channel.id), marker: { name: marker.name, row: marker } }
      }
      default:
        return null
    }
  }

  private async matchSubscribers(viewer: Viewer, sub: StreamSubscriptionRow, event: DomainEvent): Promise<StreamMatch | null> {
    if (event.name !== 'subscription.added' && event.name !== 'subscription.removed') return null
    const { channel, user } = (event as DomainEvent<'subscription.added'>).payload
    if (channel.id !== sub.target || !(await this.s.channelAccess.canStillRead(viewer, channel))) return null
    const row = await this.s.read.subscriptions.one('pair', pair(channel.id, user.id))
    const page = pageOf(user, row?.id ?? user.id)
    return event.name === 'subscription.added'
      ? { type: 'channel_subscription', shape: 'users', page }
      : { type: 'channel_subscription', shape: 'users', page, deletedId: user.id }
  }

  private async matchMessages(viewer: Viewer, me: UserRow, sub: StreamSubscriptionRow, event: DomainEvent): Promise<StreamMatch | null> {
    if (event.name === 'marker.set') {
      const { marker, channel } = (event as DomainEvent<'marker.set'>).payload
      const name = channelMarkerName(sub.target ?? 0)
      if (marker.user_id !== me.id || marker.name !== name) return null
      if (channel && !(await this.s.channelAccess.canStillRead(viewer, channel))) return null
      return { type: 'stream_marker', shape: 'messages', page: emptyPage(), marker: { name, row: marker } }
    }
    if (event.name !== 'message.created' && event.name !== 'message.deleted') return null
    const { message, channel } = (event as DomainEvent<'message.created'>).payload
    if (channel.id !== sub.target) return null
    const filter = { include_machine: sub.filters.include_machine, include_muted: sub.filters.include_muted }
    if (event.name === 'message.created') {
      if (!(await this.s.messages.listable(viewer, channel, message, filter))) return null
      return { type: 'message', shape: 'messages', page: pageOf(message, message.id) }
    }
    if (!(await this.s.messages.listable(viewer, channel, { ...message, is_deleted: false }, filter))) return null
    return { type: 'message', shape: 'messages', page: pageOf(message, message.id), deletedId: message.id }
  }

  private async matchToken(viewer: Viewer, me: UserRow, event: DomainEvent): Promise<StreamMatch | null> {
    if (event.name === 'user.updated') {
      const { user } = (event as DomainEvent<'user.updated'>).payload
      return user.id === me.id ? { type: 'user', shape: 'user', user } : null
    }
    if (event.name !== 'token.scopes_changed' && event.name !== 'token.authorized') return null
    const { token } = (event as DomainEvent<'token.authorized'>).payload
    if (token.id !== viewer.token?.id) return null
    const info = await this.s.tokens.describe(token)
    return info ? { type: 'token', shape: 'token', token: info } : null
  }
}

/** The user's own files: created, completed or changed, deleted; within the subscription's file filters. */
function matchFiles(me: UserRow, sub: StreamSubscriptionRow, event: DomainEvent): StreamMatch | null {
  if (event.name !== 'file.created' && event.name !== 'file.updated' && event.name !== 'file.deleted') return null
  const { file } = (event as DomainEvent<'file.created'>).payload
  if (file.user_id !== me.id) return null
  const f = sub.filters
  if (f.file_types && !f.file_types.includes(file.type)) return null
  if (event.name === 'file.deleted') return { type: 'file', shape: 'files', page: emptyPage(), deletedId: file.id }
  if (f.include_incomplete === false && !file.complete) return null
  if (f.include_private === false && !file.public) return null
  return { type: 'file', shape: 'files', page: pageOf(file, file.id) }
}
