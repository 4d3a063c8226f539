/**
 * The user streams, live: each stream's consumer (connected, replaying, or
 * gone and waiting for a resume), its backlog against the bound and its
 * position against the event log's head; the selected stream's
 * subscriptions in a pane below.
 */
import type { UserStreamFacts, UserStreamsPicture } from '../../data/index.js'
import type { KeyDoc } from './key-help.js'
import { StreamDetail, streamDetailLines } from './stream-detail.js'
import { ListWithDetail, useLiveRows } from './live-list.js'
import type { Column } from './table.js'
import { clockTime, type ViewProps } from './view-props.js'

export const streamsKeys: readonly KeyDoc[] = [['↑↓', 'select a stream: its subscriptions show below']]

const stateOf = (s: UserStreamFacts): string => (!s.connected ? 'waiting' : s.live ? 'live' : 'replay')

const columnsOf = (picture: UserStreamsPicture | null): readonly Column<UserStreamFacts>[] => [
  { title: 'CONNECTION', width: 12, value: (s) => s.connection_id },
  { title: 'USER', width: 10, value: (s) => (s.user ? `@${s.user.username}` : '-') },
  { title: 'APP', width: 9, value: (s) => s.app },
  { title: 'STATE', width: 8, value: stateOf },
  { title: 'SINCE', width: 8, value: (s) => clockTime(s.since) },
  { title: 'SUBS', width: 4, value: (s) => String(s.subscriptions.length) },
  { title: 'BACKLOG', width: 9, value: (s) => (s.connected ? `${s.backlog}/${picture?.backlog_limit ?? '?'}` : '-') },
  { title: 'POSITION', width: 10, value: (s) => `${s.cursor}/${picture?.head ?? '?'}` },
]

export function StreamsView(props: ViewProps) {
  const {
    picture,
    columns,
    rows,
    selected,
    chosen: stream,
  } = useLiveRows<UserStreamsPicture, UserStreamFacts>(
    props,
    'user_streams',
    (p) => p.streams,
    columnsOf,
    (s) => s.connection_id,
  )
  return (
    <ListWithDetail
      columns={columns}
      rows={rows}
      selected={selected}
      reserve={streamDetailLines}
      empty={props.filter ? `no stream shows "${props.filter}"` : 'no user streams (a client connects to /stream/user)'}
    >
      {stream && picture && <StreamDetail stream={stream} head={picture.head} />}
    </ListWithDetail>
  )
}
