/** The configuration document of `GET /config`: limits per object type, in the original API's shape. */
export interface Config {
  text: { uri_template_length: { post_id: number; message_id: number } }
  user: { annotation_max_bytes: number; text_max_length: number }
  file: { annotation_max_bytes: number }
  post: { annotation_max_bytes: number; text_max_length: number }
  message: { annotation_max_bytes: number; text_max_length: number }
  channel: { annotation_max_bytes: number }
}
