/** The keys of the current tab and of every tab, over the view; `?`, `q` or Esc closes it (console.tsx has its keys). */
import { Box, Text } from 'ink'
import { globalKeys, type Tab } from './tabs.js'
import type { KeyDoc } from './views/key-help.js'

const Keys = ({ keys }: { keys: readonly KeyDoc[] }) => (
  <>
    {keys.map(([k, what]) => (
      <Text key={k} wrap="truncate-end">
        {`  ${k.padEnd(11)} ${what}`}
      </Text>
    ))}
  </>
)

export function HelpOverlay({ tab }: { tab: Tab }) {
  return (
    <Box flexDirection="column">
      <Text bold>{`Keys of ${tab.title}`}</Text>
      {tab.keys.length > 0 ? <Keys keys={tab.keys} /> : <Text dimColor> (none of its own)</Text>}
      <Text bold>Everywhere</Text>
      <Keys keys={globalKeys} />
      <Text dimColor>?, q or Esc closes this help</Text>
    </Box>
  )
}
