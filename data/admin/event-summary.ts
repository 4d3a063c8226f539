/**
 * One line of words for an event of the log, for the console's Events tab:
 * who did what to which (`post 12 by @alice`, `@bob follows @alice`), so
 * that an operator can follow the instance and filter by name or person.
 */
import type { DomainEvent, EventName } from '../model/event.js'

/** Answers `@username` for a user id (the payloads of posts and messages carry only the id). */
export type NameOf = (userId: number) => Promise<string>

const at = (user: { username: string }): string => `@${user.username}`

/** An event whose name tells its payload's type (a union TypeScript narrows by name). */
type NamedEvent = { [N in EventName]: DomainEvent<N> }[EventName]

export async function summarize(event: DomainEvent, nameOf: NameOf): Promise<string> {
  const e = event as NamedEvent
  switch (e.name) {
    case 'app.created':
      return `app ${e.payload.app.name}`
    case 'user.created':
      return `${at(e.payload.user)}${e.payload.user.waiting_approval ? ', waiting for approval' : ''}`
    case 'user.updated':
    case 'user.approved':
    case 'user.rejected':
    case 'user.two_factor_enabled':
    case 'user.two_factor_disabled':
    case 'user.two_factor_recovery_codes_renewed':
      return at(e.payload.user)
    case 'user.two_factor_recovery_code_used':
      return `${at(e.payload.user)}, ${e.payload.codes_left} left`
    case 'user.app_password_created':
    case 'user.app_password_revoked':
      return `${at(e.payload.user)}: ${e.payload.app_password.name}`
    // The address itself stays out of the console's lines: it is its owner's.
    case 'user.email_changed':
    case 'user.email_confirmed':
    case 'user.password_changed':
    case 'user.signed_out_elsewhere':
      return at(e.payload.user)
    case 'user.password_reset':
      return `${at(e.payload.user)} by ${e.payload.by}`
    case 'account_link.created':
      return `${e.payload.link.purpose} link for ${await nameOf(e.payload.link.user_id)}`
    case 'token.authorized':
    case 'token.scopes_changed':
    case 'token.deauthorized':
      return `token ${e.payload.token.id} of ${e.payload.user ? at(e.payload.user) : 'the app'} in ${e.payload.app.name}`
    case 'follow.added':
      return `${at(e.payload.user)} follows ${at(e.payload.target)}`
    case 'follow.removed':
      return `${at(e.payload.user)} unfollows ${at(e.payload.target)}`
    case 'mute.added':
    case 'mute.removed':
    case 'block.added':
    case 'block.removed':
      return `${at(e.payload.user)} → ${at(e.payload.target)}`
    case 'post.created':
    case 'post.updated':
    case 'post.deleted': {
      const { post } = e.payload
      const kind = post.repost_of !== undefined ? `, repost of ${post.repost_of}` : post.reply_to !== undefined ? `, reply to ${post.reply_to}` : ''
      return `post ${post.id} by ${await nameOf(post.user_id)}${kind}`
    }
    case 'star.added':
    case 'star.removed':
      return `${at(e.payload.user)} on post ${e.payload.post.id} by ${await nameOf(e.payload.post.user_id)}`
    case 'explore.changed':
      return `stream ${e.payload.stream.slug}${e.payload.removed ? ' removed' : ''}`
    case 'channel.created':
    case 'channel.updated':
      return `channel ${e.payload.channel.id} (${e.payload.channel.type}) of ${await nameOf(e.payload.channel.owner_id)}`
    case 'subscription.added':
    case 'subscription.removed':
      return `${at(e.payload.user)} in channel ${e.payload.channel.id}`
    case 'message.created':
    case 'message.deleted':
      return `message ${e.payload.message.id} by ${await nameOf(e.payload.message.user_id)} in channel ${e.payload.channel.id}`
    case 'marker.set':
      return `${at(e.payload.user)} marker ${e.payload.marker.name}`
    case 'federation.activity_received':
      return `${e.payload.type} from ${e.payload.actor}${e.payload.recipient_id === null ? '' : ` to ${await nameOf(e.payload.recipient_id)}`}`
    case 'federation.domain_blocked':
      return `${e.payload.block.domain} ${e.payload.block.silence ? 'silenced' : 'suspended'}${e.payload.block.reject_media ? ', media rejected' : ''}`
    case 'federation.domain_unblocked':
      return e.payload.block.domain
    default:
      return ''
  }
}
