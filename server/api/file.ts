/** The API's File object (spec: File). */
import type { Annotation } from './annotation.js'
import type { Source } from './source.js'
import type { User } from './user.js'

export type FileKind = 'image' | 'other'

/** Of an image svc could decode. */
export interface ImageInfo {
  width: number
  height: number
}

/** A derived file (a thumbnail, or a client's own key), by its key in `derived_files`. */
export interface DerivedFile {
  /** Left out when neither the client nor the root's name gave one. */
  name?: string
  mime_type: string
  sha1: string
  size: number
  /** Signed and time-limited; only once the root is complete. */
  url?: string
  url_expires?: string
  image_info?: ImageInfo
}

export interface File {
  id: string
  /** Only when asked for (`include_annotations`, `include_file_annotations`). */
  annotations?: Annotation[]
  complete: boolean
  created_at: string
  derived_files: Record<string, DerivedFile>
  /** The write token: at creation, or echoed to the call that used it; never in a stream. */
  file_token?: string
  /** The read token: of a public file, or the one the call used; never in a stream. */
  file_token_read?: string
  image_info?: ImageInfo
  kind: FileKind
  /** `mime_type`, `sha1` and `size` describe the content: left out while the file is incomplete. */
  mime_type?: string
  name?: string
  public: boolean
  sha1?: string
  size?: number
  total_size: number
  source: Source
  type: string
  /** Signed and time-limited, while there is content to read. */
  url?: string
  url_expires?: string
  /** Only for a public, complete file. */
  url_permanent?: string
  url_short?: string
  /** Left out when the creator's account is gone. */
  user?: User
}
