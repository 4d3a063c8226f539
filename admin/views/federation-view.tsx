/**
 * Federation, live: whether the instance federates and how far its outbox
 * has read the event log, then every remote server it knows, with its
 * accounts here, its block and the deliveries to it (pending, failing,
 * given up, delivered); the selected server's last error in full below.
 * Blocks are made with `svc federation block`.
 */
import { Box, Text } from 'ink'
import type { FederationHostLine, FederationPicture } from '../../data/index.js'
import type { KeyDoc } from './key-help.js'
import { ListWithDetail, useLiveRows } from './live-list.js'
import type { Column } from './table.js'
import type { ViewProps } from './view-props.js'

export const federationKeys: readonly KeyDoc[] = [['↑↓', 'select a server: its last delivery error shows below']]

const columns: readonly Column<FederationHostLine>[] = [
  { title: 'SERVER', width: 24, value: (h) => h.host },
  { title: 'ACCOUNTS', width: 8, value: (h) => String(h.accounts) },
  { title: 'BLOCK', width: 20, value: (h) => h.block },
  { title: 'PENDING', width: 7, value: (h) => String(h.pending) },
  { title: 'FAILING', width: 7, value: (h) => String(h.failing) },
  { title: 'GIVEN UP', width: 8, value: (h) => String(h.given_up) },
  { title: 'DELIVERED', width: 9, value: (h) => String(h.delivered) },
]

export function FederationView(props: ViewProps) {
  const { picture, rows, selected, chosen } = useLiveRows<FederationPicture, FederationHostLine>(
    props,
    'federation',
    (p) => p.hosts,
    () => columns,
    (h) => h.host,
  )
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">{picture?.status ?? ''}</Text>
      <ListWithDetail
        columns={columns}
        rows={rows}
        selected={selected}
        reserve={3}
        empty={props.filter ? `no server shows "${props.filter}"` : 'no other server known yet'}
      >
        {chosen && (
          <Box flexDirection="column" marginTop={1}>
            <Text wrap="truncate-end" bold>
              {chosen.host}
            </Text>
            <Text wrap="truncate-end">{chosen.last_error === null ? '  no delivery failed' : `  last error ${chosen.last_error}`}</Text>
          </Box>
        )}
      </ListWithDetail>
    </Box>
  )
}
