/** What an avatar or a cover may be, and how large a served variant may get. */
import { invalid, type DomainError } from '../errors.js'
import { IMAGE_UPLOAD_LIMITS } from '../limits.js'
import type { StoredImage, UserRow } from '../model/user.js'

export type ImageKind = 'avatar' | 'cover'

export const IMAGE_KINDS: readonly ImageKind[] = ['avatar', 'cover']

/** Where a remote account's row keeps its server's address of its image of each kind. */
export const REMOTE_IMAGE_SOURCE = { avatar: 'avatar_url', cover: 'cover_url' } as const

const MB = 1024 * 1024

const LABEL: Record<ImageKind, string> = { avatar: 'Avatar', cover: 'Cover image' }

/** The error for an upload of `kind` that is not a usable image; `problem` finishes the sentence. */
export const badImage = (kind: ImageKind, problem: string): DomainError => invalid(`${LABEL[kind]} ${problem}`)

/** The error for an upload over its kind's size limit, whether svc or the HTTP layer notices first. */
export const imageTooLarge = (kind: ImageKind): DomainError => badImage(kind, `must be smaller than ${IMAGE_UPLOAD_LIMITS[kind].maxBytes / MB} MB`)

/** The image shown until a user uploads one; the files are generated, never stored. */
export const DEFAULT_IMAGES: Readonly<Record<ImageKind, StoredImage>> = {
  avatar: { file: 'default-avatar.png', width: 200, height: 200, mime: 'image/png' },
  cover: { file: 'default-cover.png', width: 960, height: 260, mime: 'image/png' },
}

/** A user's current avatar or cover, the default one when none was uploaded. */
export const imageOf = (user: UserRow, kind: ImageKind): StoredImage & { is_default: boolean } => {
  const stored = user[kind]
  return stored ? { ...stored, is_default: false } : { ...DEFAULT_IMAGES[kind], is_default: true }
}
