/** The admin operations of reports: the operator's queue of what users reported, and closing a report. */
import { invalid } from '../errors.js'
import { idOf, type AdminOperation } from './admin-operation.js'

export const reportOperations = {
  /** `{all?}` → the open reports (every one with `all`), oldest first. */
  'report.list': async (domain, args) => {
    if (args.all !== undefined && typeof args.all !== 'boolean') throw invalid('all must be true or false')
    return domain.reports.list({ all: args.all === true })
  },
  /** `{id, note?}` → the report, closed with the note. */
  'report.resolve': async (domain, args) => {
    if (args.note !== undefined && typeof args.note !== 'string') throw invalid('note must be text')
    return domain.reports.factsOf(await domain.reports.resolve(idOf(args, 'report'), args.note as string | undefined))
  },
} satisfies Record<string, AdminOperation>
