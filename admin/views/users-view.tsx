/**
 * The accounts, oldest first, suspended ones and those waiting for approval
 * marked. `s` suspends the selected account or restores a suspended one,
 * `D` deletes it once the operator types its username, `P` sets a new
 * password (typed unseen); `a` lets in a waiting account, `r` turns it away.
 */
import type { AdminUser } from '../../data/index.js'
import { useKeys } from '../key-router.js'
import { useAdminList } from '../use-admin-list.js'
import { useSelection } from '../use-selection.js'
import type { KeyDoc } from './key-help.js'
import { matching, Table, type Column } from './table.js'
import { shortTime, type ViewProps } from './view-props.js'

// 78 columns with the selection mark: the list fits an 80-column terminal.
const columns: readonly Column<AdminUser>[] = [
  { title: 'ID', width: 4, value: (u) => u.id },
  { title: 'USERNAME', width: 16, value: (u) => `@${u.username}` },
  { title: 'NAME', width: 14, value: (u) => u.name ?? '' },
  { title: 'TYPE', width: 5, value: (u) => u.type ?? '' },
  { title: 'CREATED', width: 16, value: (u) => shortTime(u.created_at) },
  {
    title: 'STATE',
    width: 16,
    value: (u) => (u.suspended_at ? `susp. ${shortTime(u.suspended_at).slice(0, 10)}` : u.waiting_approval ? 'waiting approval' : ''),
  },
]

export const usersKeys: readonly KeyDoc[] = [
  ['s', 'suspend or restore'],
  ['D', 'delete (type the username)'],
  ['P', 'new password'],
  ['a', 'approve a waiting account'],
  ['r', 'reject a waiting account (it is removed)'],
]

export function UsersView({ client, controls, active, refresh, filter }: ViewProps) {
  const { items, reload } = useAdminList<AdminUser>(client, 'user.list', controls, refresh)
  const rows = matching(items, columns, filter)
  const selected = useSelection(rows, (u) => u.id, active)
  const user = rows?.[selected]

  const change = async (op: string, args: Record<string, unknown>, done: string): Promise<string> => {
    await client.call(op, args)
    reload()
    return done
  }

  useKeys((input) => {
    if (!user) return
    const { username } = user
    const name = `@${username}`
    if (input === 's' && user.suspended_at) {
      controls.confirm(`restore ${name}, suspended since ${shortTime(user.suspended_at)}? (y/n)`, () =>
        change('user.unsuspend', { username }, `restored ${name}`),
      )
    } else if (input === 's') {
      controls.confirm(`suspend ${name}? their posts hide and their tokens stop working (y/n)`, () => change('user.suspend', { username }, `suspended ${name}`))
    } else if (input === 'D') {
      controls.ask(`delete ${name} for good? type ${username} to confirm (Esc cancels)`, async (answer) => {
        if (answer.trim().replace(/^@/, '') !== username) throw new Error(`"${answer}" is not ${username}: nothing deleted`)
        return change('user.delete', { username }, `deleted ${name}`)
      })
    } else if ((input === 'a' || input === 'r') && !user.waiting_approval) {
      controls.fail(`${name} is not waiting for approval`)
    } else if (input === 'a') {
      const note = user.waiting_approval?.note ? ` They wrote: ${JSON.stringify(user.waiting_approval.note)}.` : ''
      controls.confirm(`let ${name} in? waiting since ${shortTime(user.waiting_approval?.since)}.${note} (y/n)`, () =>
        change('user.approve', { username }, `approved ${name}`),
      )
    } else if (input === 'r') {
      controls.confirm(`reject ${name}? the waiting account is removed and its name is free (y/n)`, () =>
        change('user.reject', { username }, `rejected ${name}`),
      )
    } else if (input === 'P') {
      controls.ask(
        `new password for ${name} (their tokens are revoked; Esc cancels)`,
        (password) => change('user.reset-password', { username, password }, `set a new password for ${name}`),
        { masked: true },
      )
    }
  }, active)

  return <Table columns={columns} rows={rows} selected={selected} empty={filter ? `nothing shows "${filter}"` : 'no users yet (svc user create)'} />
}
