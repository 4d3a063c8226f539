/** The "Password" section: a new password, proved with the current one; every other place the account is signed in is signed out, this browser stays. */
import { useId, useState } from 'react'
import type { SignedOutElsewhere } from '../../../api'
import { api, ApiError } from '../api/client'

export function PasswordChange({ onChanged }: { onChanged?(): void }) {
  const id = useId()
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [again, setAgain] = useState('')
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async () => {
    if (next !== again) return setStatus({ error: true, text: 'The new password and its repetition differ.' })
    setBusy(true)
    setStatus(null)
    try {
      const { data } = await api.post<SignedOutElsewhere>('/users/me/password', { current_password: current, new_password: next })
      setCurrent('')
      setNext('')
      setAgain('')
      const elsewhere = data.sessions_ended === 0 ? '' : ` Signed out of ${data.sessions_ended} other ${data.sessions_ended === 1 ? 'place' : 'places'}.`
      setStatus({ error: false, text: `Your password is changed.${elsewhere}` })
      onChanged?.()
    } catch (err) {
      setStatus({ error: true, text: err instanceof ApiError ? err.message : 'Your password was not changed.' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="password-change" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Password</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <p className="hint">Changing it signs you out everywhere else; you stay signed in here.</p>
        <label htmlFor={`${id}-current`}>Current password</label>
        <input id={`${id}-current`} type="password" value={current} required autoComplete="current-password" onChange={(e) => setCurrent(e.target.value)} />
        <label htmlFor={`${id}-new`}>New password</label>
        <input id={`${id}-new`} type="password" value={next} required autoComplete="new-password" onChange={(e) => setNext(e.target.value)} />
        <label htmlFor={`${id}-again`}>New password again</label>
        <input id={`${id}-again`} type="password" value={again} required autoComplete="new-password" onChange={(e) => setAgain(e.target.value)} />
        <div className="form-bar">
          <p aria-live="polite" className={status?.error ? 'error' : 'status'}>
            {status?.text}
          </p>
          <button type="submit" className="primary" disabled={busy}>
            Change password
          </button>
        </div>
      </form>
    </section>
  )
}
