/**
 * Annotation rules for objects whose annotations are set once at creation
 * (posts, messages): the `{type, value}` shape, reversed-domain types, the
 * 8192-byte budget, and the reserved `svc.core` namespace, where known types
 * are checked against their schema and unknown ones are refused.
 */
import { invalid } from '../errors.js'
import { ANNOTATION_MAX_BYTES, ANNOTATION_TYPE_MAX_LENGTH } from '../limits.js'
import type { Annotation } from '../model/entities.js'

const CORE = 'svc.core.'
const TYPE_PATTERN = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$/

type Value = Record<string, unknown>
/** Checks the value of one core annotation type: a problem to report, or null. */
export type Check = (value: Value) => string | null

const isObject = (v: unknown): v is Value => typeof v === 'object' && v !== null && !Array.isArray(v)
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
const isUrl = (v: unknown): boolean => {
  if (typeof v !== 'string') return false
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol)
  } catch {
    return false
  }
}
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
const isString = (max: number) => (v: unknown) => typeof v === 'string' && v.length > 0 && [...v].length <= max

const OEMBED_TYPES = ['photo', 'video', 'html5video', 'rich']
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

/** Schemas of the core types a post or message may carry (replacement-value types excepted). */
const CORE_TYPES: Record<string, Check> = {
  'svc.core.geolocation': all(
    inRange('latitude', -90, 90),
    inRange('longitude', -180, 180),
    inRange('altitude', -1e6, 1e6, true),
    inRange('horizontal_accuracy', 0, 1e9, true),
    inRange('vertical_accuracy', 0, 1e9, true),
  ),
  'svc.core.language': required('language', (v) => typeof v === 'string' && /^[a-z]{2}(_[A-Z]{2})?$/.test(v), 'an ISO 639-1 code'),
  'svc.core.crosspost': required('canonical_url', isUrl, 'an http(s) URL'),
  'svc.core.fallback_url': required('url', isUrl, 'an http(s) URL'),
  'svc.core.directory.blog': required('url', isUrl, 'an http(s) URL'),
  'svc.core.directory.homepage': required('url', isUrl, 'an http(s) URL'),
  'svc.core.directory.facebook': required('id', isString(255), 'a string'),
  'svc.core.directory.twitter': required('username', isString(255), 'a string'),
  'svc.core.channel.invite': required('channel_id', (v) => typeof v === 'string' && /^\d{1,15}$/.test(v), 'a channel id string'),
  'svc.core.oembed': oembed,
}

/** Is `type` a reversed-domain annotation type (`com.example.note`) of at most `ANNOTATION_TYPE_MAX_LENGTH` characters? */
export const isAnnotationType = (type: unknown): type is string =>
  typeof type === 'string' && type.length <= ANNOTATION_TYPE_MAX_LENGTH && TYPE_PATTERN.test(type)

/** Replacement keys (`+svc.core.file` ...) are resolved by their own services; none is resolved here. */
const findReplacementKey = (value: unknown): string | null => {
  if (Array.isArray(value)) return value.map(findReplacementKey).find((k) => k !== null) ?? null
  if (!isObject(value)) return null
  for (const [k, v] of Object.entries(value)) {
    if (k.startsWith(`+${CORE}`)) return k
    const inner = findReplacementKey(v)
    if (inner) return inner
  }
  return null
}

/**
 * Checks a list of annotations for a post or message and answers a clean copy.
 * `extraCoreTypes` admits core types only some objects may carry.
 * Errors: `invalid` (shape, type format, unknown or malformed core type,
 * unresolved replacement values, over 8192 bytes).
 */
export function checkAnnotations(input: unknown, extraCoreTypes: Readonly<Record<string, Check>> = {}): Annotation[] {
  if (input === undefined || input === null) return []
  if (!Array.isArray(input)) throw invalid('annotations must be a list')
  const out = input.map((a, i): Annotation => {
    if (!isObject(a)) throw invalid(`annotation ${i} must be an object`)
    const { type, value } = a
    if (!isAnnotationType(type)) throw invalid(`annotation ${i} type must be a reversed-domain name such as com.example.note`)
    if (!isObject(value)) throw invalid(`annotation ${type} needs a value object`)
    const replacement = findReplacementKey(value)
    if (replacement) throw invalid(`annotation ${type}: the replacement value ${replacement} cannot be used here`)
    if (type.startsWith(CORE)) {
      const check = CORE_TYPES[type] ?? extraCoreTypes[type]
      if (!check) throw invalid(`annotation type ${type} is not a known svc.core type`)
      const problem = check(value)
      if (problem) throw invalid(`annotation ${type}: ${problem}`)
    }
    return { type, value }
  })
  if (Buffer.byteLength(JSON.stringify(out)) > ANNOTATION_MAX_BYTES) throw invalid(`annotations are larger than ${ANNOTATION_MAX_BYTES} bytes`)
  return out
}
