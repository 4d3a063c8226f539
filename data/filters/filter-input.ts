/**
 * What a filter may hold, checked once before it is written: the spec's
 * policies, object types and operators, a value of the kind each operator
 * compares, and a field that is a JSON Pointer. Messages name the clause by
 * its index and field, as the request gave them (`clauses[2].value`).
 */
import { invalid } from '../errors.js'
import { FILTER_FIELD_MAX_LENGTH, FILTER_MAX_CLAUSES, FILTER_MAX_LIST_VALUES, FILTER_NAME_MAX_LENGTH, FILTER_VALUE_MAX_LENGTH } from '../limits.js'
import {
  AUTHORIZED_USER_IDS,
  FILTER_OBJECT_TYPES,
  FILTER_OPERATORS,
  MATCH_POLICIES,
  type FilterClause,
  type FilterObjectType,
  type FilterOperator,
  type MatchPolicy,
} from '../model/filter.js'
import { parsePointer } from './json-pointer.js'

/** A filter as a client sends it; anything but these keys is ignored. */
export interface FilterInput {
  /** Empty or blank: no name. */
  name?: string | null
  match_policy: string
  clauses: readonly FilterClauseInput[]
}

export interface FilterClauseInput {
  object_type: string
  operator: string
  field: string
  value: unknown
}

/** A filter's fields once checked. */
export interface CheckedFilter {
  name?: string
  match_policy: MatchPolicy
  clauses: FilterClause[]
}

const INTEGER = /^-?\d{1,15}$/
const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T => typeof value === 'string' && (list as readonly string[]).includes(value)

const checkScalar = (at: string, value: unknown): string | number => {
  // Booleans have no place in the clause's types, but a field may hold one: `true` compares as the text `true`.
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(`${at} must be a finite number`)
    return value
  }
  if (typeof value !== 'string') throw invalid(`${at} must be a string or a number`)
  if (value.length > FILTER_VALUE_MAX_LENGTH) throw invalid(`${at} must be at most ${FILTER_VALUE_MAX_LENGTH} characters`)
  return value
}

function checkValue(at: string, operator: FilterOperator, value: unknown): FilterClause['value'] {
  if (value === AUTHORIZED_USER_IDS) {
    if (operator !== 'one_of') throw invalid(`${at}: ${AUTHORIZED_USER_IDS} can only be used with the operator one_of`)
    return value
  }
  switch (operator) {
    case 'lt':
    case 'le':
    case 'gt':
    case 'ge':
      // Form-encoded bodies send every number as text: "5" is the integer 5.
      if ((typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && INTEGER.test(value))) return value
      throw invalid(`${at} must be an integer for the operator ${operator}`)
    case 'one_of':
      if (!Array.isArray(value)) throw invalid(`${at} must be a list (or ${AUTHORIZED_USER_IDS}) for the operator one_of`)
      if (value.length > FILTER_MAX_LIST_VALUES) throw invalid(`${at} may hold at most ${FILTER_MAX_LIST_VALUES} values`)
      return value.map((element, j) => {
        if (element === AUTHORIZED_USER_IDS) throw invalid(`${at}[${j}]: ${AUTHORIZED_USER_IDS} stands for a whole list; give it as the value itself`)
        return checkScalar(`${at}[${j}]`, element)
      })
    default:
      if (Array.isArray(value)) throw invalid(`${at} must be a single string or number for the operator ${operator}; lists are for one_of`)
      return checkScalar(at, value)
  }
}

function checkClause(clause: FilterClauseInput, i: number): FilterClause {
  const at = `clauses[${i}]`
  if (typeof clause !== 'object' || clause === null || Array.isArray(clause)) throw invalid(`${at} must be an object`)
  const { object_type, operator, field, value } = clause
  if (!isOneOf<FilterObjectType>(FILTER_OBJECT_TYPES, object_type)) throw invalid(`${at}.object_type must be one of ${FILTER_OBJECT_TYPES.join(', ')}`)
  if (!isOneOf<FilterOperator>(FILTER_OPERATORS, operator)) throw invalid(`${at}.operator must be one of ${FILTER_OPERATORS.join(', ')}`)
  if (typeof field !== 'string' || field.length > FILTER_FIELD_MAX_LENGTH || parsePointer(field) === null) {
    throw invalid(`${at}.field must be a JSON Pointer of at most ${FILTER_FIELD_MAX_LENGTH} characters: starting with /, with ~ only as ~0, ~1 or ~2`)
  }
  if (value === undefined || value === null) throw invalid(`${at}.value is required`)
  return { object_type, operator, field, value: checkValue(`${at}.value`, operator, value) }
}

/** The filter `input` describes, checked. Errors: `invalid`, naming the first problem. */
export function checkFilter(input: FilterInput): CheckedFilter {
  if (!isOneOf<MatchPolicy>(MATCH_POLICIES, input.match_policy)) throw invalid(`match_policy must be one of ${MATCH_POLICIES.join(', ')}`)
  if (!Array.isArray(input.clauses) || input.clauses.length === 0) throw invalid('clauses must be a non-empty list')
  if (input.clauses.length > FILTER_MAX_CLAUSES) throw invalid(`a filter may hold at most ${FILTER_MAX_CLAUSES} clauses`)
  const clauses = input.clauses.map(checkClause)
  if (input.name !== undefined && input.name !== null && typeof input.name !== 'string') throw invalid('name must be a string')
  const name = input.name?.trim()
  if (name && [...name].length > FILTER_NAME_MAX_LENGTH) throw invalid(`name must be at most ${FILTER_NAME_MAX_LENGTH} characters`)
  return { ...(name ? { name } : {}), match_policy: input.match_policy, clauses }
}
