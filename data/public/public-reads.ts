/**
 * What anyone may read, signed in or not, at the addresses the API hands out
 * for people to open: a post's `canonical_url`, a broadcast channel's and its
 * messages' `svc.core.fallback_url`. Nobody is signed in there, so the
 * anonymous viewer's rules apply; on top of them these addresses are for
 * people, so deleted and machine-only items have none, and of channels only
 * active public broadcasts do.
 */
import { notFound } from '../errors.js'
import type { ChannelRow } from '../model/channel.js'
import type { PostRow } from '../model/post.js'
import type { UserRow } from '../model/user.js'
import { paginate, type Page } from '../pagination/pagination.js'
import type { Store } from '../store/port.js'
import { anonymous } from '../viewer.js'
import { BROADCAST_TYPE, type ChannelAccess } from '../channels/channel-acl.js'
import type { MessageView, MessageViewService } from '../channels/message-views.js'
import type { PostView, PostViewService } from '../posts/post-views.js'
import type { PostService } from '../posts/posts.js'

/** How many messages a broadcast's page lists. */
export const BROADCAST_PAGE_SIZE = 20

export interface PublicPost {
  view: PostView
  /** The post it replies to, while that one may be read here too; null otherwise (and for posts that reply to none). */
  reply_to: PostView | null
}

export interface PublicBroadcast {
  channel: ChannelRow
  /** Newest first, `BROADCAST_PAGE_SIZE` at most. */
  messages: Page<MessageView>
}

export class PublicReadService {
  constructor(
    private readonly store: Store,
    private readonly posts: PostService,
    private readonly postViews: PostViewService,
    private readonly access: ChannelAccess,
    private readonly messageViews: MessageViewService,
  ) {}

  /**
   * Post `id` with its counts and the post it replies to. A repost answers
   * its original: that is what a link to a repost is for.
   * Errors: `not_found` (unknown, deleted, machine-only, or an original gone).
   */
  async post(id: number): Promise<PublicPost> {
    const asked = await this.live(id)
    const post = asked.repost_of === undefined ? asked : await this.live(asked.repost_of)
    const parent = post.reply_to === undefined ? null : await this.live(post.reply_to).catch(() => null)
    const [view, replyTo] = await this.postViews.views(parent ? [post, parent] : [post], anonymous)
    return { view, reply_to: replyTo ?? null }
  }

  /**
   * The newest `count` posts of `user` for their public page and feed: their
   * own (a repost is someone else's post), live, for people, and visible to
   * anyone (a followers-only post, or any post of a suspended account, is
   * not), with counts. The caller found `user` as anyone may.
   */
  async ofUser(user: UserRow, count: number): Promise<PostView[]> {
    const r = this.store.read
    const page = await paginate(
      { count },
      (range) => r.posts.ids('user_live', user.id, range),
      (ids) => Promise.all(ids.map((id) => this.posts.find(anonymous, id).catch(() => null))),
      (post) => forPeople(post) && post.repost_of === undefined,
    )
    return this.postViews.views(
      page.items.map((i) => i.item),
      anonymous,
    )
  }

  /**
   * Broadcast channel `channelId` and a page of its live messages for people
   * (not machine-only), older than `beforeId` when given.
   * Errors: `not_found` (see `broadcast`).
   */
  async broadcast(channelId: number, beforeId?: number): Promise<PublicBroadcast> {
    const channel = await this.readableBroadcast(channelId)
    const r = this.store.read
    const page = await paginate(
      { before_id: beforeId, count: BROADCAST_PAGE_SIZE },
      (range) => r.messages.ids('channel_live', channel.id, range),
      (ids) => Promise.all(ids.map((id) => r.messages.get(id))),
      (m) => !m.machine_only,
    )
    const views = await this.messageViews.views(page.items.map((i) => i.item))
    return { channel, messages: { more: page.more, items: page.items.map((i, n) => ({ item: views[n], pagination_id: i.pagination_id })) } }
  }

  /**
   * Message `messageId` of broadcast channel `channelId`, with its author.
   * Errors: `not_found` (an unreadable, inactive or non-broadcast channel,
   * a message of another channel, deleted or machine-only).
   */
  async broadcastMessage(channelId: number, messageId: number): Promise<{ channel: ChannelRow; message: MessageView }> {
    const channel = await this.readableBroadcast(channelId)
    const message = await this.store.read.messages.get(messageId)
    if (!message || message.channel_id !== channel.id || !forPeople(message)) throw notFound(`message ${messageId} not found`)
    const [view] = await this.messageViews.views([message])
    return { channel, message: view }
  }

  private async live(id: number): Promise<PostRow> {
    const post = await this.posts.find(anonymous, id)
    if (!forPeople(post)) throw notFound(`post ${id} not found`)
    return post
  }

  private async readableBroadcast(id: number): Promise<ChannelRow> {
    const channel = await this.access.readable(anonymous, id)
    if (channel.type !== BROADCAST_TYPE || channel.is_inactive) throw notFound(`channel ${id} not found`)
    return channel
  }
}

const forPeople = (item: { is_deleted?: boolean; machine_only: boolean }): boolean => !item.is_deleted && !item.machine_only
