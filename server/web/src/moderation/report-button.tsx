/**
 * "Report" on someone else's post, profile or message: a dialog asks why
 * (optional) and sends it to the instance's operator. A post's or an
 * account's report also mutes the account, as App.net's did, so the dialog
 * says so before it is sent.
 */
import { useId, useState } from 'react'
import { api, ApiError } from '../api/client'
import { Dialog } from '../ui/dialog'
import { ErrorLine } from '../ui/error-line'

/** The most a reason may hold, as the server takes it. */
const REASON_MAX = 1000

interface ReportButtonProps {
  /** The API path of the report call, e.g. `/posts/12/report`. */
  path: string
  /** What is reported, for the labels: "post", "account", "message". */
  what: string
  /** Whose it is, for the accessible name and the dialog. */
  username: string
  /** Reporting a post or an account mutes its author for the reporter. */
  mutes: boolean
  /** Handed the API's answer (the reported object), so the caller can show the mute. */
  onReported?(answer: unknown): void
}

export function ReportButton(props: ReportButtonProps) {
  const [open, setOpen] = useState(false)
  const [done, setDone] = useState(false)
  return (
    <>
      <button type="button" data-action="report" disabled={done} onClick={() => setOpen(true)}>
        {done ? 'Reported' : 'Report'}
        <span className="visually-hidden">
          {' '}
          {props.what} by @{props.username}
        </span>
      </button>
      <ReportDialog
        {...props}
        open={open}
        onClose={() => setOpen(false)}
        onReported={(answer) => {
          setDone(true)
          props.onReported?.(answer)
        }}
      />
    </>
  )
}

/** The report's dialog alone, for a caller with its own way in (a post's menu). */
export function ReportDialog({ path, what, username, mutes, open, onClose, onReported }: ReportButtonProps & { open: boolean; onClose(): void }) {
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState(false)
  const reasonId = useId()
  const send = async () => {
    setBusy(true)
    setError(null)
    try {
      const { data } = await api.post<unknown>(path, reason.trim() ? { reason: reason.trim() } : undefined)
      setDone(true)
      onReported?.(data)
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'That did not work; try again.')
    } finally {
      setBusy(false)
    }
  }
  const close = () => {
    onClose()
    setReason('')
    setError(null)
  }
  return (
    <>
      {open && (
        <Dialog title={done ? 'Thanks for telling us' : `Report this ${what} by @${username}?`} open={open} onClose={close}>
          {done ? (
            <p role="status">
              The operator of this instance will look at it.{mutes ? ` You will not see @${username} any more (Unmute on their profile).` : ''}
            </p>
          ) : (
            <form
              onSubmit={(event) => {
                event.preventDefault()
                void send()
              }}
            >
              <p>
                Your report goes to this instance’s operator, with the {what} as it is now.
                {mutes ? ` @${username} will be muted for you.` : ''}
              </p>
              <label htmlFor={reasonId}>Why? (optional)</label>
              <textarea id={reasonId} value={reason} maxLength={REASON_MAX} rows={3} onChange={(e) => setReason(e.target.value)} />
              <ErrorLine message={error} />
              <div className="dialog-bar">
                <button type="button" onClick={close}>
                  Cancel
                </button>
                <button type="submit" className="primary danger-fill" disabled={busy}>
                  Report
                </button>
              </div>
            </form>
          )}
          {done && (
            <div className="dialog-bar">
              <button type="button" autoFocus onClick={close}>
                Close
              </button>
            </div>
          )}
        </Dialog>
      )}
    </>
  )
}
