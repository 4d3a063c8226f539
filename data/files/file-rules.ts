/**
 * The rules of File metadata: a reversed-domain `type` outside `svc.core`,
 * names up to 255 code points, `kind` given or guessed from the mime type,
 * and derived keys (alphanumeric; `core_*` reserved for svc). A derived
 * file's shown name and a File's total size are facts of the row
 * (model/file.ts).
 */
import { CORE_NAMESPACE, isReversedDomain } from '../annotations/annotations.js'
import { invalid } from '../errors.js'
import { FILE_NAME_MAX_LENGTH, FILE_TYPE_MAX_LENGTH } from '../limits.js'
import type { FileKind } from '../model/file.js'

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
