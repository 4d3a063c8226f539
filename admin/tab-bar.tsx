/**
 * The title line: the tabs, numbered, the current one highlighted. It stays
 * one line: when the full titles do not fit the terminal, short ones do,
 * and failing that only the current tab keeps its title.
 */
import { Text } from 'ink'
import type { Tab } from './tabs.js'
import { useColumns } from './use-columns.js'

const NAME = 'svc'
const HELP = '? help'

/** The tenth tab is 0, the key beside 9. */
const label = (i: number, title: string): string => ` ${(i + 1) % 10} ${title} `

/** The tabs' labels that fit in `width` columns beside the console's name. */
export function tabLabels(tabs: readonly Pick<Tab, 'title' | 'short'>[], current: number, width: number): string[] {
  const room = width - NAME.length - 1
  const full = tabs.map((t, i) => label(i, t.title))
  if (full.join('').length <= room) return full
  const short = tabs.map((t, i) => label(i, t.short))
  if (short.join('').length <= room) return short
  return tabs.map((t, i) => (i === current ? label(i, t.short) : ` ${(i + 1) % 10} `))
}

export function TabBar({ tabs, current }: { tabs: readonly Tab[]; current: number }) {
  const width = useColumns()
  const labels = tabLabels(tabs, current, width)
  const used = NAME.length + 1 + labels.join('').length
  return (
    <Text wrap="truncate-end">
      <Text bold>{NAME} </Text>
      {labels.map((l, i) => (
        <Text key={i} inverse={i === current} bold={i === current}>
          {l}
        </Text>
      ))}
      {used + HELP.length + 2 <= width && <Text dimColor>{HELP.padStart(width - used - 1)}</Text>}
    </Text>
  )
}
