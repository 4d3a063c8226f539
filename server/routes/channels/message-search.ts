/** Message search (App.net's `GET /channels/messages/search`): post search's text and filters over the messages of channels the caller reads. */
import Joi from 'joi'
import type { ChannelServices, MessageSearchInput } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { commonQuery, listParam, messageGeneralQuery, paginationQuery } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentMessages } from '../../present/channels/message.js'
import { presentPage } from '../../present/page.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'
import { searchTextAndFilters } from '../posts/post-search.js'

/** Channel ids (200 at most), or `pm` or `broadcast` alone: the caller's subscribed channels of that type. */
const channelIds = () =>
  listParam().custom((ids: string[], helpers) => {
    if (ids.length === 1 && (ids[0] === 'pm' || ids[0] === 'broadcast')) return ids
    if (ids.length === 0 || ids.length > 200) return helpers.message({ custom: 'channel_ids must list 1 to 200 channel ids, or be pm or broadcast' })
    if (ids.some((s) => !/^\d{1,15}$/.test(s))) return helpers.message({ custom: 'channel_ids must be channel ids, or pm, or broadcast' })
    return ids
  })

const searchQuery = Joi.object({
  ...commonQuery,
  ...messageGeneralQuery,
  ...paginationQuery,
  ...searchTextAndFilters,
  channel_ids: channelIds().required(),
})

export const messageSearchRoutes = (channels: ChannelServices, shared: Shared): SvcRoute[] => [
  {
    method: 'GET',
    path: '/channels/messages/search',
    svc: { token: 'any', answer: 'PaginatedMessage[]' },
    options: { validate: { query: searchQuery } },
    handler: async (request) => {
      const ctx = contextOf(request, shared.views)
      const page = await channels.messageSearch.search(viewerOf(request), request.query as unknown as MessageSearchInput, request.query)
      return presentPage(page, (rows) => presentMessages(ctx, rows))
    },
  },
]
