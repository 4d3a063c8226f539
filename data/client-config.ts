/**
 * The document that tells clients about svc's limits (`GET /config`), built
 * from the same constants the services enforce, so the two cannot disagree.
 */
import { ANNOTATION_MAX_BYTES, DESCRIPTION_MAX_LENGTH, MESSAGE_MAX_LENGTH, POST_MAX_LENGTH, URI_TEMPLATE_LENGTH } from './limits.js'

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
    post: { annotation_max_bytes: ANNOTATION_MAX_BYTES, text_max_length: POST_MAX_LENGTH },
    message: { annotation_max_bytes: ANNOTATION_MAX_BYTES, text_max_length: MESSAGE_MAX_LENGTH },
    channel: { annotation_max_bytes: ANNOTATION_MAX_BYTES },
  }
}
