/** The keys of the current tab, shown under its list, and the same keys as the help overlay lists them. */
import { Text } from 'ink'

/** A key (or keys) and what it does. */
export type KeyDoc = readonly [keys: string, what: string]

/** The line under a list: the tab's own keys, then the way to the rest. */
export const KeyHelp = ({ keys }: { keys: readonly KeyDoc[] }) => (
  <Text dimColor wrap="truncate-end">
    {[...keys, ['/', 'search'] as const, ['?', 'help'] as const].map(([k, what]) => `${k} ${what}`).join(' · ')}
  </Text>
)
