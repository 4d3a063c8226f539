/** The registered client apps, oldest first. */
import { ListView } from './list-view.js'
import type { Column } from './table.js'
import { shortTime, type ViewProps } from './view-props.js'

interface App {
  id: string
  client_id: string
  name: string
  redirect_uris: string[]
  created_at?: string
}

const columns: readonly Column<App>[] = [
  { title: 'ID', width: 6, value: (a) => a.id },
  { title: 'NAME', width: 20, value: (a) => a.name },
  { title: 'CLIENT ID', width: 24, value: (a) => a.client_id },
  { title: 'CREATED', width: 16, value: (a) => shortTime(a.created_at) },
  { title: 'REDIRECT URIS', width: 28, value: (a) => a.redirect_uris.join(' ') || '-' },
]

export const AppsView = (props: ViewProps) => <ListView {...props} op="app.list" columns={columns} empty="no apps yet (svc app create)" />
