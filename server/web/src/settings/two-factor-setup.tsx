/** Turning two-factor sign-in on: the QR code and the secret as text for the authenticator app, then one of its codes to confirm. */
import { useId, useState } from 'react'
import { api, ApiError } from '../api/client'
import type { TwoFactorChange, TwoFactorSetup } from '../../../api'
import { ErrorLine } from '../ui/error-line'

export function TwoFactorSetupForm({ onEnabled }: { onEnabled(change: TwoFactorChange): void }) {
  const id = useId()
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null)
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const run = async (work: () => Promise<void>, fallback: string) => {
    setBusy(true)
    setError(null)
    try {
      await work()
    } catch (err) {
      setError(err instanceof ApiError ? err.message : fallback)
    } finally {
      setBusy(false)
    }
  }
  const begin = () => run(async () => setSetup((await api.post<TwoFactorSetup>('/users/me/two_factor/setup', {})).data), 'Set-up could not start.')
  const confirm = () =>
    run(async () => onEnabled((await api.post<TwoFactorChange>('/users/me/two_factor/confirm', { code })).data), 'The code was not checked.')

  if (!setup) {
    return (
      <div className="form-bar">
        <ErrorLine message={error} />
        <button type="button" className="primary" disabled={busy} onClick={() => void begin()}>
          Turn on two-factor sign-in
        </button>
      </div>
    )
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        void confirm()
      }}
    >
      <p>Scan this QR code with your authenticator app (or type the secret into it), then enter the code it shows.</p>
      <img src={setup.qr_code} alt="QR code for your authenticator app" width={200} height={200} />
      <p>
        Secret: <code className="totp-secret">{setup.secret}</code>
      </p>
      <label htmlFor={`${id}-code`}>Code from your app</label>
      <input id={`${id}-code`} value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" autoComplete="one-time-code" required />
      <div className="form-bar">
        <ErrorLine message={error} />
        <button type="submit" className="primary" disabled={busy || code.trim() === ''}>
          Confirm
        </button>
      </div>
    </form>
  )
}
