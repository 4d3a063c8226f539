/**
 * The open reports, oldest first: which post, whose, who reported it and
 * what it said when reported. `R` resolves the selected report with a note;
 * `X` removes the reported post with a reason (which resolves its reports).
 */
import type { ReportFacts } from '../../data/index.js'
import { useKeys } from '../key-router.js'
import { useAdminList } from '../use-admin-list.js'
import { useSelection } from '../use-selection.js'
import type { KeyDoc } from './key-help.js'
import { matching, Table, type Column } from './table.js'
import { shortTime, type ViewProps } from './view-props.js'

const columns: readonly Column<ReportFacts>[] = [
  { title: 'ID', width: 4, value: (r) => String(r.id) },
  { title: 'POST', width: 6, value: (r) => String(r.post_id) },
  { title: 'AUTHOR', width: 10, value: (r) => `@${r.author}` },
  { title: 'BY', width: 10, value: (r) => `@${r.reporter}` },
  { title: 'WHEN', width: 16, value: (r) => shortTime(r.created_at) },
  { title: 'SAID / REASON', width: 26, value: (r) => `"${r.content.text.replace(/\s+/g, ' ')}"${r.reason ? ` ${r.reason}` : ''}` },
]

export const reportsKeys: readonly KeyDoc[] = [
  ['R', 'resolve the report, with a note on what was done'],
  ['X', 'remove the reported post, with a reason (its reports resolve)'],
]

export function ReportsView({ client, controls, active, refresh, filter }: ViewProps) {
  const { items, reload } = useAdminList<ReportFacts>(client, 'report.list', controls, refresh)
  const rows = matching(items, columns, filter)
  const selected = useSelection(rows, (r) => String(r.id), active)
  const report = rows?.[selected]

  useKeys((input) => {
    if (!report || (input !== 'R' && input !== 'X')) return
    if (input === 'R') {
      controls.ask(`resolve report #${report.id}: what was done? (Enter resolves, Esc cancels)`, async (note) => {
        await client.call('report.resolve', { id: report.id, ...(note.trim() ? { note: note.trim() } : {}) })
        reload()
        return `resolved report #${report.id}`
      })
      return
    }
    controls.ask(`remove post ${report.post_id} by @${report.author}? type the reason (Esc cancels)`, async (reason) => {
      if (reason.trim() === '') throw new Error('no reason given: nothing removed')
      await client.call('post.delete', { id: report.post_id, reason: reason.trim() })
      reload()
      return `removed post ${report.post_id}`
    })
  }, active)

  return <Table columns={columns} rows={rows} selected={selected} empty={filter ? `nothing shows "${filter}"` : 'no open reports'} />
}
