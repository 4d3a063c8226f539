/**
 * Who an event may concern, worked out once per event before any
 * subscription is matched: the users whose own lists it touches, the
 * threads and channels subscribed by id, and the author whose followers'
 * streams it reaches. Only their connections are asked to match it, so an
 * event costs its audience, not every open stream.
 */
import type { DomainEvent } from '../model/event.js'

export interface Audience {
  users: number[]
  threads: number[]
  channels: number[]
  /** A post's author: their followers' personal and unified streams. */
  followersOf?: number
  /** The post replied to or reposted: its author's interactions. */
  authorOfPost?: number
  /** A revoked token: its streams close. */
  revokedToken?: number
}

const NOBODY: Audience = { users: [], threads: [], channels: [] }

const RELATION_EVENTS: ReadonlySet<string> = new Set(['follow.added', 'follow.removed', 'mute.added', 'mute.removed', 'block.added', 'block.removed'])

/** The two users of a follow, mute or block event (added or removed), or null for any other event. */
export function relationOf(event: DomainEvent): { user: number; target: number } | null {
  if (!RELATION_EVENTS.has(event.name)) return null
  const { user, target } = (event as DomainEvent<'follow.added'>).payload
  return { user: user.id, target: target.id }
}

export function audienceOf(event: DomainEvent): Audience {
  // Nothing lists mutes and blocks, but they change what both users' streams show, as follows do.
  const relation = relationOf(event)
  if (relation) return { users: [relation.user, relation.target], threads: [], channels: [] }
  switch (event.name) {
    case 'post.created':
    case 'post.updated':
    case 'post.deleted': {
      const { post } = (event as DomainEvent<'post.created'>).payload
      const mentioned = post.entities.mentions.map((m) => Number(m.id))
      const about = post.repost_of ?? post.reply_to
      return {
        users: [post.user_id, ...mentioned],
        threads: [post.thread_id],
        channels: [],
        followersOf: post.user_id,
        ...(about === undefined ? {} : { authorOfPost: about }),
      }
    }
    case 'star.added':
    case 'star.removed':
      return { users: [(event as DomainEvent<'star.added'>).payload.post.user_id], threads: [], channels: [] }
    case 'channel.created':
    case 'channel.updated': {
      const { channel, subscribed_user_ids } = (event as DomainEvent<'channel.created'>).payload
      return { users: subscribed_user_ids, threads: [], channels: [channel.id] }
    }
    case 'subscription.added':
    case 'subscription.removed': {
      const { channel, user } = (event as DomainEvent<'subscription.added'>).payload
      return { users: [user.id], threads: [], channels: [channel.id] }
    }
    case 'message.created':
    case 'message.deleted': {
      const { channel, subscribed_user_ids } = (event as DomainEvent<'message.created'>).payload
      return { users: subscribed_user_ids, threads: [], channels: [channel.id] }
    }
    case 'marker.set':
      return { users: [(event as DomainEvent<'marker.set'>).payload.marker.user_id], threads: [], channels: [] }
    case 'file.created':
    case 'file.updated':
    case 'file.deleted':
      return { users: [(event as DomainEvent<'file.created'>).payload.file.user_id], threads: [], channels: [] }
    case 'user.updated':
      return { users: [(event as DomainEvent<'user.updated'>).payload.user.id], threads: [], channels: [] }
    case 'token.authorized':
    case 'token.scopes_changed': {
      const { token } = (event as DomainEvent<'token.authorized'>).payload
      return token.user_id === undefined ? NOBODY : { users: [token.user_id], threads: [], channels: [] }
    }
    case 'token.deauthorized':
      return { ...NOBODY, revokedToken: (event as DomainEvent<'token.deauthorized'>).payload.token.id }
    default:
      return NOBODY
  }
}
