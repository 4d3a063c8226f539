/**
 * Standard notifications for app streams (adn-reference §16): who would get
 * a push for an event (someone stars my post, follows me, reposts or replies
 * to my post, mentions me, writes in a channel I am subscribed to) and which
 * of them must not (`meta.suppress_notifications`), because they muted or
 * blocked the actor, were blocked by them, muted the channel, or the actor is
 * a bot they do not follow. `suppress_notifications_all` is set for what
 * nobody should be pushed about: deletions and machine-only items.
 */
import type { DomainEvent, DomainEvents } from '../model/event.js'
import type { Readers } from '../store/port.js'
import { pair } from '../store/schema.js'

export interface NotificationMeta {
  suppress_notifications: string[]
  suppress_notifications_all: boolean
}

interface Notified {
  actor: number
  recipients: Set<number>
  channelId?: number
  quiet: boolean
}

const NONE: NotificationMeta = Object.freeze({ suppress_notifications: [], suppress_notifications_all: false }) as NotificationMeta
const ALL: NotificationMeta = Object.freeze({ suppress_notifications: [], suppress_notifications_all: true }) as NotificationMeta

const mentioned = (entities: { mentions: { id: string }[] }): number[] => entities.mentions.map((m) => Number(m.id))

export class NotificationRules {
  constructor(private readonly read: Readers) {}

  /** The notification keys of `event`'s app stream items. */
  async of(event: DomainEvent): Promise<NotificationMeta> {
    const notified = await this.notifiedBy(event)
    if (notified === 'all') return ALL
    if (!notified) return NONE
    if (notified.quiet) return ALL
    notified.recipients.delete(notified.actor)
    const suppressed: string[] = []
    for (const id of notified.recipients) if (await this.suppresses(id, notified)) suppressed.push(String(id))
    return { suppress_notifications: suppressed, suppress_notifications_all: false }
  }

  /** Whom the event would notify; `all` for events nobody is told of; `null` for events that notify nobody in particular. */
  private async notifiedBy(event: DomainEvent): Promise<Notified | 'all' | null> {
    const r = this.read
    switch (event.name) {
      case 'post.deleted':
      // An edit is the post again, not news: nobody is pushed about it.
      case 'post.updated':
      case 'message.deleted':
      case 'star.removed':
      case 'follow.removed':
      case 'mute.removed':
      case 'block.removed':
      case 'subscription.removed':
      case 'token.deauthorized':
      case 'file.deleted':
        return 'all'
      case 'star.added': {
        const { post, user } = event.payload as DomainEvents['star.added']
        return { actor: user.id, recipients: new Set([post.user_id]), quiet: false }
      }
      case 'follow.added': {
        const { user, target } = event.payload as DomainEvents['follow.added']
        return { actor: user.id, recipients: new Set([target.id]), quiet: false }
      }
      case 'post.created': {
        const { post } = event.payload as DomainEvents['post.created']
        const recipients = new Set<number>()
        if (post.repost_of !== undefined) {
          const original = await r.posts.get(post.repost_of)
          if (original) recipients.add(original.user_id)
        } else {
          for (const id of mentioned(post.entities)) recipients.add(id)
          const parent = post.reply_to === undefined ? null : await r.posts.get(post.reply_to)
          if (parent) recipients.add(parent.user_id)
        }
        return { actor: post.user_id, recipients, quiet: post.machine_only }
      }
      case 'message.created': {
        const { message, channel, subscribed_user_ids } = event.payload as DomainEvents['message.created']
        const recipients = new Set<number>([...subscribed_user_ids, ...mentioned(message.entities)])
        const parent = message.reply_to === undefined ? null : await r.messages.get(message.reply_to)
        if (parent) recipients.add(parent.user_id)
        return { actor: message.user_id, recipients, channelId: channel.id, quiet: message.machine_only }
      }
      default:
        return null
    }
  }

  private async suppresses(recipient: number, { actor, channelId }: Notified): Promise<boolean> {
    const r = this.read
    if ((await r.mutes.one('pair', pair(recipient, actor))) !== null) return true
    if ((await r.blocks.one('pair', pair(recipient, actor))) !== null || (await r.blocks.one('pair', pair(actor, recipient))) !== null) return true
    if (channelId !== undefined && (await r.channel_mutes.one('pair', pair(channelId, recipient))) !== null) return true
    const author = await r.users.get(actor)
    // A bot pushes only to the people who chose to follow it.
    return author?.type === 'bot' && (await r.follows.one('pair', pair(recipient, actor))) === null
  }
}
