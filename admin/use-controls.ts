/**
 * What the console offers its views: run an admin action with its outcome
 * on the status line, or first ask the operator (a y/n confirmation, a typed
 * answer). A failed action is a status line, never a crash.
 */
import { useMemo, useState } from 'react'

/** An action's work; the message it answers (if any) goes on the status line. */
export type Work = () => Promise<string | void>

export interface Status {
  tone: 'info' | 'done' | 'error'
  text: string
}

export type Dialog = { kind: 'confirm'; question: string; work: Work } | { kind: 'ask'; question: string; work: (answer: string) => Promise<string | void> }

export interface Controls {
  act(work: Work): void
  /** Shows `message` as an error on the status line. */
  fail(message: string): void
  confirm(question: string, work: Work): void
  ask(question: string, work: (answer: string) => Promise<string | void>): void
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]

export function useControls(initial: Status) {
  const [status, setStatus] = useState<Status>(initial)
  const [dialog, setDialog] = useState<Dialog | null>(null)

  // Stable, so that views may start loads from effects that depend on it.
  const controls = useMemo<Controls>(() => {
    const act = (work: Work) => {
      // Async, so that work that throws at once still ends on the status line.
      const run = async () => work()
      run().then(
        (message) => {
          if (message) setStatus({ tone: 'done', text: message })
        },
        (err: unknown) => setStatus({ tone: 'error', text: messageOf(err) }),
      )
    }
    return {
      act,
      fail: (message) => setStatus({ tone: 'error', text: message }),
      confirm: (question, work) => setDialog({ kind: 'confirm', question, work }),
      ask: (question, work) => setDialog({ kind: 'ask', question, work }),
    }
  }, [])

  /** Closes the dialog with the operator's reply (`null`: cancelled, as is anything but y to a confirmation). */
  const reply = (answer: string | null) => {
    if (!dialog) return
    setDialog(null)
    if (answer === null || (dialog.kind === 'confirm' && answer !== 'y')) setStatus({ tone: 'info', text: 'cancelled' })
    else if (dialog.kind === 'confirm') controls.act(dialog.work)
    else controls.act(() => dialog.work(answer))
  }

  return { status, dialog, controls, reply }
}
