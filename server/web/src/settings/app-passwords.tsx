/** App passwords: one per app that signs in with a password (the password grant), made here, shown once, revoked here. */
import { useCallback, useEffect, useId, useState } from 'react'
import { api, ApiError } from '../api/client'
import type { AppPassword, CreatedAppPassword } from '../../../api'
import { ErrorLine } from '../ui/error-line'

export function AppPasswords() {
  const id = useId()
  const [list, setList] = useState<AppPassword[]>([])
  const [name, setName] = useState('')
  const [made, setMade] = useState<CreatedAppPassword | null>(null)
  const [error, setError] = useState<string | null>(null)

  const fail = (fallback: string) => (err: unknown) => setError(err instanceof ApiError ? err.message : fallback)
  const load = useCallback(() => {
    api.get<AppPassword[]>('/users/me/app_passwords').then(({ data }) => setList(data), fail('The app passwords could not be read.'))
  }, [])
  useEffect(load, [load])

  const create = async () => {
    setError(null)
    try {
      setMade((await api.post<CreatedAppPassword>('/users/me/app_passwords', { name })).data)
      setName('')
      load()
    } catch (err) {
      fail('No app password was made.')(err)
    }
  }
  const revoke = (p: AppPassword) => {
    setError(null)
    api.delete(`/users/me/app_passwords/${p.id}`).then(load, fail('The app password was not revoked.'))
  }

  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>App passwords</h3>
      <p className="hint">An app that asks for your password (instead of opening this site to sign in) needs an app password now: make one for it here.</p>
      {made && (
        <p role="status">
          App password for {made.name}: <code className="app-password">{made.password}</code> (shown only now).
        </p>
      )}
      <ul>
        {list.map((p) => (
          <li key={p.id}>
            {p.name} <span className="hint">{p.last_used_at ? `last used ${new Date(p.last_used_at).toLocaleString()}` : 'never used'}</span>{' '}
            <button type="button" onClick={() => revoke(p)}>
              Revoke {p.name}
            </button>
          </li>
        ))}
      </ul>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void create()
        }}
      >
        <label htmlFor={`${id}-name`}>Name of the app</label>
        <input id={`${id}-name`} value={name} maxLength={50} onChange={(e) => setName(e.target.value)} required />
        <button type="submit">Make an app password</button>
      </form>
      <ErrorLine message={error} />
    </section>
  )
}
