/** "Where you're signed in": the account's live tokens (never the tokens themselves), each with End, and "Sign out everywhere else". */
import { useCallback, useEffect, useId, useState } from 'react'
import type { AccountSession, SignedOutElsewhere } from '../../../api'
import { api, ApiError } from '../api/client'
import { TimeAgo } from '../ui/time'

const messageOf = (err: unknown, fallback: string): string => (err instanceof ApiError ? err.message : fallback)

export function Sessions({ refresh = 0 }: { refresh?: number }) {
  const id = useId()
  const [sessions, setSessions] = useState<AccountSession[] | null>(null)
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState(false)

  const load = useCallback(() => {
    api.get<AccountSession[]>('/users/me/sessions').then(
      ({ data }) => setSessions(data),
      (err: unknown) => setStatus({ error: true, text: messageOf(err, 'Where you are signed in could not be read.') }),
    )
  }, [])
  useEffect(load, [load, refresh])

  const end = async (session: AccountSession) => {
    setBusy(true)
    setStatus(null)
    try {
      setSessions((await api.delete<AccountSession[]>(`/users/me/sessions/${session.id}`)).data)
      setStatus({ error: false, text: `Signed out of ${session.app_name}.` })
    } catch (err) {
      setStatus({ error: true, text: messageOf(err, 'That session was not ended.') })
    } finally {
      setBusy(false)
    }
  }

  const endOthers = async () => {
    setBusy(true)
    setStatus(null)
    try {
      const { data } = await api.delete<SignedOutElsewhere>('/users/me/sessions')
      setStatus({ error: false, text: `Signed out everywhere else (${data.sessions_ended} ${data.sessions_ended === 1 ? 'session' : 'sessions'}).` })
      load()
    } catch (err) {
      setStatus({ error: true, text: messageOf(err, 'You were not signed out elsewhere.') })
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="sessions" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Where you&rsquo;re signed in</h2>
      {sessions && (
        <ul className="session-list">
          {sessions.map((s) => (
            <li key={s.id} data-testid="session">
              <strong>{s.app_name}</strong>
              {s.current && <span className="hint"> (this browser)</span>}
              <span className="hint">
                {' '}
                signed in <TimeAgo iso={s.created_at} />
              </span>
              {!s.current && (
                <button type="button" disabled={busy} onClick={() => void end(s)} aria-label={`End the session in ${s.app_name}`}>
                  End
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="form-bar">
        <p aria-live="polite" className={status?.error ? 'error' : 'status'}>
          {status?.text}
        </p>
        <button type="button" disabled={busy || !sessions?.some((s) => !s.current)} onClick={() => void endOthers()}>
          Sign out everywhere else
        </button>
      </div>
    </section>
  )
}
