/**
 * The question the console asks in place of its status line, with what the
 * operator typed so far (dots for a password). use-controls.ts has its
 * keys: a confirmation closes on any key (only y confirms), a typed answer
 * on Enter, or Esc to cancel; a refused answer is asked again under its reason.
 */
import { Box, Text } from 'ink'
import type { Dialog } from './use-controls.js'

export const DialogLine = ({ dialog, typed }: { dialog: Dialog; typed: string }) => (
  <Box flexDirection="column">
    {dialog.kind === 'ask' && dialog.error && <Text color="red">error: {dialog.error} (type again, or Esc)</Text>}
    <Text color="yellow">
      {dialog.question} {dialog.kind === 'ask' && dialog.masked ? '•'.repeat([...typed].length) : typed}
      {dialog.kind === 'ask' && (dialog.waiting ? <Text dimColor> …</Text> : <Text inverse> </Text>)}
    </Text>
  </Box>
)
