/** The outcome of the last thing the operator did, or the server's reason it failed. */
import { Text } from 'ink'
import type { Status } from './use-controls.js'

const color = { info: undefined, done: 'green', error: 'red' } as const

export const StatusLine = ({ status }: { status: Status }) => (
  <Text color={color[status.tone]} dimColor={status.tone === 'info'} wrap="truncate-end">
    {status.tone === 'error' ? `error: ${status.text}` : status.text}
  </Text>
)
