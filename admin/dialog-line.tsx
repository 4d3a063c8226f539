/**
 * The question the console asks in place of its status line. It takes every
 * key while open: a confirmation closes on any key (only y confirms), a typed
 * answer on Enter, or Esc to cancel.
 */
import { Text } from 'ink'
import { useRef, useState } from 'react'
import { useKeys } from './key-router.js'
import type { Dialog } from './use-controls.js'

export function DialogLine({ dialog, reply }: { dialog: Dialog; reply: (answer: string | null) => void }) {
  // The typed text lives in a ref: a pasted "42⏎" arrives as keys handled
  // before React draws, and Enter must see the digits all the same.
  const typed = useRef('')
  const [shown, show] = useState('')
  const type = (text: string) => {
    typed.current = text
    show(text)
  }
  // Keys pasted after the answer must not answer twice before the dialog is gone.
  const answered = useRef(false)
  const answer = (text: string | null) => {
    if (answered.current) return
    answered.current = true
    reply(text)
  }
  useKeys((input, key) => {
    if (dialog.kind === 'confirm') answer(input.toLowerCase())
    else if (key.escape) answer(null)
    else if (key.return) answer(typed.current)
    else if (key.backspace || key.delete) type(typed.current.slice(0, -1))
    else if (!key.ctrl && !key.meta) type(typed.current + input)
  })
  return (
    <Text color="yellow">
      {dialog.question} {shown}
      {dialog.kind === 'ask' && <Text inverse> </Text>}
    </Text>
  )
}
