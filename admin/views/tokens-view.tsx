/** The live tokens (never a secret: only hashes are stored); `r` revokes the selected one. */
import type { TokenFacts } from '../../data/index.js'
import { useKeys } from '../key-router.js'
import { useAdminList } from '../use-admin-list.js'
import { useSelection } from '../use-selection.js'
import type { KeyDoc } from './key-help.js'
import { matching, Table, type Column } from './table.js'
import { shortTime, type ViewProps } from './view-props.js'

const owner = (t: TokenFacts): string => (t.user ? `@${t.user.username}` : `(${t.kind} token)`)

const columns: readonly Column<TokenFacts>[] = [
  { title: 'ID', width: 6, value: (t) => t.id },
  { title: 'APP', width: 18, value: (t) => t.app.name },
  { title: 'USER', width: 16, value: owner },
  { title: 'CREATED', width: 16, value: (t) => shortTime(t.created_at) },
  { title: 'SCOPES', width: 38, value: (t) => t.scopes.join(' ') || '-' },
]

export const tokensKeys: readonly KeyDoc[] = [['r', 'revoke the selected token']]

export function TokensView({ client, controls, active, refresh, filter }: ViewProps) {
  const { items, reload } = useAdminList<TokenFacts>(client, 'token.list', controls, refresh)
  const rows = matching(items, columns, filter)
  const selected = useSelection(rows, (t) => t.id, active)
  const token = rows?.[selected]

  useKeys((input) => {
    if (input !== 'r' || !token) return
    controls.confirm(`revoke token ${token.id} of ${owner(token)} in ${token.app.name}? (y/n)`, async () => {
      await client.call('token.revoke', { token: token.id })
      reload()
      return `revoked token ${token.id}`
    })
  }, active)

  return <Table columns={columns} rows={rows} selected={selected} empty={filter ? `no token shows "${filter}"` : 'no live tokens'} />
}
