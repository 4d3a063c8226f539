/** The keys a view adds to the console's own, shown under its list. */
import { Text } from 'ink'

export const KeyHelp = ({ keys }: { keys: string }) => <Text dimColor>{keys}</Text>
