/**
 * A filter in words for the console: its policy and each clause as a line
 * an operator reads at a glance (`post /data/text matches "hello"`).
 */
import { AUTHORIZED_USER_IDS, type FilterClause, type FilterRow } from '../model/filter.js'
import type { FilterSummary } from './protocol.js'

// Text in quotes, so that `"12"` and `12` (which compare differently) read differently.
const valueText = (value: FilterClause['value']): string => {
  if (value === AUTHORIZED_USER_IDS) return value
  if (Array.isArray(value)) return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`
  return JSON.stringify(value)
}

export const clauseText = (c: FilterClause): string => `${c.object_type} ${c.field} ${c.operator} ${valueText(c.value)}`

export const summarizeFilter = (filter: FilterRow): FilterSummary => ({
  id: String(filter.id),
  ...(filter.name === undefined ? {} : { name: filter.name }),
  match_policy: filter.match_policy,
  clauses: filter.clauses.map(clauseText),
})
