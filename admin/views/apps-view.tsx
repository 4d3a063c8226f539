/** The registered client apps, oldest first. */
import type { AppFacts } from '../../data/index.js'
import { ListView } from './list-view.js'
import type { Column } from './table.js'
import { shortTime, type ViewProps } from './view-props.js'

const columns: readonly Column<AppFacts>[] = [
  { title: 'ID', width: 6, value: (a) => a.id },
  { title: 'NAME', width: 20, value: (a) => a.name },
  { title: 'CLIENT ID', width: 24, value: (a) => a.client_id },
  { title: 'CREATED', width: 16, value: (a) => shortTime(a.created_at) },
  { title: 'REDIRECT URIS', width: 28, value: (a) => a.redirect_uris.join(' ') || '-' },
]

export const AppsView = (props: ViewProps) => <ListView {...props} op="app.list" columns={columns} empty="no apps yet (svc app create)" />
