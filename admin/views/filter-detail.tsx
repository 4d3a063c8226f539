/** The pane under a list that names a filter: its name, policy and each clause in words. */
import { Box, Text } from 'ink'
import type { FilterSummary } from '../../data/index.js'

/** Clauses listed at most; the rest are counted. */
const MOST_CLAUSES = 4

/** Lines the pane takes at most (the list above leaves them room). */
export const filterDetailLines = MOST_CLAUSES + 3

/** `filter 5 "hello posts": include_any`: the filter's id, name and policy in a line. */
export const filterTitle = (f: FilterSummary): string => `filter ${f.id}${f.name === undefined ? '' : ` "${f.name}"`}: ${f.match_policy}`

export function FilterDetail({ heading, filter }: { heading: string; filter: FilterSummary | null }) {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text wrap="truncate-end">
        <Text bold>{heading}</Text>
        {filter ? ` · ${filterTitle(filter)}` : ' · no filter'}
      </Text>
      {filter?.clauses.slice(0, MOST_CLAUSES).map((clause, i) => (
        <Text key={i} wrap="truncate-end">{`  ${clause}`}</Text>
      ))}
      {filter && filter.clauses.length > MOST_CLAUSES && <Text dimColor>{`  … ${filter.clauses.length - MOST_CLAUSES} more`}</Text>}
    </Box>
  )
}
