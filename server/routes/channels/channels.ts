/** Channels: create, retrieve one or many, the inbox, edit, deactivate, the user's own channels. */
import Joi from 'joi'
import { MESSAGING_SCOPES, type ChannelFilter, type ChannelServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { channelGeneralQuery, commonQuery, flag, idList, idParam, listParam, paginationQuery, userRef } from '../../params.js'
import { presentChannel, presentChannels } from '../../present/channels/channel.js'
import { contextOf } from '../../present/context.js'
import { presentPage } from '../../present/page.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'
import { answerSubscribing } from '../../streams/subscribe.js'

const aclInput = Joi.object({
  any_user: flag(),
  immutable: flag(),
  public: flag(),
  user_ids: Joi.array()
    .max(100_000)
    .items(Joi.alternatives(userRef(), Joi.number().integer().min(1))),
}).unknown(true)

const annotations = Joi.array()
  .max(100)
  .items(Joi.object({ type: Joi.string().max(255).required(), value: Joi.object().unknown(true).required() }).unknown(true))
/** On update a type sent without a value (or with null) removes that annotation. */
const annotationChanges = Joi.array()
  .max(100)
  .items(Joi.object({ type: Joi.string().max(255).required(), value: Joi.object().unknown(true).allow(null) }).unknown(true))

/** Only these keys are read; the rest of a channel object sent back (id, counts, ...) is ignored. */
const createPayload = Joi.object({
  type: Joi.string().max(255).required(),
  readers: aclInput,
  writers: aclInput,
  editors: aclInput,
  annotations,
  auto_subscribe: Joi.boolean(),
}).unknown(true)
const updatePayload = Joi.object({ readers: aclInput, writers: aclInput, annotations: annotationChanges, auto_subscribe: Joi.boolean() }).unknown(true)

export const channelQuery = Joi.object({ ...commonQuery, ...channelGeneralQuery })
export const channelListQuery = channelQuery.keys(paginationQuery)
export const channelParams = Joi.object({ channel_id: idParam().required() })

/** The list filters among the channel general parameters of a validated query. */
export const channelFilterOf = (query: Record<string, unknown>): ChannelFilter => ({
  include_inactive: query.include_inactive as boolean,
  include_read: query.include_read as boolean,
  channel_types: query.channel_types as string[] | undefined,
})

export const channelRoutes = (channels: ChannelServices, shared: Shared): SvcRoute[] => [
  {
    method: 'POST',
    path: '/channels',
    svc: { token: 'user', scopes: MESSAGING_SCOPES, answer: 'Channel' },
    options: { validate: { query: channelQuery, payload: createPayload } },
    handler: async (request) => {
      const { type, readers, writers, editors, annotations, auto_subscribe } = request.payload as Record<string, never>
      const channel = await channels.core.create(viewerOf(request), { type, readers, writers, editors, annotations, auto_subscribe })
      return ok(await presentChannel(contextOf(request, shared.views), channel))
    },
  },
  {
    method: 'GET',
    path: '/channels/{channel_id}',
    // As App.net had it: a channel whose readers are public is read without a token too.
    svc: { token: 'varies', scopes: MESSAGING_SCOPES, answer: 'Channel' },
    options: { validate: { params: channelParams, query: channelQuery } },
    handler: async (request) => {
      const channel = await channels.core.get(viewerOf(request), Number(request.params.channel_id))
      return ok(await presentChannel(contextOf(request, shared.views), channel))
    },
  },
  {
    // With `ids`: those channels (asked by id, so inactive ones too); without: the user's inbox.
    method: 'GET',
    path: '/channels',
    svc: { token: 'any', answer: ['Channel[]', 'PaginatedChannel[]'] },
    options: { validate: { query: channelListQuery.keys({ ids: idList(200) }) } },
    handler: async (request) => {
      const ctx = contextOf(request, shared.views)
      const ids = request.query.ids as string[] | undefined
      if (ids) return ok(await presentChannels(ctx, await channels.core.getMany(ctx.viewer, ids.map(Number))))
      return answerSubscribing(request, shared.userStreams, { endpoint: 'channels', scopes: MESSAGING_SCOPES }, async () => {
        const inbox = await channels.inbox.inbox(ctx.viewer, request.query, channelFilterOf(request.query))
        return presentPage(inbox.page, (rows) => presentChannels(ctx, rows), { unread_counts: inbox.unread_counts })
      })
    },
  },
  ...(['PUT', 'PATCH'] as const).map((method): SvcRoute => ({
    method,
    path: '/channels/{channel_id}',
    svc: { token: 'user', scopes: MESSAGING_SCOPES, answer: 'Channel' },
    options: { validate: { params: channelParams, query: channelQuery, payload: updatePayload } },
    handler: async (request) => {
      const { readers, writers, annotations, auto_subscribe } = request.payload as Record<string, never>
      const channel = await channels.core.update(viewerOf(request), Number(request.params.channel_id), { readers, writers, annotations, auto_subscribe })
      return ok(await presentChannel(contextOf(request, shared.views), channel))
    },
  })),
  {
    method: 'DELETE',
    path: '/channels/{channel_id}',
    svc: { token: 'user', answer: 'Channel' },
    options: { validate: { params: channelParams, query: channelQuery } },
    handler: async (request) => {
      const channel = await channels.core.deactivate(viewerOf(request), Number(request.params.channel_id))
      return ok(await presentChannel(contextOf(request, shared.views), channel))
    },
  },
  {
    method: 'GET',
    path: '/users/me/channels',
    svc: { token: 'user', scopes: MESSAGING_SCOPES, answer: 'PaginatedChannel[]' },
    options: { validate: { query: channelListQuery } },
    handler: async (request) => {
      const ctx = contextOf(request, shared.views)
      const page = await channels.core.owned(ctx.viewer, request.query, channelFilterOf(request.query))
      return presentPage(page, (rows) => presentChannels(ctx, rows))
    },
  },
  {
    method: 'GET',
    path: '/channels/search',
    svc: { token: 'user', scopes: MESSAGING_SCOPES, answer: 'PaginatedChannel[]' },
    options: {
      validate: {
        query: channelListQuery.keys({
          q: Joi.string().max(256).allow(''),
          order: Joi.string().valid('popularity', 'id', 'activity').default('popularity'),
          type: Joi.string().max(255),
          creator_id: idParam(),
          tags: listParam(Joi.string().max(1000)),
          is_private: flag(),
          is_public: flag(),
        }),
      },
    },
    handler: async (request) => {
      const ctx = contextOf(request, shared.views)
      const { q, order, type, creator_id, tags, is_private, is_public } = request.query as Record<string, never>
      const search = {
        q,
        order,
        type,
        creator_id: creator_id === undefined ? undefined : Number(creator_id),
        tags,
        is_private,
        is_public,
      }
      const page = await channels.search.search(ctx.viewer, search, request.query, channelFilterOf(request.query))
      return presentPage(page, (rows) => presentChannels(ctx, rows))
    },
  },
]
