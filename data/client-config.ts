/**
 * The text and annotation limits svc enforces, and the document that tells
 * clients about them (`GET /config`), so the two cannot disagree.
 */
import { ANNOTATION_MAX_BYTES } from './annotations/annotations.js'
import { MESSAGE_MAX_LENGTH } from './channels/messages.js'

/** Longest post text, in code points (anti-phishing additions excluded). */
export const POST_TEXT_MAX_LENGTH = 256
/** Longest user description, in code points. */
export const DESCRIPTION_MAX_LENGTH = 256
/** How long clients should assume each URI template variable becomes when counting. */
export const URI_TEMPLATE_LENGTH = { post_id: 9, message_id: 12 } as const

export interface ClientConfig {
  text: { uri_template_length: { post_id: number; message_id: number } }
  user: { annotation_max_bytes: number; text_max_length: number }
  file: { annotation_max_bytes: number }
  post: { annotation_max_bytes: number; text_max_length: number }
  message: { annotation_max_bytes: number; text_max_length: number }
  channel: { annotation_max_bytes: number }
}

/** The configuration document of `GET /config`: limits per object type, in the original API's shape. */
export function clientConfig(): ClientConfig {
  return {
    text: { uri_template_length: { ...URI_TEMPLATE_LENGTH } },
    user: { annotation_max_bytes: ANNOTATION_MAX_BYTES, text_max_length: DESCRIPTION_MAX_LENGTH },
    file: { annotation_max_bytes: ANNOTATION_MAX_BYTES },
    post: { annotation_max_bytes: ANNOTATION_MAX_BYTES, text_max_length: POST_TEXT_MAX_LENGTH },
    message: { annotation_max_bytes: ANNOTATION_MAX_BYTES, text_max_length: MESSAGE_MAX_LENGTH },
    channel: { annotation_max_bytes: ANNOTATION_MAX_BYTES },
  }
}
