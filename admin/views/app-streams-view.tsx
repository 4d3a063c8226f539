/**
 * The app streams, live: each stream's app, key, object types, consumer,
 * queue against its bound, and filter; the selected stream's app and filter
 * in full in a pane below.
 */
import type { AppStreamLine, AppStreamsPicture } from '../../data/index.js'
import { FilterDetail, filterDetailLines } from './filter-detail.js'
import type { KeyDoc } from './key-help.js'
import { ListWithDetail, useLiveRows } from './live-list.js'
import type { Column } from './table.js'
import type { ViewProps } from './view-props.js'

export const appStreamsKeys: readonly KeyDoc[] = [['↑↓', 'select a stream: its app and filter show below']]

const filterText = (s: AppStreamLine): string => {
  if (!s.filter) return 'none'
  const { name, match_policy, clauses } = s.filter
  return `${name === undefined ? '' : `${name}: `}${match_policy}: ${clauses.join('; ')}`
}

const columns: readonly Column<AppStreamLine>[] = [
  { title: 'ID', width: 4, value: (s) => s.id },
  { title: 'APP', width: 12, value: (s) => s.app?.name ?? '(gone)' },
  { title: 'KEY', width: 10, value: (s) => s.key ?? '-' },
  { title: 'TYPES', width: 16, value: (s) => s.object_types.join(',') },
  { title: 'CONSUMER', width: 9, value: (s) => (s.connected ? 'connected' : 'away') },
  { title: 'QUEUE', width: 11, value: (s) => `${s.queue_depth}/${s.queue_limit}` },
  { title: 'FILTER', width: 28, value: filterText },
]

export function AppStreamsView(props: ViewProps) {
  const {
    rows,
    selected,
    chosen: stream,
  } = useLiveRows<AppStreamsPicture, AppStreamLine>(
    props,
    'app_streams',
    (p) => p.streams,
    () => columns,
    (s) => s.id,
  )
  const app = stream?.app ? `${stream.app.name} (client id ${stream.app.client_id})` : 'an app now gone'
  return (
    <ListWithDetail
      columns={columns}
      rows={rows}
      selected={selected}
      reserve={filterDetailLines}
      empty={props.filter ? `no stream shows "${props.filter}"` : 'no app streams (an app token POSTs /streams)'}
    >
      {stream && <FilterDetail heading={`stream ${stream.id} of ${app}`} filter={stream.filter} />}
    </ListWithDetail>
  )
}
