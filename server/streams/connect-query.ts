/** The query of a user stream connection: the connection id to resume, `auto_delete`, and the display options. */
import Joi from 'joi'
import type { OpenStreamInput, StreamDisplayOptions } from '../../data/index.js'
import { flag } from '../params.js'

const DISPLAY_OPTIONS = [
  'include_annotations',
  'include_message_annotations',
  'include_channel_annotations',
  'include_user_annotations',
  'include_post_annotations',
  'include_file_annotations',
  'include_starred_by',
  'include_reposters',
  'include_marker',
  'include_recent_message',
  'include_html',
] as const

export const connectQuery = Joi.object({
  access_token: Joi.string().max(200),
  connection_id: Joi.string()
    .max(64)
    .pattern(/^[\w-]+$/),
  auto_delete: flag().default(false),
  ...Object.fromEntries(DISPLAY_OPTIONS.map((name) => [name, flag()])),
})

/** The stream's opening request from a validated connect query. */
export function openInputOf(query: Record<string, unknown>): OpenStreamInput {
  const options: StreamDisplayOptions = {}
  for (const name of DISPLAY_OPTIONS) if (typeof query[name] === 'boolean') options[name] = query[name] as boolean
  return {
    ...(typeof query.connection_id === 'string' ? { connection_id: query.connection_id } : {}),
    auto_delete: query.auto_delete === true,
    options,
  }
}
