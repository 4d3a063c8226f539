/**
 * The rules of File metadata: a reversed-domain `type` outside `svc.core`,
 * names up to 255 code points, `kind` given or guessed from the mime type,
 * and derived keys (alphanumeric; `core_*` reserved for svc).
 */
import { CORE_NAMESPACE, isReversedDomain } from '../annotations/annotations.js'
import { invalid } from '../errors.js'
import { FILE_NAME_MAX_LENGTH, FILE_TYPE_MAX_LENGTH } from '../limits.js'
import type { FileKind, FileRow } from '../model/file.js'

const DERIVED_KEY = /^[A-Za-z0-9_]{1,64}$/
const RESERVED_KEY_PREFIX = 'core_'

/** Errors: `invalid` (missing, malformed, or in the reserved namespace). */
export function checkFileType(type: unknown): string {
  if (type === undefined || type === null || type === '') throw invalid('type is required: a reversed-domain name such as com.example.photo')
  if (!isReversedDomain(type, FILE_TYPE_MAX_LENGTH)) throw invalid('type must be a reversed-domain name such as com.example.photo')
  if (`${type}.`.startsWith(CORE_NAMESPACE)) throw invalid('the svc.core namespace of file types is reserved')
  return type
}

/** Errors: `invalid` (not a string, or over 255 code points). */
export function checkFileName(name: unknown): string | undefined {
  if (name === undefined || name === null || name === '') return undefined
  if (typeof name !== 'string') throw invalid('name must be a string')
  if ([...name].length > FILE_NAME_MAX_LENGTH) throw invalid(`name must be at most ${FILE_NAME_MAX_LENGTH} characters`)
  return name
}

/** Errors: `invalid` (other than `image` or `other`). */
export function checkKind(kind: unknown): FileKind | undefined {
  if (kind === undefined || kind === null || kind === '') return undefined
  if (kind !== 'image' && kind !== 'other') throw invalid('kind must be image or other')
  return kind
}

export const guessKind = (mime: string | undefined): FileKind => (mime?.toLowerCase().startsWith('image/') ? 'image' : 'other')

/** A derived key a client may upload under. Errors: `invalid` (malformed or reserved). */
export function checkDerivedKey(key: string): string {
  if (!DERIVED_KEY.test(key)) throw invalid(`derived file key ${JSON.stringify(key)} must be alphanumeric`)
  if (key.startsWith(RESERVED_KEY_PREFIX)) throw invalid(`derived file keys starting with ${RESERVED_KEY_PREFIX} are reserved`)
  return key
}

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
