/** Post search: free text and App.net's filters over public posts, by id or by relevance. */
import Joi from 'joi'
import { PostSearchInput, type PostServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { commonQuery, flag, listParam, paginationQuery, postGeneralQuery } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentPage } from '../../present/page.js'
import { presentPosts } from '../../present/posts/post.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'

/** A space (or comma) separated list, as App.net's search filters were written, or the key repeated. */
const wordList = (max = 20) =>
  listParam(Joi.string().max(2000), /[\s,]+/).custom((words: string[], helpers) => {
    if (words.length === 0 || words.length > max) return helpers.message({ custom: `{{#label}} must list 1 to ${max} values` })
    return words
  })

const id = () => Joi.number().integer().min(1).max(999_999_999_999_999)

/** Free text, order and the filters post search and message search share (message search has no crosspost filters). */
export const searchTextAndFilters = {
  index: Joi.string().valid('complete'),
  order: Joi.string().valid('id', 'score').default('id'),
  query: Joi.string().max(1000),
  text: Joi.string().max(1000),
  hashtags: wordList(),
  links: wordList(),
  link_domains: wordList(),
  mentions: wordList(),
  leading_mentions: wordList(),
  annotation_types: wordList(),
  attachment_types: wordList(),
  place_id: Joi.string().max(100),
  language: Joi.string().pattern(/^[a-z]{2}$/),
  client_id: Joi.string().max(100),
  creator_id: id(),
  reply_to: id(),
  thread_id: id(),
  ...Object.fromEntries(
    [
      'is_reply',
      'is_directed',
      'has_location',
      'has_checkin',
      'has_attachment',
      'has_oembed_photo',
      'has_oembed_video',
      'has_oembed_html5video',
      'has_oembed_rich',
    ].map((k) => [k, flag()]),
  ),
}

const searchQuery = Joi.object({
  ...commonQuery,
  ...postGeneralQuery,
  ...paginationQuery,
  ...searchTextAndFilters,
  crosspost_url: Joi.string().max(2000),
  crosspost_domain: Joi.string().max(255),
  is_crosspost: flag(),
})

export const postSearchRoutes = (posts: PostServices, shared: Shared): SvcRoute[] => [
  {
    method: 'GET',
    path: '/posts/search',
    svc: { token: 'any', answer: 'PaginatedPost[]' },
    options: { validate: { query: searchQuery } },
    handler: async (request) => {
      const ctx = contextOf(request, shared.views)
      const page = await posts.search.search(viewerOf(request), request.query as PostSearchInput, request.query)
      return presentPage(page, (rows) => presentPosts(ctx, rows))
    },
  },
]
