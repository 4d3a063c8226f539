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
  /** Set on a copy svc keeps of another server's media (a remote post's attachment): where it was fetched from. */
  remote?: { url: string }
}

// Derived facts of a row, computed once here for everything that shows them: the File presenter and the annotations' file metadata.
const EXT_BY_MIME: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'text/plain': 'txt' }

/** The name a derived file shows: its own, or `<root name without ext>_<key>.<ext>` when the root has a name. */
export function derivedName(file: FileRow, key: string): string | undefined {
  const derived = file.derived[key]
  if (!derived) return undefined
  if (derived.name) return derived.name
  if (!file.name) return undefined
  const dot = file.name.lastIndexOf('.')
  const base = dot > 0 ? file.name.slice(0, dot) : file.name
  const ext = EXT_BY_MIME[derived.mime_type] ?? (dot > 0 ? file.name.slice(dot + 1) : undefined)
  return ext ? `${base}_${key}.${ext}` : `${base}_${key}`
}

/** Bytes of the root and every derived file. */
export const totalSize = (file: FileRow): number => (file.content?.size ?? 0) + Object.values(file.derived).reduce((sum, d) => sum + d.size, 0)
