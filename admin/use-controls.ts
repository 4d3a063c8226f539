/**
 * What the console offers its views: run an admin action with its outcome
 * on the status line, or first ask the operator (a y/n confirmation, a typed
 * answer). A failed action is a status line, never a crash. A lost server is
 * a status of its own (`lost`): the console retries, and the first answer
 * from the server clears it.
 *
 * A dialog takes the keys the moment it opens (see `useKeyCapture`), as the
 * search box does: "p42⏎" typed or pasted in one go opens the question and
 * answers it, though nothing was drawn in between. A typed answer keeps the
 * keys until the server has answered it: refused (a password too short), the
 * question is asked again under the reason, so what the operator types next
 * (the password again) is never taken for commands; keys typed while the
 * answer is on its way are dropped.
 */
import { useMemo, useState } from 'react'
import { AdminSocketUnreachable } from '../data/index.js'
import { useKeyCapture } from './key-router.js'
import { useTypedLine } from './use-typed-line.js'

/** An action's work; the message it answers (if any) goes on the status line. */
export type Work = () => Promise<string | void>

export interface Status {
  tone: 'info' | 'done' | 'error'
  text: string
  /** The server did not answer: cleared as soon as it does again. */
  lost?: boolean
}

export interface AskOptions {
  /** Show the answer as dots (a password). */
  masked?: boolean
}

export type Dialog =
  | { kind: 'confirm'; question: string; work: Work }
  | {
      kind: 'ask'
      question: string
      work: (answer: string) => Promise<string | void>
      masked: boolean
      /** Why the last answer was refused. */
      error?: string
      /** The answer is on its way to the server. */
      waiting?: boolean
    }

export interface Controls {
  act(work: Work): void
  /** Shows `message` as an error on the status line. */
  fail(message: string): void
  /** Shows what went wrong talking to the server (a lost server, or its refusal). */
  failed(err: unknown): void
  /** The server answered: a "no server answers" status goes. */
  answered(): void
  /** Empties the status line (another tab, another context). */
  clear(): void
  /** Asks y/n; any other key cancels. */
  confirm(question: string, work: Work): void
  /** Asks for a line of text: Enter answers, Esc cancels. */
  ask(question: string, work: (answer: string) => Promise<string | void>, options?: AskOptions): void
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]

export const idle: Status = { tone: 'info', text: '' }

export function useControls(initial: Status) {
  const [status, setStatus] = useState<Status>(initial)
  const [dialog, setDialog] = useState<Dialog | null>(null)
  const line = useTypedLine()
  const capture = useKeyCapture()

  // Stable, so that views may start loads from effects that depend on it.
  const controls = useMemo<Controls>(() => {
    const failed = (err: unknown) => setStatus({ tone: 'error', text: messageOf(err), lost: err instanceof AdminSocketUnreachable })
    const answered = () => setStatus((s) => (s.lost ? { tone: 'done', text: 'the server answers again' } : s))
    const act = (work: Work) => {
      // Async, so that work that throws at once still ends on the status line.
      const run = async () => work()
      run().then((message) => {
        if (message) setStatus({ tone: 'done', text: message })
        else answered()
      }, failed)
    }
    const shut = () => {
      // Keys after the answer (a paste) are the console's again, never a second answer.
      capture(null)
      setDialog(null)
    }
    /** Closes the dialog with the operator's reply (`null`: cancelled, as is anything but y to a confirmation). */
    const close = (d: Dialog, answer: string | null) => {
      if (answer === null || (d.kind === 'confirm' && answer !== 'y')) {
        shut()
        setStatus({ tone: 'info', text: 'cancelled' })
      } else if (d.kind === 'confirm') {
        shut()
        act(d.work)
      } else submit(d, answer)
    }
    const submit = (d: Extract<Dialog, { kind: 'ask' }>, answer: string) => {
      capture(() => undefined)
      setDialog({ ...d, waiting: true })
      const run = async () => d.work(answer)
      run().then(
        (message) => {
          shut()
          if (message) setStatus({ tone: 'done', text: message })
          else answered()
        },
        (err: unknown) => {
          if (err instanceof AdminSocketUnreachable) {
            shut()
            failed(err)
          } else open({ ...d, error: messageOf(err), waiting: false })
        },
      )
    }
    const open = (d: Dialog) => {
      line.set('')
      setDialog(d)
      capture((input, key) => {
        if (d.kind === 'confirm') close(d, input.toLowerCase())
        else if (key.escape) close(d, null)
        else if (key.return) close(d, line.typed.current)
        else line.type(input, key)
      })
    }
    return {
      act,
      fail: (message) => setStatus({ tone: 'error', text: message }),
      failed,
      answered,
      clear: () => setStatus(idle),
      confirm: (question, work) => open({ kind: 'confirm', question, work }),
      ask: (question, work, options = {}) => open({ kind: 'ask', question, work, masked: options.masked === true }),
    }
    // `line` and `capture` hold refs and state setters: the first render's work for every render.
  }, [])

  return { status, dialog, typed: line.shown, controls }
}
