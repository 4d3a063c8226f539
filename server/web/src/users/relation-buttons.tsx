/** Follow, mute and block toggles for another person; each answers the changed user, handed to `onChange`. */
import { useState } from 'react'
import { api, ApiError } from '../api/client'
import type { User } from '../../../api'
import { ErrorLine } from '../ui/error-line'

type Relation = 'follow' | 'mute' | 'block'

const LABELS: Record<Relation, { on: string; off: string; flag: keyof User }> = {
  follow: { on: 'Following', off: 'Follow', flag: 'you_follow' },
  mute: { on: 'Muted', off: 'Mute', flag: 'you_muted' },
  block: { on: 'Blocked', off: 'Block', flag: 'you_blocked' },
}

export function useRelation(user: User, onChange: (user: User) => void) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const toggle = async (relation: Relation) => {
    setBusy(true)
    setError(null)
    try {
      const path = `/users/${user.id}/${relation}`
      const { data } = user[LABELS[relation].flag] ? await api.delete<User>(path) : await api.post<User>(path)
      onChange(data)
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'That did not work; try again.')
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, toggle }
}

function Toggle({ user, relation, busy, onToggle }: { user: User; relation: Relation; busy: boolean; onToggle(r: Relation): void }) {
  const { on, off, flag } = LABELS[relation]
  const active = Boolean(user[flag])
  return (
    <button
      type="button"
      className={relation === 'follow' && !active ? 'primary' : relation === 'block' ? 'danger' : undefined}
      aria-pressed={active}
      disabled={busy || (relation === 'follow' && !active && user.you_can_follow === false)}
      onClick={() => onToggle(relation)}
    >
      {active ? on : off}
      <span className="visually-hidden"> @{user.username}</span>
    </button>
  )
}

/** The follow button alone (in lists) or all three (on a profile). */
export function RelationButtons({ user, onChange, only }: { user: User; onChange(user: User): void; only?: Relation }) {
  const { busy, error, toggle } = useRelation(user, onChange)
  const relations: Relation[] = only ? [only] : ['follow', 'mute', 'block']
  return (
    <div className="relations">
      {relations.map((r) => (
        <Toggle key={r} user={user} relation={r} busy={busy} onToggle={(x) => void toggle(x)} />
      ))}
      <ErrorLine message={error} />
    </div>
  )
}
