/**
 * The annotation rules every object shares (users, posts, channels, messages,
 * and later files): the `{type, value}` shape, reversed-domain types, no
 * unresolved replacement values, the byte budget, and the reserved `svc.core`
 * namespace. Posts and messages set theirs once (`checkAnnotations`); users
 * and channels change theirs type by type (`mergeAnnotations`).
 */
import { invalid } from '../errors.js'
import { ANNOTATION_MAX_BYTES, ANNOTATION_TYPE_MAX_LENGTH } from '../limits.js'
import type { Annotation } from '../model/entities.js'
import { CORE_TYPES, isObject, type Check } from './core-types.js'

export * from './core-types.js'

/** The reserved namespace of annotation, channel and file types. */
export const CORE_NAMESPACE = 'svc.core.'

// A reversed domain name of two or more segments. `_` is taken in every
// segment, the first included: the original API refused no such type, and
// clients that name theirs `my_app.note` keep working.
const REVERSED_DOMAIN = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$/

/** Is `type` a reversed-domain type (`com.example.chat`) of at most `maxLength` characters? Annotation, channel and file types follow it. */
export const isReversedDomain = (type: unknown, maxLength: number): type is string =>
  typeof type === 'string' && type.length <= maxLength && REVERSED_DOMAIN.test(type)

/** Is `type` a valid annotation type (`com.example.note`)? */
export const isAnnotationType = (type: unknown): type is string => isReversedDomain(type, ANNOTATION_TYPE_MAX_LENGTH)

/**
 * The first replacement key (`+svc.core.file` ...) anywhere in `value`. Those
 * carry file write tokens; they are resolved by their own services, and one
 * left unresolved must never be stored.
 */
// Only `+svc.core.` keys are replacement values; any other key, `+` or not, is the client's own data.
const REPLACEMENT_PREFIX = '+' + CORE_NAMESPACE

const findReplacementKey = (value: unknown): string | null => {
  if (Array.isArray(value)) return value.map(findReplacementKey).find((k) => k !== null) ?? null
  if (!isObject(value)) return null
  for (const [k, v] of Object.entries(value)) {
    if (k.startsWith(REPLACEMENT_PREFIX)) return k
    const inner = findReplacementKey(v)
    if (inner) return inner
  }
  return null
}

const listOf = (input: unknown): unknown[] => {
  if (!Array.isArray(input)) throw invalid('annotations must be a list')
  return input
}

const typeOf = (a: unknown, i: number): string => {
  if (!isObject(a)) throw invalid(`annotation ${i} must be an object`)
  if (!isAnnotationType(a.type)) throw invalid(`annotation ${i} type must be a reversed-domain name such as com.example.note`)
  return a.type
}

/** Checks one annotation's shape: an object value holding no replacement value. Errors: `invalid`. */
function checkShape(type: string, value: unknown): Annotation {
  if (!isObject(value)) throw invalid(`annotation ${type} needs a value object`)
  const replacement = findReplacementKey(value)
  if (replacement) throw invalid(`annotation ${type}: the replacement value ${replacement} cannot be used here`)
  return { type, value }
}

const checkSize = (annotations: readonly Annotation[]): void => {
  if (Buffer.byteLength(JSON.stringify(annotations)) > ANNOTATION_MAX_BYTES) throw invalid(`annotations are larger than ${ANNOTATION_MAX_BYTES} bytes`)
}

/**
 * Checks a well-shaped annotation against the schemas in `coreTypes` when its
 * type is in the `svc.core` namespace; answers it unchanged.
 * Errors: `invalid` (an unknown or malformed core type).
 */
export function checkCoreType(a: Annotation, coreTypes: Readonly<Record<string, Check>> = CORE_TYPES): Annotation {
  if (!a.type.startsWith(CORE_NAMESPACE)) return a
  const check = coreTypes[a.type]
  if (!check) throw invalid(`annotation type ${a.type} is not a known svc.core type`)
  const problem = check(a.value)
  if (problem) throw invalid(`annotation ${a.type}: ${problem}`)
  return a
}

/**
 * Checks the annotations of a post or message (set once, a type may repeat)
 * and answers a clean copy; `extraCoreTypes` admits core types only some
 * objects may carry. Errors: `invalid` (shape, type format, unknown or
 * malformed core type, replacement values, over `ANNOTATION_MAX_BYTES`).
 */
export function checkAnnotations(input: unknown, extraCoreTypes: Readonly<Record<string, Check>> = {}): Annotation[] {
  if (input === undefined || input === null) return []
  const coreTypes = { ...CORE_TYPES, ...extraCoreTypes }
  const out = listOf(input).map((a, i) => checkCoreType(checkShape(typeOf(a, i), (a as Annotation).value), coreTypes))
  checkSize(out)
  return out
}

/**
 * `current` with the changes of `input` applied, for objects that hold one
 * annotation per type (users, channels, files): a listed type replaces the
 * stored one in place or is appended; a type given without a value is
 * removed; unlisted types stay. `checkOne` checks each new, well-shaped
 * annotation (null: leave that type out); by default the core schemas.
 * Errors: `invalid` (shape, type format, what `checkOne` refuses, over
 * `ANNOTATION_MAX_BYTES`).
 */
export function mergeAnnotations(
  current: readonly Annotation[],
  input: unknown,
  checkOne: (a: Annotation) => Annotation | null = (a) => checkCoreType(a),
): Annotation[] {
  const changes = new Map<string, Annotation | null>()
  listOf(input).forEach((a, i) => {
    const type = typeOf(a, i)
    const { value } = a as { value?: unknown }
    changes.set(type, value === undefined || value === null ? null : checkOne(checkShape(type, value)))
  })
  const kept = current.flatMap((a) => {
    if (!changes.has(a.type)) return [a]
    const next = changes.get(a.type)
    changes.delete(a.type)
    return next ? [next] : []
  })
  const merged = [...kept, ...[...changes.values()].filter((a): a is Annotation => a !== null)]
  checkSize(merged)
  return merged
}
