/**
 * Every filter, live: users' own and app streams' inline ones, with their
 * policy and clauses in words and how many app streams use each; the
 * selected filter's clauses in full in a pane below.
 */
import type { FilterLine, FiltersPicture } from '../../data/index.js'
import { FilterDetail, filterDetailLines } from './filter-detail.js'
import type { KeyDoc } from './key-help.js'
import { ListWithDetail, useLiveRows } from './live-list.js'
import type { Column } from './table.js'
import type { ViewProps } from './view-props.js'

export const filtersKeys: readonly KeyDoc[] = [['↑↓', 'select a filter: its clauses show below']]

const columns: readonly Column<FilterLine>[] = [
  { title: 'ID', width: 4, value: (f) => f.id },
  { title: 'OWNER', width: 16, value: (f) => f.owner },
  { title: 'NAME', width: 14, value: (f) => f.name ?? '-' },
  { title: 'POLICY', width: 11, value: (f) => f.match_policy },
  { title: 'STREAMS', width: 7, value: (f) => String(f.streams) },
  { title: 'CLAUSES', width: 40, value: (f) => f.clauses.join('; ') },
]

export function FiltersView(props: ViewProps) {
  const { rows, selected, chosen } = useLiveRows<FiltersPicture, FilterLine>(
    props,
    'filters',
    (p) => p.filters,
    () => columns,
    (f) => f.id,
  )
  return (
    <ListWithDetail
      columns={columns}
      rows={rows}
      selected={selected}
      reserve={filterDetailLines}
      empty={props.filter ? `no filter shows "${props.filter}"` : 'no filters (users make them with POST /filters)'}
    >
      {chosen && <FilterDetail heading={`${chosen.owner}, used by ${chosen.streams} app stream${chosen.streams === 1 ? '' : 's'}`} filter={chosen} />}
    </ListWithDetail>
  )
}
