/** Joi schemas shared by many routes: user references, 0/1 flags, pagination, general parameters. */
import Joi from 'joi'
import { REMOTE_HANDLE_PATTERN } from '../data/index.js'

/** A boolean query flag written `0`/`1` (also `true`/`false`). */
export const flag = () => Joi.boolean().truthy('1', 1).falsy('0', 0)

/** A user reference in a path: numeric id, `me`, `@username` or a remote account's `@name@authority`. */
export const userRef = () =>
  Joi.string()
    .pattern(new RegExp(`^(me|@\\w{1,20}|\\d{1,15})$|${REMOTE_HANDLE_PATTERN.source}`, 'i'))
    .messages({ 'string.pattern.base': '{{#label}} must be a user id, "me", @username or @name@server' })

/** A resource id in a path. */
export const idParam = () =>
  Joi.string()
    .pattern(/^\d{1,15}$/)
    .messages({ 'string.pattern.base': '{{#label}} must be a numeric id' })

export const paginationQuery = {
  since_id: Joi.string().pattern(/^(\d{1,15}|last_read|last_read_inclusive|marker|marker_inclusive)$/),
  before_id: Joi.string().pattern(/^(\d{1,15}|last_read|last_read_inclusive|marker|marker_inclusive)$/),
  // At most 200 either way; the original API never said what larger counts did, so they are capped rather than refused.
  count: Joi.number()
    .integer()
    .default(20)
    .custom((n: number) => Math.max(-200, Math.min(200, n))),
}

export const userGeneralQuery = {
  include_annotations: flag().default(false),
  include_user_annotations: flag().default(false),
  include_html: flag().default(true),
}

/**
 * Post general parameters. The filter flags have no default here: each stream
 * has its own (`include_directed_posts` is 0 on my stream only, `include_muted`
 * is 1 on explicit requests for a user), so the domain fills them in.
 */
export const postGeneralQuery = {
  ...userGeneralQuery,
  include_post_annotations: flag().default(false),
  include_starred_by: flag().default(false),
  include_reposters: flag().default(false),
  include_deleted: flag(),
  include_directed_posts: flag(),
  include_machine: flag(),
  include_muted: flag(),
}

/** User-given entities on post and message creation (`links`, `mentions`, parse flags); the text pipeline checks the rest. */
export const entitiesInput = () =>
  Joi.object({
    links: Joi.array()
      .max(100)
      .items(
        Joi.object({
          pos: Joi.number().integer().min(0).required(),
          len: Joi.number().integer().min(1).required(),
          url: Joi.string().max(2000).required(),
          text: Joi.string().allow(''),
          process_template: Joi.boolean(),
        }).unknown(true),
      ),
    mentions: Joi.array()
      .max(10)
      .items(
        Joi.object({ name: Joi.string().max(21), id: Joi.alternatives(idParam(), Joi.number().integer().min(1)) })
          .xor('name', 'id')
          .unknown(true),
      ),
    hashtags: Joi.array(),
    parse_links: flag(),
    parse_markdown_links: flag(),
  }).unknown(true)

/**
 * A list-valued query parameter as its values: comma separated (`ids=1,2`),
 * the key repeated (`ids=1&ids=2`, which client libraries of the original API
 * send for a list and hapi hands over as an array), or both (`ids=1,2&ids=3`).
 */
export const listParam = (value: Joi.StringSchema = Joi.string(), separator: string | RegExp = ',') =>
  Joi.array()
    .items(value)
    .single()
    .custom((values: string[]) =>
      values
        .flatMap((value) => value.split(separator))
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    )

/** A list of channel types (`channel_types=svc.core.pm,com.example.chat`). */
export const channelTypeList = () => listParam(Joi.string().max(2000))

/** Message general parameters; the filter flags keep their list defaults in the domain. */
export const messageGeneralQuery = {
  ...userGeneralQuery,
  include_message_annotations: flag().default(false),
  include_deleted: flag().default(true),
  include_machine: flag().default(false),
  include_muted: flag().default(false),
}

/** Channel general parameters (they embed users and recent messages, so those parameters too). */
export const channelGeneralQuery = {
  ...messageGeneralQuery,
  include_inactive: flag().default(false),
  include_recent_message: flag().default(false),
  include_marker: flag().default(false),
  include_read: flag().default(true),
  include_channel_annotations: flag().default(false),
  channel_types: channelTypeList(),
}

/** Query keys every route tolerates: token, JSONP callback, user-stream subscription. */
export const commonQuery = {
  access_token: Joi.string(),
  callback: Joi.string().max(100),
  // jQuery adds `_=<timestamp>` to every JSONP call to defeat caches.
  _: Joi.string().max(100),
  connection_id: Joi.string().max(64),
  subscription_id: Joi.string().max(64),
}

/** An id list (`ids=1,2,@bob`), at most `max` entries counted over every repeat of the key. */
export const idList = (max = 200, pattern = /^\d{1,15}$/) =>
  listParam().custom((ids: string[], helpers) => {
    if (ids.length > max) return helpers.message({ custom: `at most ${max} ids are allowed` })
    if (ids.some((s) => !pattern.test(s))) return helpers.message({ custom: 'ids must be a comma separated list of ids' })
    return ids
  })
