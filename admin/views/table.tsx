/**
 * A list drawn as columns with the selected line inverted. Each column is at
 * least its own width; a wider terminal hands the room left over to the
 * columns whose values are longer than that, share and share alike, so a key
 * or a client id shows whole where it fits. Long lists show the window of
 * lines around the selection that fits the terminal.
 */
import { Box, Text, useStdout } from 'ink'
import { useColumns } from '../use-columns.js'

export interface Column<R> {
  title: string
  /** The least it takes: what an 80-column terminal shows. */
  width: number
  value: (row: R) => string
}

/** The selection marker's width. */
const MARK = 2

/** Each column's width on a terminal `total` columns wide: its own, grown toward its longest value while room is left. */
export function fitWidths<R>(columns: readonly Column<R>[], rows: readonly R[], total: number): number[] {
  const widths = columns.map((c) => c.width)
  let room = total - MARK - (columns.length - 1) - widths.reduce((a, b) => a + b, 0)
  const wants = columns.map((c, i) => rows.reduce((most, r) => Math.max(most, [...c.value(r)].length), c.title.length) - widths[i])
  let hungry = wants.flatMap((w, i) => (w > 0 ? [i] : []))
  while (room > 0 && hungry.length > 0) {
    const share = Math.max(1, Math.floor(room / hungry.length))
    for (const i of hungry) {
      const given = Math.min(share, wants[i], room)
      widths[i] += given
      wants[i] -= given
      room -= given
    }
    hungry = hungry.filter((i) => wants[i] > 0)
  }
  return widths
}

/** Lines the console itself takes: tab bar, column titles, key help, status line, margins. */
const CHROME_LINES = 7

const cell = (text: string, width: number): string => {
  const chars = [...text]
  return chars.length > width ? `${chars.slice(0, width - 1).join('')}…` : text + ' '.repeat(width - chars.length)
}

const line = <R,>(columns: readonly Column<R>[], widths: readonly number[], value: (c: Column<R>) => string): string =>
  columns.map((c, i) => cell(value(c), widths[i])).join(' ')

// The marker shows the selection where inverse video does not (NO_COLOR, plain logs).
const mark = (selected: boolean): string => (selected ? '› ' : '  ')

/** The rows a search narrows the list to: those where some column shows `filter` (any case). */
export function matching<R>(rows: readonly R[] | null, columns: readonly Column<R>[], filter: string): R[] | null {
  const wanted = filter.trim().toLowerCase()
  if (rows === null || wanted === '') return rows as R[] | null
  return rows.filter((row) => columns.some((c) => c.value(row).toLowerCase().includes(wanted)))
}

export interface TableProps<R> {
  columns: readonly Column<R>[]
  rows: readonly R[] | null
  selected: number
  empty: string
  /** Lines the view draws besides the table (a detail pane, a filter box). */
  reserve?: number
}

export function Table<R>({ columns, rows, selected, empty, reserve = 0 }: TableProps<R>) {
  const { stdout } = useStdout()
  const total = useColumns()
  if (rows === null) return <Text dimColor>loading…</Text>
  const widths = fitWidths(columns, rows, total)
  const height = Math.max(3, (stdout.rows || 24) - CHROME_LINES - reserve)
  const start = Math.max(0, Math.min(selected - Math.floor(height / 2), rows.length - height))
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {mark(false)}
        {line(columns, widths, (c) => c.title)}
      </Text>
      {rows.length === 0 && <Text dimColor>{empty}</Text>}
      {rows.slice(start, start + height).map((row, i) => (
        <Text key={start + i} inverse={start + i === selected} wrap="truncate-end">
          {mark(start + i === selected)}
          {line(columns, widths, (c) => c.value(row))}
        </Text>
      ))}
    </Box>
  )
}
