/**
 * The question the console asks in place of its status line, with what the
 * operator typed so far (dots for a password). use-controls.ts has its
 * keys: a confirmation closes on any key (only y confirms), a typed answer
 * on Enter, or Esc to cancel.
 */
import { Text } from 'ink'
import type { Dialog } from './use-controls.js'

export const DialogLine = ({ dialog, typed }: { dialog: Dialog; typed: string }) => (
  <Text color="yellow">
    {dialog.question} {dialog.kind === 'ask' && dialog.masked ? '•'.repeat([...typed].length) : typed}
    {dialog.kind === 'ask' && <Text inverse> </Text>}
  </Text>
)
