/** The tabs, the current one highlighted, and the keys that work everywhere. */
import { Box, Text } from 'ink'

export const TabBar = ({ titles, current }: { titles: readonly string[]; current: number }) => (
  <Box gap={1}>
    <Text bold>svc console</Text>
    {titles.map((title, i) => (
      <Text key={title} inverse={i === current} bold={i === current}>
        {` ${title} `}
      </Text>
    ))}
    <Text dimColor>Tab/←→ switch · ↑↓ select · g refresh · q quit</Text>
  </Box>
)
