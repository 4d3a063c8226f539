/**
 * Writing a message: Enter sends, Shift+Enter starts a new line, a counter
 * of what is left of the message limit, and the server's error when it
 * refuses (the text stays to be fixed). `children` go above the text (the
 * recipients of a new conversation).
 */
import { useId, useRef, useState, type ReactNode } from 'react'
import { MESSAGE_MAX_LENGTH } from './pm'
import { ErrorLine } from '../ui/error-line'

interface SendBoxProps {
  label: string
  /** Sends the text; a rejection's message is shown. */
  onSend(text: string): Promise<void>
  children?: ReactNode
  autoFocus?: boolean
  className?: string
}

export function SendBox({ label, onSend, children, autoFocus = false, className = '' }: SendBoxProps) {
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const area = useRef<HTMLTextAreaElement>(null)
  const id = useId()
  const left = MESSAGE_MAX_LENGTH - Array.from(text).length
  const blocked = sending || left < 0 || text.trim() === ''

  const send = async () => {
    if (blocked) return
    setSending(true)
    setError(null)
    try {
      await onSend(text)
      setText('')
      area.current?.focus()
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : 'The message was not sent.')
    } finally {
      setSending(false)
    }
  }

  return (
    <form
      className={`send-box ${className}`}
      onSubmit={(e) => {
        e.preventDefault()
        void send()
      }}
    >
      {children}
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        ref={area}
        value={text}
        rows={2}
        autoFocus={autoFocus}
        aria-describedby={`${id}-hint`}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault()
            void send()
          }
        }}
      />
      <div className="compose-bar">
        <span id={`${id}-hint`} className="hint">
          Enter sends, Shift+Enter starts a new line.
        </span>
        <span className={left < 0 ? 'counter over' : 'counter'} aria-live="polite">
          {left} characters left
        </span>
        <button type="submit" className="primary" disabled={blocked}>
          {sending ? 'Sending…' : 'Send'}
        </button>
      </div>
      <ErrorLine message={error} />
    </form>
  )
}
