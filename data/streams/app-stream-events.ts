/**
 * What an app stream carries for one domain event: its items (most events
 * make one, some none), each with the spec's `meta` keys, the objects the
 * transport renders as `data`, and who may see it (the Visibility column of
 * the spec's app stream table).
 */
import type { DomainEvent, DomainEvents, EventName } from '../model/event.js'
import type { AppRow } from '../model/app.js'
import type { AppStreamObjectType } from '../model/app-stream.js'
import type { ChannelRow, MarkerRow, MessageRow } from '../model/channel.js'
import type { FileRow } from '../model/file.js'
import type { PostRow } from '../model/post.js'
import type { TokenRow } from '../model/token.js'
import type { UserRow } from '../model/user.js'
import { isFollowersOnly } from '../posts/post-traits.js'

/** The objects of an item, by the shape the transport renders. */
export type AppEventData =
  | { shape: 'post'; post: PostRow }
  | { shape: 'star'; post: PostRow; user: UserRow }
  | { shape: 'relation'; key: 'follows_user' | 'muted_user' | 'blocked_user'; user: UserRow; target: UserRow }
  | { shape: 'marker'; marker: MarkerRow; user: UserRow }
  | { shape: 'message'; message: MessageRow }
  | { shape: 'channel'; channel: ChannelRow }
  | { shape: 'channel_subscription'; user: UserRow; channel: ChannelRow }
  | { shape: 'token'; token: TokenRow; app: AppRow; user?: UserRow }
  | { shape: 'user'; user: UserRow }
  | { shape: 'file'; file: FileRow }
  | { shape: 'none' }

/** Who may see an item through an app's stream. */
export type AppVisibility =
  | { rule: 'public' }
  /** Only when this user authorized the app (mutes, blocks, profile updates). */
  | { rule: 'authorized'; userId: number }
  /** A post stream marker or a file: its user authorized the app with one of these scopes. */
  | { rule: 'scoped'; userId: number; scopes: readonly string[] }
  /**
   * A channel's activity: the app may read the channel by the REST rule, as
   * the event had it and as it is when delivered (a member the ACLs name
   * authorized the app for messages). With `userId` (a channel marker) that
   * user must also read the channel and have let the app see it.
   */
  | { rule: 'channel'; channel: ChannelRow; userId?: number }
  /** Token events: only the app's own tokens. */
  | { rule: 'app'; appId: number }

/** The spec's `meta` of an app stream event, before notifications are worked out. */
export interface AppEventMeta {
  id: string
  type: AppStreamObjectType
  is_deleted: boolean
  /** Unix time in milliseconds, as the original API's examples show. */
  timestamp: number
  channel_id?: string
  channel_type?: string
  subscribed_user_ids?: string[]
  user_id?: string
}

export interface AppStreamItem {
  meta: AppEventMeta
  data: AppEventData
  visibility: AppVisibility
}

const POST_MARKER_SCOPES = ['stream', 'messages', 'public_messages'] as const
const ids = (list: readonly number[]): string[] => list.map(String)

type Mapper<P> = (payload: P, at: number) => AppStreamItem[]

const item = (
  type: AppStreamObjectType,
  id: string,
  at: number,
  data: AppEventData,
  visibility: AppVisibility,
  extra: Partial<AppEventMeta> = {},
  deleted = false,
): AppStreamItem => ({
  meta: { id, type, is_deleted: deleted, timestamp: at, ...extra },
  data,
  visibility,
})

const PUBLIC: AppVisibility = { rule: 'public' }

const relation =
  (type: 'user_follow' | 'mute' | 'block', key: 'follows_user' | 'muted_user' | 'blocked_user', deleted: boolean): Mapper<DomainEvents['follow.added']> =>
  ({ user, target }, at) => [
    item(
      type,
      `${user.id}:${target.id}`,
      at,
      { shape: 'relation', key, user, target },
      type === 'user_follow' ? PUBLIC : { rule: 'authorized', userId: user.id },
      {},
      deleted,
    ),
  ]

// App streams carry public posts: a followers-only one (and its stars) has no audience there.
const post =
  (deleted: boolean): Mapper<DomainEvents['post.created']> =>
  ({ post }, at) =>
    isFollowersOnly(post) ? [] : [item('post', String(post.id), at, { shape: 'post', post }, PUBLIC, {}, deleted)]

const star =
  (deleted: boolean): Mapper<DomainEvents['star.added']> =>
  ({ post, user }, at) =>
    isFollowersOnly(post) ? [] : [item('star', `${user.id}:${post.id}`, at, { shape: 'star', post, user }, PUBLIC, {}, deleted)]

const message =
  (deleted: boolean): Mapper<DomainEvents['message.created']> =>
  ({ message, channel, subscribed_user_ids }, at) => [
    item(
      'message',
      String(message.id),
      at,
      { shape: 'message', message },
      { rule: 'channel', channel },
      { channel_type: channel.type, subscribed_user_ids: ids(subscribed_user_ids) },
      deleted,
    ),
  ]

const channel: Mapper<DomainEvents['channel.created']> = ({ channel, subscribed_user_ids }, at) => [
  item('channel', String(channel.id), at, { shape: 'channel', channel }, { rule: 'channel', channel }, { subscribed_user_ids: ids(subscribed_user_ids) }),
]

const subscription =
  (deleted: boolean): Mapper<DomainEvents['subscription.added']> =>
  ({ channel, user }, at) => [
    item('channel_subscription', `${user.id}:${channel.id}`, at, { shape: 'channel_subscription', user, channel }, { rule: 'channel', channel }, {}, deleted),
  ]

const token =
  (deleted: boolean): Mapper<DomainEvents['token.authorized']> =>
  ({ token, app, user }, at) =>
    // App tokens authorize nobody: only a user's grant is a `token` event.
    user === undefined
      ? []
      : [
          item(
            'token',
            String(token.id),
            at,
            deleted ? { shape: 'none' } : { shape: 'token', token, app, user },
            { rule: 'app', appId: app.id },
            { user_id: String(user.id) },
            deleted,
          ),
        ]

const marker: Mapper<DomainEvents['marker.set']> = ({ marker, user, channel }, at) => {
  const extra: Partial<AppEventMeta> = { user_id: String(user.id) }
  if (channel) {
    extra.channel_id = String(channel.id)
    extra.channel_type = channel.type
  }
  const id = channel ? `${user.id}:channel:${channel.id}` : `${user.id}:${marker.name}`
  const visibility: AppVisibility = channel ? { rule: 'channel', channel, userId: user.id } : { rule: 'scoped', userId: user.id, scopes: POST_MARKER_SCOPES }
  return [item('stream_marker', id, at, { shape: 'marker', marker, user }, visibility, extra)]
}

const file =
  (deleted: boolean): Mapper<DomainEvents['file.created']> =>
  ({ file }, at) => [
    item(
      'file',
      String(file.id),
      at,
      deleted ? { shape: 'none' } : { shape: 'file', file },
      { rule: 'scoped', userId: file.user_id, scopes: ['files'] },
      {},
      deleted,
    ),
  ]

const MAPPERS: { [N in EventName]?: Mapper<DomainEvents[N]> } = {
  'post.created': post(false),
  'post.deleted': post(true),
  // An edit of a remote post: the post again, under its id, for the client to replace.
  'post.updated': post(false),
  'star.added': star(false),
  'star.removed': star(true),
  'follow.added': relation('user_follow', 'follows_user', false),
  'follow.removed': relation('user_follow', 'follows_user', true),
  'mute.added': relation('mute', 'muted_user', false),
  'mute.removed': relation('mute', 'muted_user', true),
  'block.added': relation('block', 'blocked_user', false),
  'block.removed': relation('block', 'blocked_user', true),
  'marker.set': marker,
  'message.created': message(false),
  'message.deleted': message(true),
  'channel.created': channel,
  'channel.updated': channel,
  'subscription.added': subscription(false),
  'subscription.removed': subscription(true),
  'token.authorized': token(false),
  'token.scopes_changed': token(false),
  'token.deauthorized': token(true),
  'file.created': file(false),
  'file.updated': file(false),
  'file.deleted': file(true),
  'user.updated': ({ user }, at) => [item('user', String(user.id), at, { shape: 'user', user }, { rule: 'authorized', userId: user.id })],
}

/** The app stream items of `event`; none for events no app stream carries (explore curation, app registration, ...). */
export function appItemsOf(event: DomainEvent): AppStreamItem[] {
  const mapper = MAPPERS[event.name] as Mapper<DomainEvents[EventName]> | undefined
  return mapper ? mapper(event.payload, event.at) : []
}
