/**
 * A live list with a detail pane, as the Streams, App streams and Filters
 * tabs draw it: the watched topic's rows, narrowed by the search box, the
 * selection held by row, and the selected row's detail below the table.
 */
import { Box } from 'ink'
import type { ReactNode } from 'react'
import { useSelection } from '../use-selection.js'
import { useWatch } from '../use-watch.js'
import { matching, Table, type Column, type TableProps } from './table.js'
import type { ViewProps } from './view-props.js'

export function useLiveRows<P, R>(
  { client, controls, refresh, active, filter }: ViewProps,
  topic: string,
  rowsOf: (picture: P) => readonly R[],
  columnsOf: (picture: P | null) => readonly Column<R>[],
  keyOf: (row: R) => string,
) {
  const picture = useWatch<P>(client, topic, controls, refresh)
  const columns = columnsOf(picture)
  const rows = matching(picture ? rowsOf(picture) : null, columns, filter)
  const selected = useSelection(rows, keyOf, active)
  return { picture, columns, rows, selected, chosen: rows?.[selected] }
}

export function ListWithDetail<R>({ children, ...table }: TableProps<R> & { children?: ReactNode }) {
  return (
    <Box flexDirection="column">
      <Table {...table} />
      {children}
    </Box>
  )
}
