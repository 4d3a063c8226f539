/**
 * The schemas of the `svc.core` annotation types svc checks: each answers the
 * problem with a value, or null. Which object may carry which type is decided
 * by the caller (annotations.ts for posts, messages and users; the channel
 * rules for channels and broadcasts).
 */
import { CHANNEL_DESCRIPTION_MAX_LENGTH, CHANNEL_MAX_TAGS, CHANNEL_TAG_MAX_LENGTH, CHANNEL_TITLE_MAX_LENGTH, MESSAGE_SUBJECT_MAX_LENGTH } from '../limits.js'

export const FALLBACK_URL = 'svc.core.fallback_url'
export const CHANNEL_METADATA = 'svc.core.channel.metadata'
export const BROADCAST_METADATA = 'svc.core.broadcast.metadata'
export const BROADCAST_MESSAGE_METADATA = 'svc.core.broadcast.message.metadata'
export const BROADCAST_FREQ = 'svc.core.broadcast.freq'

/** Stands for the public base URL in stored annotation values (see replacements.ts); presenters complete it. */
export const BASE_URL_MARK = 'svc-base:'
/** Starts a sealed mark for a file's read token or one of its addresses, filled in when shown (see rendering.ts). */
export const FILE_MARK = 'svc-file:'

export type AnnotationValue = Record<string, unknown>
/** Checks the value of one core annotation type: a problem to report, or null. */
export type Check = (value: AnnotationValue) => string | null

export const isObject = (v: unknown): v is AnnotationValue => typeof v === 'object' && v !== null && !Array.isArray(v)
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
const isUrl = (v: unknown): boolean => {
  if (typeof v !== 'string') return false
  if (v.startsWith(BASE_URL_MARK + '/') || v.startsWith(FILE_MARK)) return true
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol)
  } catch {
    return false
  }
}
/** A string of at most `max` code points (and at least one when `min` is 1). */
const isText = (v: unknown, max: number, min = 0): v is string => typeof v === 'string' && v.length >= min && [...v].length <= max
const required =
  (key: string, test: (v: unknown) => boolean, what: string): Check =>
  (value) =>
    test(value[key]) ? null : `${key} must be ${what}`
const all =
  (...checks: Check[]): Check =>
  (value) =>
    checks.map((c) => c(value)).find((m) => m !== null) ?? null
const inRange =
  (key: string, min: number, max: number, optional = false): Check =>
  (value) => {
    if (optional && value[key] === undefined) return null
    const v = value[key]
    return isNumber(v) && v >= min && v <= max ? null : `${key} must be a number from ${min} to ${max}`
  }

const OEMBED_TYPES = ['photo', 'video', 'html5video', 'rich', 'link']
const oembed: Check = (value) => {
  if (!OEMBED_TYPES.includes(value.type as string)) return `type must be one of ${OEMBED_TYPES.join(', ')}`
  if (value.version !== '1.0') return 'version must be "1.0"'
  if (!isNumber(value.width) || !isNumber(value.height)) return 'width and height must be numbers'
  if (value.type === 'photo' && !isUrl(value.url)) return 'url must be an http(s) URL for photos'
  if ((value.type === 'video' || value.type === 'rich') && typeof value.html !== 'string') return 'html is required for video and rich'
  if (value.type === 'html5video' && (!Array.isArray(value.sources) || value.sources.length === 0 || value.sources.length > 5))
    return 'sources must list 1 to 5 sources'
  const thumbs = ['thumbnail_url', 'thumbnail_width', 'thumbnail_height'].filter((k) => value[k] !== undefined)
  if (thumbs.length !== 0 && thumbs.length !== 3) return 'thumbnail_url, thumbnail_width and thumbnail_height go together'
  return null
}

/** Schemas of the core types posts, messages and users may carry (replacement-value types excepted). */
export const CORE_TYPES: Readonly<Record<string, Check>> = {
  'svc.core.geolocation': all(
    inRange('latitude', -90, 90),
    inRange('longitude', -180, 180),
    inRange('altitude', -1e6, 1e6, true),
    inRange('horizontal_accuracy', 0, 1e9, true),
    inRange('vertical_accuracy', 0, 1e9, true),
  ),
  'svc.core.language': required('language', (v) => typeof v === 'string' && /^[a-z]{2}(_[A-Z]{2})?$/.test(v), 'an ISO 639-1 code'),
  'svc.core.crosspost': required('canonical_url', isUrl, 'an http(s) URL'),
  [FALLBACK_URL]: required('url', isUrl, 'an http(s) URL'),
  'svc.core.directory.blog': required('url', isUrl, 'an http(s) URL'),
  'svc.core.directory.homepage': required('url', isUrl, 'an http(s) URL'),
  'svc.core.directory.facebook': required('id', (v) => isText(v, 255, 1), 'a string'),
  'svc.core.directory.twitter': required('username', (v) => isText(v, 255, 1), 'a string'),
  'svc.core.channel.invite': required('channel_id', (v) => typeof v === 'string' && /^\d{1,15}$/.test(v), 'a channel id string'),
  'svc.core.oembed': oembed,
  // `id` is made by resolving `+svc.core.user`.
  'svc.core.phototag': all(
    required('id', (v) => typeof v === 'string', 'a user (send +svc.core.user)'),
    required('x', (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 100, 'an integer from 0 to 100'),
    required('y', (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 100, 'an integer from 0 to 100'),
  ),
  // Made by resolving `+svc.core.place`: an unknown place leaves nothing to check in at.
  'svc.core.checkin': required('factual_id', (v) => typeof v === 'string', 'a place (send +svc.core.place with its factual_id)'),
  // Made by resolving `+svc.core.file_list`; an unresolved list is refused before this.
  'svc.core.attachments': required('svc.core.file_list', Array.isArray, 'a list of files (send +svc.core.file_list)'),
}

const title: Check = (value) =>
  isText(value.title, CHANNEL_TITLE_MAX_LENGTH, 1) ? null : `title must be a string of 1 to ${CHANNEL_TITLE_MAX_LENGTH} characters`
const description: Check = (value) =>
  isText(value.description, CHANNEL_DESCRIPTION_MAX_LENGTH) ? null : `description must be a string of at most ${CHANNEL_DESCRIPTION_MAX_LENGTH} characters`
const tags: Check = (value) =>
  value.tags === undefined ||
  (Array.isArray(value.tags) && value.tags.length <= CHANNEL_MAX_TAGS && value.tags.every((t) => isText(t, CHANNEL_TAG_MAX_LENGTH, 1)))
    ? null
    : `tags must list at most ${CHANNEL_MAX_TAGS} tags of at most ${CHANNEL_TAG_MAX_LENGTH} characters`

/** Schemas of the metadata types of channels; the channel rules say which kind of channel takes which. */
export const CHANNEL_CORE_TYPES: Readonly<Record<string, Check>> = {
  [CHANNEL_METADATA]: all(title, description, tags),
  [BROADCAST_METADATA]: (value) => title(value) ?? (value.description === undefined ? null : description(value)),
}

/** The schema of the core type only a broadcast channel's messages may carry. */
export const BROADCAST_MESSAGE_CORE_TYPES: Readonly<Record<string, Check>> = {
  [BROADCAST_MESSAGE_METADATA]: (value) =>
    isText(value.subject, MESSAGE_SUBJECT_MAX_LENGTH, 1) ? null : `subject must be a string of 1 to ${MESSAGE_SUBJECT_MAX_LENGTH} characters`,
}
