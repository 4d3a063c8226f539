/** The search box, in place of the status line while the operator types (use-search.ts has its keys). */
import { Text } from 'ink'

export const SearchLine = ({ typed }: { typed: string }) => (
  <Text color="cyan" wrap="truncate-end">
    /{typed}
    <Text inverse> </Text>
    <Text dimColor> Enter keeps · Esc clears</Text>
  </Text>
)
