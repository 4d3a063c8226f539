/** The live tokens (never a secret: only hashes are stored); `r` revokes the selected one. */
import { Box } from 'ink'
import type { TokenFacts } from '../../data/index.js'
import { useKeys } from '../key-router.js'
import { useAdminList } from '../use-admin-list.js'
import { useSelection } from '../use-selection.js'
import { KeyHelp } from './key-help.js'
import { Table, type Column } from './table.js'
import { shortTime, type ViewProps } from './view-props.js'

const owner = (t: TokenFacts): string => (t.user ? `@${t.user.username}` : `(${t.kind} token)`)

const columns: readonly Column<TokenFacts>[] = [
  { title: 'ID', width: 6, value: (t) => t.id },
  { title: 'APP', width: 18, value: (t) => t.app.name },
  { title: 'USER', width: 16, value: owner },
  { title: 'CREATED', width: 16, value: (t) => shortTime(t.created_at) },
  { title: 'SCOPES', width: 38, value: (t) => t.scopes.join(' ') || '-' },
]

export function TokensView({ client, controls, active, refresh }: ViewProps) {
  const { items, reload } = useAdminList<TokenFacts>(client, 'token.list', controls, refresh)
  const selected = useSelection(items?.length ?? 0, active)
  const token = items?.[selected]

  useKeys((input) => {
    if (input !== 'r' || !token) return
    controls.confirm(`revoke token ${token.id} of ${owner(token)} in ${token.app.name}? (y/n)`, async () => {
      await client.call('token.revoke', { token: token.id })
      reload()
      return `revoked token ${token.id}`
    })
  }, active)

  return (
    <Box flexDirection="column">
      <Table columns={columns} rows={items} selected={selected} empty="no live tokens" />
      <KeyHelp keys="r revoke" />
    </Box>
  )
}
