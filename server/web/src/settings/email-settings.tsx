/** The person's e-mail address: whether it is confirmed, a new confirmation mail, and a change proved with the password. */
import { useEffect, useId, useState } from 'react'
import { api, ApiError } from '../api/client'
import type { AccountEmail } from '../../../api'

const messageOf = (err: unknown, fallback: string): string => (err instanceof ApiError ? err.message : fallback)

export function EmailSettings() {
  const id = useId()
  const [email, setEmail] = useState<AccountEmail | null>(null)
  const [address, setAddress] = useState('')
  const [password, setPassword] = useState('')
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    api.get<AccountEmail>('/users/me/email').then(
      ({ data }) => {
        setEmail(data)
        setAddress(data.address ?? '')
      },
      (err: unknown) => setStatus({ error: true, text: messageOf(err, 'Your e-mail address could not be read.') }),
    )
  }, [])

  const run = async (call: () => Promise<{ data: AccountEmail }>, done: string, fallback: string) => {
    setBusy(true)
    setStatus(null)
    try {
      const { data } = await call()
      setEmail(data)
      setAddress(data.address ?? '')
      setPassword('')
      setStatus({ error: false, text: data.notice ?? done })
    } catch (err) {
      setStatus({ error: true, text: messageOf(err, fallback) })
    } finally {
      setBusy(false)
    }
  }

  const heading = <h2>E-mail</h2>
  if (!email)
    return (
      <>
        {heading}
        <p className="status">{status?.text ?? 'Loading…'}</p>
      </>
    )
  const state = email.address === null ? 'No address.' : email.confirmed ? 'Confirmed.' : 'Not confirmed yet.'
  return (
    <>
      {heading}
      <form
        className="email-settings"
        onSubmit={(e) => {
          e.preventDefault()
          void run(() => api.put<AccountEmail>('/users/me/email', { address, password }), 'Your address is saved.', 'Your address was not saved.')
        }}
      >
        <p className="hint">Only you see it. {email.mail_available ? 'It lets you set a new password if you forget yours.' : 'This instance sends no mail.'}</p>
        <label htmlFor={`${id}-address`}>E-mail address</label>
        <input id={`${id}-address`} type="email" value={address} required={email.required} autoComplete="email" onChange={(e) => setAddress(e.target.value)} />
        <p className="hint" data-testid="email-state">
          {state}
        </p>
        <label htmlFor={`${id}-password`}>Your password, to change it</label>
        <input id={`${id}-password`} type="password" value={password} required autoComplete="current-password" onChange={(e) => setPassword(e.target.value)} />
        <div className="form-bar">
          <p aria-live="polite" className={status?.error ? 'error' : 'status'}>
            {status?.text}
          </p>
          {email.address !== null && !email.confirmed && email.mail_available && (
            <button
              type="button"
              disabled={busy}
              onClick={() => void run(() => api.post<AccountEmail>('/users/me/email/confirmation'), 'A new mail is on its way.', 'No mail was sent.')}
            >
              Send the mail again
            </button>
          )}
          <button type="submit" className="primary" disabled={busy}>
            Save address
          </button>
        </div>
      </form>
    </>
  )
}
