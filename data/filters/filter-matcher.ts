/**
 * Filters compiled into predicates over streamed messages. An app stream runs
 * its filter on every event it carries, so the pointers are parsed, the
 * values converted and the `one_of` sets built once, here; a call then only
 * walks the message.
 *
 * A clause holds for a message when the message's `meta.type` is the clause's
 * object type and some value its field reaches (a `*` segment reaches every
 * element of a list) compares as the operator says. A clause of another
 * object type does not hold, so an `include_*` filter drops the messages of
 * types it names no clause for, and an `exclude_*` filter lets them through.
 */
import { AUTHORIZED_USER_IDS, type FilterClause, type FilterRow } from '../model/filter.js'
import { parsePointer } from './json-pointer.js'

/** What the variables of clause values stand for in one stream. */
export interface FilterVariables {
  /** `$authorized_userids`: the users who authorized the app whose stream this is, as string ids. */
  authorizedUserIds: ReadonlySet<string>
}

/** Does `message` (the whole streamed `{meta, data}` object) pass the filter? */
export type FilterMatcher = (message: unknown, vars: FilterVariables) => boolean

/** A test of one value a field reaches. */
type LeafTest = (value: unknown, vars: FilterVariables) => boolean

/** A pointer segment ready to walk: the key, and the list index it names, if it names one. */
type Step = { key: string; index: number | undefined } | null

interface CompiledClause {
  objectType: string
  steps: readonly Step[]
  test: LeafTest
}

const NEVER: LeafTest = () => false
const INDEX = /^(0|[1-9]\d{0,8})$/
const INTEGER = /^-?\d{1,15}$/

/** A scalar as the wire compares it: ids are strings there, but a client may write 5 or "5"; booleans read `true`/`false`. */
const scalarText = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined

/** A field or value read as an integer: a number, or a string of digits. */
const integerOf = (value: unknown): number | undefined => {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value === 'string' && INTEGER.test(value)) return Number(value)
  return undefined
}

const compare = (bound: number, holds: (field: number, bound: number) => boolean): LeafTest => {
  return (value) => {
    const field = integerOf(value)
    return field !== undefined && holds(field, bound)
  }
}

function leafTest(clause: Pick<FilterClause, 'operator' | 'value'>): LeafTest {
  const { operator, value } = clause
  switch (operator) {
    case 'equals': {
      const want = scalarText(value)
      return want === undefined ? NEVER : (field) => scalarText(field) === want
    }
    case 'matches': {
      const part = scalarText(value)
      return part === undefined ? NEVER : (field) => typeof field === 'string' && field.includes(part)
    }
    case 'lt':
    case 'le':
    case 'gt':
    case 'ge': {
      const bound = integerOf(value)
      if (bound === undefined) return NEVER
      if (operator === 'lt') return compare(bound, (f, b) => f < b)
      if (operator === 'le') return compare(bound, (f, b) => f <= b)
      if (operator === 'gt') return compare(bound, (f, b) => f > b)
      return compare(bound, (f, b) => f >= b)
    }
    case 'one_of': {
      if (value === AUTHORIZED_USER_IDS) {
        return (field, vars) => {
          const text = scalarText(field)
          return text !== undefined && vars.authorizedUserIds.has(text)
        }
      }
      if (!Array.isArray(value)) return NEVER
      const set = new Set(value.map(scalarText).filter((v) => v !== undefined))
      return (field) => {
        const text = scalarText(field)
        return text !== undefined && set.has(text)
      }
    }
    default:
      return NEVER
  }
}

/** Does some value under `node`, from step `i` of the path on, pass `test`? */
function reaches(node: unknown, steps: readonly Step[], i: number, test: LeafTest, vars: FilterVariables): boolean {
  if (i === steps.length) return test(node, vars)
  if (typeof node !== 'object' || node === null) return false
  const step = steps[i]
  if (step === null) {
    if (!Array.isArray(node)) return false
    for (const element of node) if (reaches(element, steps, i + 1, test, vars)) return true
    return false
  }
  if (Array.isArray(node)) return step.index !== undefined && step.index < node.length && reaches(node[step.index], steps, i + 1, test, vars)
  // Own keys only: a pointer `/data/constructor` must not reach Object.prototype.
  return Object.hasOwn(node, step.key) && reaches((node as Record<string, unknown>)[step.key], steps, i + 1, test, vars)
}

function compileClause(clause: FilterClause): CompiledClause {
  const segments = parsePointer(clause.field)
  const steps = (segments ?? []).map((s): Step => ('every' in s ? null : { key: s.key, index: INDEX.test(s.key) ? Number(s.key) : undefined }))
  return { objectType: clause.object_type, steps, test: segments ? leafTest(clause) : NEVER }
}

const typeOf = (message: unknown): unknown => {
  if (typeof message !== 'object' || message === null) return undefined
  const meta = (message as { meta?: unknown }).meta
  return typeof meta === 'object' && meta !== null ? (meta as { type?: unknown }).type : undefined
}

/**
 * The predicate of a filter. `include_any` passes a message some clause holds
 * for, `include_all` one every clause holds for; `exclude_any` and
 * `exclude_all` pass the others. A stored filter was checked when it was
 * written; a clause that is malformed all the same never holds, and nothing
 * here throws.
 */
export function compileFilter(filter: Pick<FilterRow, 'match_policy' | 'clauses'>): FilterMatcher {
  const clauses = filter.clauses.map(compileClause)
  const needsAll = filter.match_policy === 'include_all' || filter.match_policy === 'exclude_all'
  const includes = filter.match_policy === 'include_any' || filter.match_policy === 'include_all'
  return (message, vars) => {
    const type = typeOf(message)
    // Any: false until one clause holds. All: true until one fails.
    let matched = needsAll
    for (const clause of clauses) {
      const holds = clause.objectType === type && reaches(message, clause.steps, 0, clause.test, vars)
      if (holds !== needsAll) {
        matched = !needsAll
        break
      }
    }
    return includes ? matched : !matched
  }
}
