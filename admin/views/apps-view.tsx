/**
 * The registered client apps, oldest first; the client id whole (it is what
 * `svc token create` takes). `D` deletes the selected app once the operator
 * types its name or "yes".
 */
import type { AppFacts } from '../../data/index.js'
import { useKeys } from '../key-router.js'
import { useAdminList } from '../use-admin-list.js'
import { useSelection } from '../use-selection.js'
import type { KeyDoc } from './key-help.js'
import { matching, Table, type Column } from './table.js'
import { shortTime, type ViewProps } from './view-props.js'

// 79 columns with the selection mark: the 32 characters of a client id fit an 80-column terminal.
const columns: readonly Column<AppFacts>[] = [
  { title: 'ID', width: 4, value: (a) => a.id },
  { title: 'NAME', width: 12, value: (a) => a.name },
  { title: 'CLIENT ID', width: 32, value: (a) => a.client_id },
  { title: 'CREATED', width: 16, value: (a) => shortTime(a.created_at) },
  { title: 'REDIRECTS', width: 9, value: (a) => a.redirect_uris.join(' ') || '-' },
]

export const appsKeys: readonly KeyDoc[] = [['D', 'delete the app and its tokens (type its name or yes)']]

export function AppsView({ client, controls, active, refresh, filter }: ViewProps) {
  const { items, reload } = useAdminList<AppFacts>(client, 'app.list', controls, refresh)
  const rows = matching(items, columns, filter)
  const selected = useSelection(rows, (a) => a.id, active)
  const app = rows?.[selected]

  useKeys((input) => {
    if (input !== 'D' || !app) return
    controls.ask(`delete app ${app.name} and revoke every token of it? type ${app.name} or yes to confirm (Esc cancels)`, async (answer) => {
      const typed = answer.trim()
      if (typed !== app.name && typed.toLowerCase() !== 'yes') throw new Error(`"${answer}" is neither ${app.name} nor yes: nothing deleted`)
      await client.call('app.delete', { client_id: app.client_id })
      reload()
      return `deleted app ${app.name}`
    })
  }, active)

  return <Table columns={columns} rows={rows} selected={selected} empty={filter ? `nothing shows "${filter}"` : 'no apps yet (svc app create)'} />
}
