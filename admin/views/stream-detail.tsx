/** The pane under the Streams list: the selected stream in full, and its subscriptions. */
import { Box, Text } from 'ink'
import type { UserStreamFacts } from '../../data/index.js'
import { shortTime } from './view-props.js'

/** Subscriptions listed at most; the rest are counted. */
const MOST_SUBSCRIPTIONS = 4

/** Lines the pane takes at most (the list above leaves them room). */
export const streamDetailLines = MOST_SUBSCRIPTIONS + 4

const behind = (stream: UserStreamFacts, head: number): string => {
  const missing = head - stream.cursor
  return missing > 0 ? `${missing} events behind the log` : 'up to date with the log'
}

export function StreamDetail({ stream, head }: { stream: UserStreamFacts; head: number }) {
  const { subscriptions } = stream
  const state = stream.connected ? `connected since ${shortTime(stream.since)}` : `gone since ${shortTime(stream.since)}, waiting for a resume`
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text wrap="truncate-end">
        <Text bold>{stream.connection_id}</Text> token {stream.token_id} · {state}
      </Text>
      <Text wrap="truncate-end" dimColor>
        {`at event ${stream.cursor} of ${head}: ${behind(stream, head)}`}
      </Text>
      {subscriptions.length === 0 && <Text dimColor>no subscriptions</Text>}
      {subscriptions.slice(0, MOST_SUBSCRIPTIONS).map((s) => (
        <Text key={s.subscription_id} wrap="truncate-end">
          {`  ${s.subscription_id.padEnd(18)} ${s.endpoint}${s.target === undefined ? '' : ` ${s.target}`}`}
        </Text>
      ))}
      {subscriptions.length > MOST_SUBSCRIPTIONS && <Text dimColor>{`  … ${subscriptions.length - MOST_SUBSCRIPTIONS} more`}</Text>}
    </Box>
  )
}
