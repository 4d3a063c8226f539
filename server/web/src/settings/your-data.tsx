/**
 * "Your data": downloads the signed-in person's export (a ZIP the server
 * makes as it sends it) with their token, then hands it to the browser as
 * a file. A token from before the client asked for `export` is refused;
 * signing in again asks for it.
 */
import { useState } from 'react'
import type { Envelope } from '../../../api'
import { API, currentToken } from '../api/client'
import { useSession } from '../auth/session'
import { paths } from '../paths'

type Outcome = { kind: 'idle' | 'busy' | 'done' } | { kind: 'error'; message: string } | { kind: 'needs-sign-in' }

/** The name the server gave the file, else a plain one. */
const fileNameOf = (res: Response): string => /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'svc-export.zip'

/** Hands `blob` to the browser as a download called `name`. */
function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  document.body.append(link)
  link.click()
  link.remove()
  // The browser has taken the file once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

async function download(): Promise<Outcome> {
  let res: Response
  try {
    res = await fetch(`${API}/users/me/export`, { headers: { Authorization: `Bearer ${currentToken() ?? ''}` } })
  } catch {
    return { kind: 'error', message: 'The server cannot be reached. Check your connection and try again.' }
  }
  if (res.ok) {
    save(await res.blob(), fileNameOf(res))
    return { kind: 'done' }
  }
  const envelope = (await res.json().catch(() => null)) as Envelope<unknown> | null
  if (res.status === 403 && envelope?.meta.error_slug === 'insufficient-scope') return { kind: 'needs-sign-in' }
  return { kind: 'error', message: envelope?.meta.error_message ?? `The server answered ${res.status}.` }
}

export function YourData() {
  const { signIn } = useSession()
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' })
  const start = async () => {
    setOutcome({ kind: 'busy' })
    setOutcome(await download())
  }
  return (
    <>
      <h2>Your data</h2>
      <p className="hint">
        A ZIP of your profile, posts, stars, follows, conversations and files, in the API&rsquo;s own JSON; a README inside says what each file holds.
      </p>
      <button type="button" disabled={outcome.kind === 'busy'} onClick={() => void start()}>
        Download your data
      </button>
      <p aria-live="polite" className={outcome.kind === 'error' ? 'error' : 'status'}>
        {outcome.kind === 'busy'
          ? 'Preparing your download…'
          : outcome.kind === 'done'
            ? 'Your download has started.'
            : outcome.kind === 'error'
              ? outcome.message
              : outcome.kind === 'needs-sign-in'
                ? 'You signed in here before downloads were possible. Sign in again to allow this device to download your data.'
                : ''}
      </p>
      {outcome.kind === 'needs-sign-in' && (
        <button type="button" onClick={() => signIn(paths.settings)}>
          Sign in again
        </button>
      )}
    </>
  )
}
