/**
 * The event log's tail, live, newest first: what happens on the instance as
 * it happens. The filter box (/) narrows it by event name or words
 * (`post.`, `@alice`); a selection on the newest event stays on the newest.
 */
import { Box, Text } from 'ink'
import type { EventLine, EventTail } from '../../data/index.js'
import { useSelection } from '../use-selection.js'
import { useWatch } from '../use-watch.js'
import type { KeyDoc } from './key-help.js'
import { matching, Table, type Column } from './table.js'
import { clockTime, type ViewProps } from './view-props.js'

export const eventsKeys: readonly KeyDoc[] = [['↑↓', 'scroll; on the newest event, new ones stay in view']]

const columns: readonly Column<EventLine>[] = [
  { title: 'SEQ', width: 6, value: (e) => String(e.seq) },
  { title: 'TIME', width: 8, value: (e) => clockTime(e.at) },
  { title: 'EVENT', width: 20, value: (e) => e.name },
  { title: 'WHAT', width: 40, value: (e) => e.summary },
]

export function EventsView({ client, controls, active, refresh, filter }: ViewProps) {
  const tail = useWatch<EventTail>(client, 'events', controls, refresh)
  const rows = matching(tail?.events ?? null, columns, filter)
  const selected = useSelection(rows, (e) => String(e.seq), active, { followTop: true })
  return (
    <Box flexDirection="column">
      {filter ? <Text color="cyan">{`filter: ${filter}`}</Text> : <Text dimColor>filter: (type / to narrow by event name or text)</Text>}
      <Table columns={columns} rows={rows} selected={selected} reserve={1} empty={filter ? `no event shows "${filter}"` : 'no events yet'} />
    </Box>
  )
}
