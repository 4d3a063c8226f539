/** The outcome of the last thing the operator did, or the server's reason it failed; the keys when there is none. */
import { Text } from 'ink'
import type { Status } from './use-controls.js'

const color = { info: undefined, done: 'green', error: 'red' } as const

export const StatusLine = ({ status, filter }: { status: Status; filter: string }) => (
  <Text wrap="truncate-end">
    {filter !== '' && <Text color="cyan">{`/${filter} (Esc clears) · `}</Text>}
    {status.text === '' ? (
      <Text dimColor>? help · / search · g refresh · q quit</Text>
    ) : (
      <Text color={color[status.tone]} dimColor={status.tone === 'info'}>
        {status.tone === 'error' ? `error: ${status.text}` : status.text}
      </Text>
    )}
  </Text>
)
