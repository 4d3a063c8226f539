/**
 * "Delete your account", in a danger zone: a dialog asks the password (and a
 * code while two-factor sign-in is on) and the username typed out, then the
 * server deletes the account as the operator's `svc user delete` does. The
 * browser is signed out and the landing page says it is done.
 */
import { useId, useState } from 'react'
import { useLocation } from 'wouter'
import type { DeletedAccount, TwoFactorStatus } from '../../../api'
import { api, ApiError } from '../api/client'
import { leaveNotice } from '../auth/notice'
import { useSession } from '../auth/session'
import { Dialog } from '../ui/dialog'

export function DeleteAccount({ username }: { username: string }) {
  const id = useId()
  const { signOut } = useSession()
  const [, navigate] = useLocation()
  const [open, setOpen] = useState(false)
  const [needsCode, setNeedsCode] = useState(false)
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const [typed, setTyped] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const start = () => {
    setPassword('')
    setCode('')
    setTyped('')
    setError(null)
    setOpen(true)
    api.get<TwoFactorStatus>('/users/me/two_factor').then(
      ({ data }) => setNeedsCode(data.enabled),
      () => setNeedsCode(false),
    )
  }

  const confirm = async () => {
    setBusy(true)
    setError(null)
    try {
      await api.delete<DeletedAccount>('/users/me', undefined, needsCode ? { password, code } : { password })
      leaveNotice(`Your account @${username} is deleted. Thank you for having been here.`)
      setOpen(false)
      await signOut()
      navigate('/')
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Your account was not deleted.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="danger-zone" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Danger zone</h2>
      <p className="hint">Deleting your account removes your profile, posts, stars and follows for good. Your username becomes free for others.</p>
      <button type="button" className="danger" onClick={start}>
        Delete your account
      </button>
      <Dialog title="Delete your account?" open={open} onClose={() => setOpen(false)}>
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void confirm()
          }}
        >
          <p>This cannot be undone.</p>
          <label htmlFor={`${id}-password`}>Your password</label>
          <input
            id={`${id}-password`}
            type="password"
            value={password}
            required
            autoComplete="current-password"
            onChange={(e) => setPassword(e.target.value)}
          />
          {needsCode && (
            <>
              <label htmlFor={`${id}-code`}>A code from your authenticator app, or a recovery code</label>
              <input id={`${id}-code`} value={code} required autoComplete="one-time-code" onChange={(e) => setCode(e.target.value)} />
            </>
          )}
          <label htmlFor={`${id}-typed`}>Type your username, {username}, to confirm</label>
          <input id={`${id}-typed`} value={typed} required autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
          <p aria-live="polite" className="error">
            {error}
          </p>
          <div className="dialog-bar">
            <button type="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="submit" className="primary danger-fill" disabled={busy || typed.trim().replace(/^@/, '') !== username}>
              Delete my account
            </button>
          </div>
        </form>
      </Dialog>
    </section>
  )
}
