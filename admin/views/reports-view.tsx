/**
 * The open reports, oldest first: which post, account or message, whose,
 * who reported it and what it said when reported. `R` resolves the
 * selected report with a note; `X` acts on what it names: removes the post
 * or the message with a reason, or suspends the account (each resolves its
 * reports).
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
  { title: 'WHAT', width: 10, value: (r) => whatOf(r) },
  { title: 'AUTHOR', width: 10, value: (r) => `@${r.author}` },
  { title: 'BY', width: 10, value: (r) => `@${r.reporter}` },
  { title: 'WHEN', width: 16, value: (r) => shortTime(r.created_at) },
  { title: 'SAID / REASON', width: 26, value: (r) => `"${r.content.text.replace(/\s+/g, ' ')}"${r.reason ? ` ${r.reason}` : ''}` },
]

export const reportsKeys: readonly KeyDoc[] = [
  ['R', 'resolve the report, with a note on what was done'],
  ['X', 'remove the reported post or message, with a reason, or suspend the reported account (its reports resolve)'],
]

/** What a report names, in a few characters: `post 42`, `@bob`, `msg 7`. */
export const whatOf = (r: ReportFacts): string => (r.kind === 'user' ? `@${r.author}` : `${r.kind === 'post' ? 'post' : 'msg'} ${r.post_id ?? r.message_id}`)

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
    if (report.kind === 'user') {
      controls.confirm(`suspend @${report.author}? their posts hide and their tokens stop working (y/n)`, async () => {
        await client.call('user.suspend', { username: report.author })
        reload()
        return `suspended @${report.author}`
      })
      return
    }
    const [operation, id] = report.kind === 'post' ? (['post.delete', report.post_id] as const) : (['message.delete', report.message_id] as const)
    controls.ask(`remove ${whatOf(report)} by @${report.author}? type the reason (Esc cancels)`, async (reason) => {
      if (reason.trim() === '') throw new Error('no reason given: nothing removed')
      await client.call(operation, { id, reason: reason.trim() })
      reload()
      return `removed ${whatOf(report)}`
    })
  }, active)

  return <Table columns={columns} rows={rows} selected={selected} empty={filter ? `nothing shows "${filter}"` : 'no open reports'} />
}
