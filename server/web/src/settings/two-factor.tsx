/**
 * The "Two-factor sign-in" section: where it stands, turning it on (see
 * two-factor-setup.tsx), new recovery codes, turning it off (password and
 * a code), and the app passwords of apps that sign in with a password.
 * Each change signs the account out everywhere else; this browser stays.
 */
import { useCallback, useEffect, useId, useState } from 'react'
import { api, ApiError } from '../api/client'
import type { TwoFactorChange, TwoFactorStatus } from '../../../api'
import { ErrorLine } from '../ui/error-line'
import { AppPasswords } from './app-passwords'
import { RecoveryCodes } from './recovery-codes'
import { TwoFactorSetupForm } from './two-factor-setup'

export function TwoFactorSettings() {
  const id = useId()
  const [status, setStatus] = useState<TwoFactorStatus | null>(null)
  const [codes, setCodes] = useState<string[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [renewCode, setRenewCode] = useState('')
  const [offPassword, setOffPassword] = useState('')
  const [offCode, setOffCode] = useState('')

  const load = useCallback(() => {
    api.get<TwoFactorStatus>('/users/me/two_factor').then(
      ({ data }) => setStatus(data),
      (err: unknown) => setError(err instanceof ApiError ? err.message : 'Two-factor sign-in could not be read.'),
    )
  }, [])
  useEffect(load, [load])

  const changed = (change: TwoFactorChange) => {
    const { recovery_codes, ...rest } = change
    setStatus(rest)
    setCodes(recovery_codes ?? null)
  }
  const send = async (path: string, body: object, fallback: string) => {
    setBusy(true)
    setError(null)
    try {
      changed((await api.post<TwoFactorChange>(path, body)).data)
      setRenewCode('')
      setOffPassword('')
      setOffCode('')
    } catch (err) {
      setError(err instanceof ApiError ? err.message : fallback)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="two-factor" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Two-factor sign-in</h2>
      {codes && <RecoveryCodes codes={codes} />}
      {!status ? null : !status.enabled ? (
        <>
          <p className="hint">Off. With it on, signing in asks for a code from an app on your phone after your password.</p>
          <TwoFactorSetupForm onEnabled={changed} />
        </>
      ) : (
        <>
          <p className="status">
            On. {status.recovery_codes_left} recovery {status.recovery_codes_left === 1 ? 'code' : 'codes'} left.
          </p>
          <form
            onSubmit={(e) => {
              e.preventDefault()
              void send('/users/me/two_factor/recovery_codes', { code: renewCode }, 'No new codes were made.')
            }}
          >
            <label htmlFor={`${id}-renew`}>New recovery codes (the old ones stop working): a code from your app</label>
            <input id={`${id}-renew`} value={renewCode} onChange={(e) => setRenewCode(e.target.value)} autoComplete="one-time-code" required />
            <button type="submit" disabled={busy}>
              Make new recovery codes
            </button>
          </form>
          <form
            onSubmit={(e) => {
              e.preventDefault()
              void send('/users/me/two_factor/disable', { password: offPassword, code: offCode }, 'Two-factor sign-in is still on.')
            }}
          >
            <label htmlFor={`${id}-off-password`}>Your password</label>
            <input
              id={`${id}-off-password`}
              type="password"
              value={offPassword}
              onChange={(e) => setOffPassword(e.target.value)}
              autoComplete="current-password"
              required
            />
            <label htmlFor={`${id}-off-code`}>A code from your app, or a recovery code</label>
            <input id={`${id}-off-code`} value={offCode} onChange={(e) => setOffCode(e.target.value)} autoComplete="one-time-code" required />
            <button type="submit" disabled={busy}>
              Turn off two-factor sign-in
            </button>
          </form>
          <AppPasswords />
        </>
      )}
      <ErrorLine message={error} />
    </section>
  )
}
