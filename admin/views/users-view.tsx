/** The accounts, oldest first. */
import type { AdminUser } from '../../data/index.js'
import { ListView } from './list-view.js'
import type { Column } from './table.js'
import { shortTime, type ViewProps } from './view-props.js'

const columns: readonly Column<AdminUser>[] = [
  { title: 'ID', width: 6, value: (u) => u.id },
  { title: 'USERNAME', width: 20, value: (u) => `@${u.username}` },
  { title: 'NAME', width: 30, value: (u) => u.name ?? '' },
  { title: 'TYPE', width: 6, value: (u) => u.type ?? '' },
  { title: 'CREATED', width: 16, value: (u) => shortTime(u.created_at) },
]

export const UsersView = (props: ViewProps) => <ListView {...props} op="user.list" columns={columns} empty="no users yet (svc user create)" />
