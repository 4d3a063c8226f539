/** Channel subscriptions: subscribe, subscribers, mute, the muted list and unread counts. */
import Joi from 'joi'
import { BROADCAST_TYPE, MESSAGING_SCOPES, PM_TYPE, type ChannelServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, idList, paginationQuery, userGeneralQuery } from '../../params.js'
import { presentChannel, presentChannels } from '../../present/channels/channel.js'
import { contextOf } from '../../present/context.js'
import { presentPage } from '../../present/page.js'
import { presentUsers } from '../../present/users/user.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'
import { answerSubscribing } from '../../streams/subscribe.js'
import { channelParams, channelQuery } from './channels.js'

const bare = Joi.object(commonQuery)

type ChannelAction = 'subscribe' | 'unsubscribe' | 'mute' | 'unmute'

/** POST/DELETE on a channel's `subscribe` or `mute`: one state change, the channel answered. */
const toggle = (channels: ChannelServices, shared: Shared, method: 'POST' | 'DELETE', noun: 'subscribe' | 'mute', action: ChannelAction): SvcRoute => ({
  method,
  path: `/channels/{channel_id}/${noun}`,
  svc: { token: 'user', scopes: MESSAGING_SCOPES, answer: 'Channel' },
  options: { validate: { params: channelParams, query: channelQuery } },
  handler: async (request) => {
    const channel = await channels.subscriptions[action](viewerOf(request), Number(request.params.channel_id))
    return ok(await presentChannel(contextOf(request, shared.views), channel))
  },
})

export const subscriptionRoutes = (channels: ChannelServices, shared: Shared): SvcRoute[] => [
  toggle(channels, shared, 'POST', 'subscribe', 'subscribe'),
  toggle(channels, shared, 'DELETE', 'subscribe', 'unsubscribe'),
  toggle(channels, shared, 'POST', 'mute', 'mute'),
  toggle(channels, shared, 'DELETE', 'mute', 'unmute'),
  {
    method: 'GET',
    path: '/channels/{channel_id}/subscribers',
    svc: { token: 'any', scopes: MESSAGING_SCOPES, answer: 'PaginatedUser[]' },
    options: { validate: { params: channelParams, query: Joi.object({ ...commonQuery, ...userGeneralQuery, ...paginationQuery }) } },
    handler: async (request) => {
      const ctx = contextOf(request, shared.views)
      const channelId = Number(request.params.channel_id)
      return answerSubscribing(request, shared.userStreams, { endpoint: 'channels/subscribers', target: channelId }, async () => {
        const page = await channels.subscriptions.subscribers(ctx.viewer, channelId, request.query)
        return presentPage(page, (users) => presentUsers(ctx, users))
      })
    },
  },
  {
    method: 'GET',
    path: '/channels/{channel_id}/subscribers/ids',
    svc: { token: 'any', scopes: MESSAGING_SCOPES, answer: 'string[]' },
    options: { validate: { params: channelParams, query: bare } },
    handler: async (request) => {
      const ids = await channels.subscriptions.subscriberIds(viewerOf(request), Number(request.params.channel_id))
      return ok(ids.map(String))
    },
  },
  {
    method: 'GET',
    path: '/channels/subscribers/ids',
    svc: { token: 'any', scopes: MESSAGING_SCOPES, answer: 'object' },
    options: { validate: { query: bare.keys({ ids: idList(200).required() }) } },
    handler: async (request) => {
      const byChannel = await channels.subscriptions.subscriberIdsMany(viewerOf(request), (request.query.ids as string[]).map(Number))
      return ok(Object.fromEntries([...byChannel].map(([id, users]) => [String(id), users.map(String)])))
    },
  },
  {
    method: 'GET',
    path: '/users/me/channels/muted',
    svc: { token: 'user', scopes: MESSAGING_SCOPES, answer: 'Channel[]' },
    options: { validate: { query: channelQuery } },
    handler: async (request) => {
      // This list ignores the channel general parameters: the channels are shown as they are by default.
      const ctx = { ...contextOf(request, shared.views), options: {} }
      return ok(await presentChannels(ctx, await channels.subscriptions.muted(ctx.viewer)))
    },
  },
  ...(
    [
      ['pm', PM_TYPE],
      ['broadcast', BROADCAST_TYPE],
    ] as const
  ).map(([kind, type]): SvcRoute => ({
    method: 'GET',
    path: `/users/me/channels/${kind}/num_unread`,
    svc: { token: 'user', scopes: ['messages'], answer: 'number' },
    options: { validate: { query: bare } },
    handler: async (request) => ok(await channels.inbox.numUnread(viewerOf(request), type)),
  })),
  {
    method: 'DELETE',
    path: '/users/me/channels/broadcast/num_unread',
    svc: { token: 'user', scopes: ['messages'], answer: 'number' },
    options: { validate: { query: bare } },
    handler: async (request) => ok(await channels.inbox.markBroadcastsRead(viewerOf(request))),
  },
]
