/** A tab that only lists what one admin operation answers, with a movable selection. */
import { useAdminList } from '../use-admin-list.js'
import { useSelection } from '../use-selection.js'
import { Table, type Column } from './table.js'
import type { ViewProps } from './view-props.js'

export interface ListViewProps<R> extends ViewProps {
  op: string
  columns: readonly Column<R>[]
  empty: string
}

export function ListView<R>({ client, controls, active, refresh, op, columns, empty }: ListViewProps<R>) {
  const { items } = useAdminList<R>(client, op, controls, refresh)
  const selected = useSelection(items?.length ?? 0, active)
  return <Table columns={columns} rows={items} selected={selected} empty={empty} />
}
