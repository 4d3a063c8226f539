import type { Annotation } from './entities.js'

/** `width` and `height` of an image svc could decode. */
export interface ImageInfo {
  width: number
  height: number
}

/** Bytes svc keeps under the files folder: the root content or one derived file. */
export interface StoredContent {
  mime_type: string
  sha1: string
  size: number
  /** The name of the byte file in the files folder (random, never reused). */
  stored: string
  image_info?: ImageInfo
}

/** A derived file: a thumbnail svc made, or one the client uploaded under its own key. */
export interface DerivedFileRow extends StoredContent {
  /** Absent when neither the client nor the root's name gave one. */
  name?: string
}

export type FileKind = 'image' | 'other'

export interface FileRow {
  readonly id: number
  user_id: number
  /** The app whose token created it: the File's `source`. */
  app_id: number
  type: string
  kind: FileKind
  name?: string
  public: boolean
  /** The client chose `kind`; otherwise it follows the mime type of the content. */
  kind_given?: boolean
  /** True once the root content is set; derived files can be added only before. */
  complete: boolean
  /** The root content; absent while incomplete. */
  content?: StoredContent
  /** By derived key (`image_thumb_200s`, a client's own key...). */
  derived: Record<string, DerivedFileRow>
  annotations: Annotation[]
  /** SHA-256 of the write token (`file_token`; see `FileLinks.writeToken`). */
  token_hash: string
  created_at: string
}
