/**
 * A list drawn as fixed-width columns with the selected line inverted. Long
 * lists show the window of lines around the selection that fits the terminal.
 */
import { Box, Text, useStdout } from 'ink'

export interface Column<R> {
  title: string
  width: number
  value: (row: R) => string
}

/** Lines the console itself takes: tab bar, column titles, key help, status line, margins. */
const CHROME_LINES = 7

const cell = (text: string, width: number): string => (text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width))

const line = <R,>(columns: readonly Column<R>[], value: (c: Column<R>) => string): string => columns.map((c) => cell(value(c), c.width)).join(' ')

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
  if (rows === null) return <Text dimColor>loading…</Text>
  const height = Math.max(3, (stdout.rows || 24) - CHROME_LINES - reserve)
  const start = Math.max(0, Math.min(selected - Math.floor(height / 2), rows.length - height))
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {mark(false)}
        {line(columns, (c) => c.title)}
      </Text>
      {rows.length === 0 && <Text dimColor>{empty}</Text>}
      {rows.slice(start, start + height).map((row, i) => (
        <Text key={start + i} inverse={start + i === selected} wrap="truncate-end">
          {mark(start + i === selected)}
          {line(columns, (c) => c.value(row))}
        </Text>
      ))}
    </Box>
  )
}
