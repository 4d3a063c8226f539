/**
 * Replacement values: keys such as `+svc.core.file` inside an annotation's
 * value that svc resolves at write time into the object they name, so what
 * is stored is the answer, never the request (write tokens stay out of it).
 * One resolver per key.
 *
 * What depends on who reads it or when is stored as sealed marks and filled
 * in when the annotations are shown (rendering.ts): svc's base URL
 * (`BASE_URL_MARK`), a file's read token (bound to the object showing it)
 * and its signed content URLs and expiries.
 */
import type { FileLinks } from '../security/file-links.js'
import type { Annotation } from '../model/entities.js'
import { derivedName, totalSize, type FileRow } from '../model/file.js'
import type { Store } from '../store/port.js'
import { imageOf } from '../images/image-rules.js'
import type { UserRow } from '../model/user.js'
import { anonymous, type Viewer } from '../viewer.js'
import { hashSecret } from '../security/secrets.js'
import { isObject, type AnnotationValue } from './core-types.js'
import { AnnotationRenderer } from './rendering.js'
import type { Place } from '../model/place.js'
import { placeValue } from '../places/place-value.js'

export interface ReplaceContext {
  /** The user writing the annotations: only their files can be attached. */
  userId: number
  /** Is the object carrying the annotations readable by anyone (permanent URLs) or not (short-lived ones)? */
  publicParent: boolean
  /** The annotation type the replacement value sits in. */
  type: string
}

/** Resolves one replacement value: the keys merged into the annotation's value in its place. */
export type Resolver = (r: AnnotationReplacer, ctx: ReplaceContext, given: unknown) => Promise<AnnotationValue>

const OEMBED = 'svc.core.oembed'
/** What a caller may set over an oEmbed svc renders from a file. */
const OEMBED_OVERRIDABLE = ['provider_name', 'provider_url', 'embeddable_url']

const fileResolver: Resolver = async (r, ctx, given) => {
  if (!isObject(given)) return {}
  const format = given.format
  const file = await r.attachable(ctx.userId, given.file_id, given.file_token)
  // Not granted: nothing about the file, not even whether it exists.
  if (!file) return {}
  if (format === 'url') return r.urlOf(file, ctx.publicParent)
  if (format === 'metadata') return r.metadataOf(file)
  if (format === 'oembed' && ctx.type === OEMBED) return r.oembedOf(file, ctx.publicParent)
  return {}
}

const userResolver: Resolver = async (r, ctx, given) => {
  if (!isObject(given) || (given.format !== 'basic' && given.format !== 'full')) return {}
  const user = await r.userOf(ctx.userId, given.user_id)
  return user ? r.userFields(user, given.format) : {}
}

/** Finds the user a reference (an id or `@username`) names, as a viewer may see them (the users service). */
export interface UserLookup {
  find(ref: string | number, viewer: Viewer): Promise<UserRow | null>
}

/** Finds a place by id (the places service). */
export interface PlaceLookup {
  find(id: string): Promise<Place | null>
}

// `{factual_id}` (App.net's name) or `{vendor_id}` (the spec's): the whole place merged in, as its kept duplicate when it is one.
const placeResolver: Resolver = async (r, _ctx, given) => {
  if (!isObject(given)) return {}
  const id = given.factual_id ?? given.vendor_id
  const place = typeof id === 'string' && id.length <= 100 ? await r.placeOf(id) : null
  return place ? placeValue(place) : {}
}

/** The resolvers by key. */
export const RESOLVERS: Readonly<Record<string, Resolver>> = {
  '+svc.core.user': userResolver,
  '+svc.core.file': fileResolver,
  '+svc.core.place': placeResolver,
  '+svc.core.file_list': async (r, ctx, given) => ({
    'svc.core.file_list': Array.isArray(given) ? await Promise.all(given.slice(0, 100).map((g) => fileResolver(r, ctx, g))) : [],
  }),
}

export class AnnotationReplacer {
  private readonly marks: AnnotationRenderer

  constructor(
    private readonly store: Store,
    links: FileLinks,
    private readonly users: UserLookup,
    private readonly places: PlaceLookup | null = null,
    private readonly resolvers: Readonly<Record<string, Resolver>> = RESOLVERS,
  ) {
    this.marks = new AnnotationRenderer(links)
  }

  /**
   * `input` (annotations as a client sent them) with the replacement values
   * at the top of each value resolved. Anything that is not a list of
   * annotations is answered unchanged for the annotation checks to refuse.
   */
  async replace(input: unknown, ctx: Omit<ReplaceContext, 'type'>): Promise<unknown> {
    if (!Array.isArray(input)) return input
    return Promise.all(input.map((a: unknown) => this.replaceOne(a, ctx)))
  }

  private async replaceOne(a: unknown, ctx: Omit<ReplaceContext, 'type'>): Promise<unknown> {
    if (!isObject(a) || !isObject(a.value) || typeof a.type !== 'string') return a
    const keys = Object.keys(a.value).filter((k) => this.resolvers[k])
    if (keys.length === 0) return a
    const rest: AnnotationValue = Object.fromEntries(Object.entries(a.value).filter(([k]) => !this.resolvers[k]))
    let value: AnnotationValue = { ...rest }
    for (const k of keys) value = { ...value, ...(await this.resolvers[k](this, { ...ctx, type: a.type }, a.value[k])) }
    if (a.type === OEMBED) for (const k of OEMBED_OVERRIDABLE) if (k in rest) value[k] = rest[k]
    return { type: a.type, value } satisfies Annotation
  }

  /** The place `id` names (or the one kept in its stead); null when unknown or when no places are wired. */
  async placeOf(id: string): Promise<Place | null> {
    return this.places ? this.places.find(id) : null
  }

  /** The file `id` when `token` is its write token and `userId` owns it; otherwise null. */
  async attachable(userId: number, id: unknown, token: unknown): Promise<FileRow | null> {
    const n = typeof id === 'number' ? id : typeof id === 'string' && /^\d{1,15}$/.test(id) ? Number(id) : NaN
    if (!Number.isSafeInteger(n) || typeof token !== 'string' || token.length > 200) return null
    const file = await this.store.read.files.get(n)
    if (!file || file.user_id !== userId || !file.complete || hashSecret(token) !== file.token_hash) return null
    return file
  }

  /** The user `ref` (an id, `me` for `userId`, or `@username`) names; null when unknown or malformed. */
  async userOf(userId: number, ref: unknown): Promise<UserRow | null> {
    if (typeof ref !== 'string' && typeof ref !== 'number') return null
    try {
      return await this.users.find(ref === 'me' ? userId : ref, anonymous)
    } catch {
      return null
    }
  }

  /**
   * `basic`: id, username, name and avatar_image. `full`: the User as it
   * stood when the annotation was written, without what depends on who reads
   * it (relation, counts, html).
   */
  userFields(user: UserRow, format: 'basic' | 'full'): AnnotationValue {
    const image = (kind: 'avatar' | 'cover') => {
      const { width, height, is_default, file } = imageOf(user, kind)
      return { width, height, is_default, url: this.marks.baseMark(`/images/${file}`) }
    }
    const basic = { id: String(user.id), username: user.username, name: user.name, avatar_image: image('avatar') }
    if (format === 'basic') return basic
    return {
      ...basic,
      description: { text: user.description.text, entities: user.description.entities },
      timezone: user.timezone,
      locale: user.locale,
      cover_image: image('cover'),
      type: user.type,
      created_at: user.created_at,
      canonical_url: this.marks.baseMark(`/@${user.username}`),
      ...(user.verified_domain ? { verified_domain: user.verified_domain } : {}),
    }
  }

  private signedUrl(file: FileRow, key?: string): { url: string; expires: string } | null {
    return this.marks.contentMarks(file, key)
  }

  private permanentUrl(file: FileRow): string {
    return this.marks.permanentMark(file)
  }

  private granted(file: FileRow): AnnotationValue {
    return { file_id: String(file.id), file_token_read: this.marks.tokenMark(file) }
  }

  /** `format: url`: a permanent address when the parent is public and the file too, else a short-lived one. */
  urlOf(file: FileRow, publicParent: boolean): AnnotationValue {
    const signed = this.signedUrl(file)
    if (publicParent && file.public) return { ...this.granted(file), url: this.permanentUrl(file) }
    return { ...this.granted(file), ...(signed ? { url: signed.url, url_expires: signed.expires } : {}) }
  }

  /** `format: metadata`: the File as the API shows it, without `annotations`, `source` and `user`. */
  metadataOf(file: FileRow): AnnotationValue {
    const out: AnnotationValue = { ...this.granted(file), id: String(file.id), complete: file.complete, created_at: file.created_at }
    out.derived_files = Object.fromEntries(
      Object.entries(file.derived).map(([key, d]) => {
        const name = derivedName(file, key)
        const signed = this.signedUrl(file, key)
        const entry: AnnotationValue = { ...(name === undefined ? {} : { name }), mime_type: d.mime_type, sha1: d.sha1, size: d.size }
        if (signed) Object.assign(entry, { url: signed.url, url_expires: signed.expires })
        if (d.image_info) entry.image_info = d.image_info
        return [key, entry]
      }),
    )
    if (file.content?.image_info) out.image_info = file.content.image_info
    out.kind = file.kind
    if (file.content) Object.assign(out, { mime_type: file.content.mime_type, sha1: file.content.sha1, size: file.content.size })
    if (file.name !== undefined) out.name = file.name
    Object.assign(out, { public: file.public, total_size: totalSize(file), type: file.type })
    const signed = this.signedUrl(file)
    if (signed) Object.assign(out, { url: signed.url, url_expires: signed.expires })
    if (file.public) out.url_permanent = this.permanentUrl(file)
    return out
  }

  /** `format: oembed`: a photo for images (thumbnails from the 200px and 960px ones), a link otherwise. */
  oembedOf(file: FileRow, publicParent: boolean): AnnotationValue {
    const image = file.kind === 'image' ? file.content?.image_info : undefined
    const { url, url_expires } = this.urlOf(file, publicParent)
    const out: AnnotationValue = { version: '1.0', type: image ? 'photo' : 'link', width: image?.width ?? 0, height: image?.height ?? 0, url }
    if (url_expires) out.url_expires = url_expires
    const thumb = (key: string, prefix: string): void => {
      const d = file.derived[key]
      const signed = d?.image_info ? this.signedUrl(file, key) : null
      if (!d?.image_info || !signed) return
      Object.assign(out, { [`${prefix}_url`]: signed.url, [`${prefix}_width`]: d.image_info.width, [`${prefix}_height`]: d.image_info.height })
    }
    thumb('image_thumb_200s', 'thumbnail')
    thumb('image_thumb_960r', 'thumbnail_large')
    const immediate = this.signedUrl(file)
    if (immediate) Object.assign(out, { url_immediate: immediate.url, url_immediate_expires: immediate.expires })
    return { ...out, ...this.granted(file) }
  }
}
