/**
 * What an answer was read from, and what an event changes, in one
 * vocabulary, so a cache of answers can drop exactly the answers an event
 * makes stale. A touch names a kind of thing and its id: a viewer (what is
 * shown to that user: their follows, mutes, blocks, stars, markers), a user
 * as shown (profile and counts), a post as shown (its counts), the posts an
 * author has (new or deleted), the posts mentioning a user.
 */
import type { DomainEvent } from '../model/event.js'

export const TOUCH = { viewer: 1, user: 2, post: 3, author: 4, mentions: 5 } as const

export type TouchKind = (typeof TOUCH)[keyof typeof TOUCH]

export interface Touch {
  kind: TouchKind
  id: number
}

/** Every answer may depend on what this event changed. */
export const EVERYTHING = 'everything'

const touch = (kind: TouchKind, id: number | undefined): Touch[] => (id === undefined ? [] : [{ kind, id }])

const between = (a: number, b: number): Touch[] => [
  { kind: TOUCH.viewer, id: a },
  { kind: TOUCH.viewer, id: b },
  { kind: TOUCH.user, id: a },
  { kind: TOUCH.user, id: b },
]

/**
 * What answers `event` can make stale. Events that change no post or user
 * as shown (channels, messages, files, app streams) touch nothing; an event
 * this does not know, or one that hides or shows a whole account or app,
 * touches everything.
 */
export function touchesOf(event: DomainEvent): readonly Touch[] | typeof EVERYTHING {
  switch (event.name) {
    case 'post.created':
    case 'post.deleted': {
      const { post } = (event as DomainEvent<'post.created'>).payload
      return [
        ...touch(TOUCH.post, post.id),
        ...touch(TOUCH.author, post.user_id),
        ...touch(TOUCH.user, post.user_id),
        // The counts and the viewer's flags of the posts it answers or reposts.
        ...touch(TOUCH.post, post.reply_to),
        ...touch(TOUCH.post, post.repost_of),
        ...touch(TOUCH.post, post.thread_id),
        ...post.entities.mentions.flatMap((m) => touch(TOUCH.mentions, Number(m.id))),
      ]
    }
    case 'post.updated': {
      const { post } = (event as DomainEvent<'post.updated'>).payload
      // Every answer showing the post read it (its edited text); its author's lists and the mentions it now makes may take it in.
      return [
        ...touch(TOUCH.post, post.id),
        ...touch(TOUCH.author, post.user_id),
        ...post.entities.mentions.flatMap((m) => touch(TOUCH.mentions, Number(m.id))),
      ]
    }
    case 'star.added':
    case 'star.removed': {
      const { post, user } = (event as DomainEvent<'star.added'>).payload
      return [...touch(TOUCH.post, post.id), ...touch(TOUCH.user, user.id), ...touch(TOUCH.viewer, user.id)]
    }
    case 'follow.added':
    case 'follow.removed':
    case 'mute.added':
    case 'mute.removed':
    case 'block.added':
    case 'block.removed': {
      const { user, target } = (event as DomainEvent<'follow.added'>).payload
      return between(user.id, target.id)
    }
    case 'user.updated': {
      const { user } = (event as DomainEvent<'user.updated'>).payload
      return [...touch(TOUCH.user, user.id), ...touch(TOUCH.viewer, user.id)]
    }
    case 'marker.set':
      return touch(TOUCH.viewer, (event as DomainEvent<'marker.set'>).payload.user.id)
    case 'user.created':
    case 'app.created':
    case 'token.authorized':
    case 'token.scopes_changed':
    case 'token.deauthorized':
    case 'explore.changed':
    case 'channel.created':
    case 'channel.updated':
    case 'subscription.added':
    case 'subscription.removed':
    case 'message.created':
    case 'message.deleted':
    case 'app_stream.created':
    case 'app_stream.updated':
    case 'app_stream.deleted':
    case 'filter.created':
    case 'filter.updated':
    case 'filter.deleted':
    case 'file.created':
    case 'file.updated':
    case 'file.deleted':
    case 'user_stream.taken':
    case 'user_stream.changed':
    // A report shows in no answer but the operator's (the mute it brings is an event of its own).
    case 'report.created':
    case 'report.resolved':
    case 'invite.created':
    case 'invite.used':
    // A second factor shows in no answer but its owner's own settings.
    case 'user.two_factor_enabled':
    case 'user.two_factor_disabled':
    case 'user.two_factor_recovery_codes_renewed':
    case 'user.two_factor_recovery_code_used':
    case 'user.app_password_created':
    case 'user.app_password_revoked':
    // The address is shown to its owner alone, and no answer shows a password or a link.
    case 'user.email_changed':
    case 'user.email_confirmed':
    case 'user.password_reset':
    case 'user.password_changed':
    case 'user.signed_out_elsewhere':
    case 'account_link.created':
    // An activity from another server as received: what it does (a post, a star, a follow) comes as events of its own.
    case 'federation.activity_received':
      return []
    default:
      return EVERYTHING
  }
}
