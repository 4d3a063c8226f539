/** Messages: send (to a channel or `pm`), delete, retrieve one, many, a channel's and the user's own. */
import Joi from 'joi'
import { MESSAGING_SCOPES, type MessageFilter, type ChannelServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, entitiesInput, flag, idList, idParam, messageGeneralQuery, paginationQuery, userRef } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentMarker } from '../../present/channels/marker.js'
import { presentMessage, presentMessages } from '../../present/channels/message.js'
import { presentPage } from '../../present/page.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'
import { answerSubscribing } from '../../streams/subscribe.js'

const messageQuery = Joi.object({ ...commonQuery, ...messageGeneralQuery })
const listQuery = messageQuery.keys(paginationQuery)
const channelParams = Joi.object({ channel_id: idParam().required() })
const messageParams = Joi.object({ channel_id: idParam().required(), message_id: idParam().required() })

/** Only these keys of a message body are read; others are ignored. */
const createPayload = Joi.object({
  text: Joi.string().allow('').max(20000),
  reply_to: Joi.alternatives(idParam(), Joi.number().integer().min(1)),
  machine_only: flag(),
  annotations: Joi.array().max(100).items(Joi.object().unknown(true)),
  entities: entitiesInput(),
  destinations: Joi.array()
    .max(1000)
    .items(Joi.alternatives(userRef(), Joi.number().integer().min(1))),
}).unknown(true)

const filterOf = (query: Record<string, unknown>): MessageFilter => ({
  include_deleted: query.include_deleted as boolean,
  include_machine: query.include_machine as boolean,
  include_muted: query.include_muted as boolean,
})

export const messageRoutes = (channels: ChannelServices, shared: Shared): SvcRoute[] => [
  {
    method: 'POST',
    path: '/channels/{channel_id}/messages',
    svc: { token: 'user', scopes: MESSAGING_SCOPES, answer: 'Message' },
    options: {
      validate: {
        params: Joi.object({ channel_id: Joi.alternatives(idParam(), Joi.string().valid('pm')).required() }),
        query: messageQuery,
        payload: createPayload,
      },
    },
    handler: async (request) => {
      const { text, reply_to, machine_only, annotations, entities, destinations } = request.payload as Record<string, never>
      const input = { text, reply_to, machine_only, annotations, entities }
      const viewer = viewerOf(request)
      const { channel_id } = request.params
      const message =
        channel_id === 'pm' ? (await channels.pm.send(viewer, destinations, input)).message : await channels.messages.create(viewer, Number(channel_id), input)
      return ok(await presentMessage(contextOf(request, shared.views), message))
    },
  },
  {
    method: 'DELETE',
    path: '/channels/{channel_id}/messages/{message_id}',
    svc: { token: 'user', scopes: MESSAGING_SCOPES, answer: 'Message' },
    options: { validate: { params: messageParams, query: messageQuery } },
    handler: async (request) => {
      const message = await channels.messages.delete(viewerOf(request), Number(request.params.channel_id), Number(request.params.message_id))
      return ok(await presentMessage(contextOf(request, shared.views), message))
    },
  },
  {
    method: 'GET',
    path: '/channels/{channel_id}/messages/{message_id}',
    svc: { token: 'any', answer: 'Message' },
    options: { validate: { params: messageParams, query: messageQuery } },
    handler: async (request) => {
      const message = await channels.messages.get(viewerOf(request), Number(request.params.channel_id), Number(request.params.message_id))
      return ok(await presentMessage(contextOf(request, shared.views), message))
    },
  },
  {
    method: 'GET',
    path: '/channels/{channel_id}/messages',
    svc: { token: 'user', scopes: MESSAGING_SCOPES, answer: 'PaginatedMessage[]' },
    options: { validate: { params: channelParams, query: listQuery } },
    handler: async (request) => {
      const ctx = contextOf(request, shared.views)
      const channelId = Number(request.params.channel_id)
      return answerSubscribing(request, shared.userStreams, { endpoint: 'channels/messages', target: channelId }, async () => {
        const { page, marker, marker_name } = await channels.messages.inChannel(ctx.viewer, channelId, request.query, filterOf(request.query))
        return presentPage(page, (rows) => presentMessages(ctx, rows), { marker: presentMarker(marker_name, marker) })
      })
    },
  },
  {
    method: 'GET',
    path: '/channels/messages',
    svc: { token: 'any', answer: 'Message[]' },
    options: { validate: { query: messageQuery.keys({ ids: idList(200).required() }) } },
    handler: async (request) => {
      const messages = await channels.messages.getMany(viewerOf(request), (request.query.ids as string[]).map(Number))
      return ok(await presentMessages(contextOf(request, shared.views), messages))
    },
  },
  {
    method: 'GET',
    path: '/users/me/messages',
    svc: { token: 'user', scopes: MESSAGING_SCOPES, answer: 'PaginatedMessage[]' },
    options: { validate: { query: listQuery } },
    handler: async (request) => {
      const ctx = contextOf(request, shared.views)
      const page = await channels.messages.mine(ctx.viewer, request.query, filterOf(request.query))
      return presentPage(page, (rows) => presentMessages(ctx, rows))
    },
  },
]
